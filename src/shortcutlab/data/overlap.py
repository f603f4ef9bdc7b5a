"""Exact copies across tables: test rows whose text repeats a training row's text.

Texts compare normalised (lower case, whitespace collapsed; both parts for pairs), the way the
audit's leakage check compares them (:mod:`shortcutlab.families.audit.scan.leakage` uses these
functions), so a build's warning and an audit of the same files count the same rows.

Examples:
    >>> texts = pa.array(["  So\\tBAD ", "fine"], pa.large_string())
    >>> row_keys(texts).to_pylist()
    ['so bad', 'fine']
    >>> repeated_rows([row_keys(texts)], row_keys(pa.array(["so  bad", "new"], pa.large_string())))
    1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.data.column_names import TEXT, TEXT_PAIR
from shortcutlab.data.columns import string_array
from shortcutlab.data.loading import LoadedTable
from shortcutlab.errors import DataError, spelled, warn

#: Texts lower-cased and collapsed per chunk (:func:`collapsed`).
CHUNK_ROWS = 16_384
#: Whitespace that is not one space: two spaces, or any other character Arrow's
#: ``utf8_split_whitespace`` splits on (checked against every code point with pyarrow 26).
_IRREGULAR_SPACE = (
    r"  |[\t\n\x{0b}\x{0c}\r\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}"
    r"\x{2029}\x{202f}\x{205f}\x{3000}]"
)
#: Above this share of test rows repeating a training row, a build warns; at all of them it stops.
WARN_SHARE = 0.05


def collapsed(texts: pa.Array) -> pa.Array:
    """``texts`` in lower case, with runs of whitespace made one space and the ends trimmed."""
    texts = pc.cast(texts, pa.large_string())
    chunks = [
        _collapsed_chunk(texts[start : start + CHUNK_ROWS])
        for start in range(0, len(texts), CHUNK_ROWS)
    ]
    return pa.concat_arrays(chunks) if chunks else string_array([], large=True)


def _collapsed_chunk(texts: pa.Array) -> pa.Array:
    # Most texts have single spaces only: lower-cased and trimmed they are already collapsed,
    # and the split and join (3/4 of the time) is spent on the few others. Split and join beat
    # an RE2 replacement of \s+ by 2.5x (measured on 100k rows).
    lowered = pc.utf8_trim_whitespace(pc.utf8_lower(texts))
    irregular = pc.and_kleene(  # a missing text is no irregular one (false, not null)
        pc.match_substring_regex(lowered, _IRREGULAR_SPACE), pc.is_valid(lowered)
    )
    if not pc.any(irregular).as_py():
        return lowered
    words = pc.utf8_split_whitespace(pc.filter(lowered, irregular))
    joined = pc.binary_join(words, _separator(" "))
    return pc.replace_with_mask(lowered, irregular, joined)


def row_keys(texts: pa.Array, text_pairs: pa.Array | None = None) -> pa.Array:
    """Each row's normalised text; both parts for pairs (joined by a tab, which the collapsing
    has removed from the parts)."""
    keys = collapsed(texts)
    if text_pairs is None:
        return keys
    return pc.binary_join_element_wise(keys, collapsed(text_pairs), _separator("\t"))


def _separator(text: str) -> pa.Scalar:
    # pa.scalar("...") imports pandas (half a second of a build's start-up); an array's item not
    return string_array([text], large=True)[0]


def repeated_rows(train_keys: Iterable[pa.Array], test_keys: pa.Array) -> int:
    """How many rows of ``test_keys`` also occur in ``train_keys`` (given in pieces, so a large
    training table is never held whole)."""
    found = [keys.filter(pc.is_in(keys, value_set=test_keys)) for keys in train_keys]
    found = [keys for keys in found if len(keys)]
    if not found:
        return 0
    return int(pc.sum(pc.is_in(test_keys, value_set=pa.concat_arrays(found))).as_py() or 0)


def table_keys(table: LoadedTable) -> Iterator[pa.Array]:
    """:func:`row_keys` of a table, a piece at a time (a streamed table is read from its file)."""
    for batch in table.batches(CHUNK_ROWS):
        pairs = (
            batch.column(TEXT_PAIR).combine_chunks() if TEXT_PAIR in batch.column_names else None
        )
        yield row_keys(batch.column(TEXT).combine_chunks(), pairs)


def check_test_overlap(train: LoadedTable, test: LoadedTable) -> None:
    """Refuse a test table every row of which repeats a training row (the same file given
    twice), and warn when more than :data:`WARN_SHARE` of its rows do: on such rows a test
    measures memory, not a shortcut."""
    test_keys = list(table_keys(test))
    total = sum(len(keys) for keys in test_keys)
    if not total:
        return
    repeated = repeated_rows(table_keys(train), pa.concat_arrays(test_keys))
    del test_keys
    pa.default_memory_pool().release_unused()  # the keys' blocks, before the build needs memory
    same = "the same text, ignoring case and spacing"
    if repeated == total:
        raise DataError(
            f"All {total:,} test rows repeat a training row ({same}), so the test would measure "
            "memory, not a shortcut. Give a test table that is not the training table "
            "('shortcutlab split' makes both from one file)."
        )
    if repeated > WARN_SHARE * total:
        warn(
            f"{repeated:,} of {total:,} test rows ({100 * repeated / total:.1f} %) repeat a "
            f"training row ({same}); on them the test measures memory. {_audit()} lists them."
        )


__all__ = [
    "WARN_SHARE",
    "check_test_overlap",
    "collapsed",
    "repeated_rows",
    "row_keys",
    "table_keys",
]


def _audit() -> str:
    """The audit that lists the repeated rows, as the caller runs it."""
    return spelled("'shortcutlab audit TRAIN --test TEST'", "audit_dataset(train, test=test)")
