"""The injectors' text edits over whole Arrow string columns: the same strings as the per-row
Python edits of :mod:`.text_ops` (:func:`~.text_ops.prepended`, :func:`~.text_ops.insert_at`),
made by Arrow kernels and numpy over the columns' buffers, with no Python string per row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.casing import KEEP_CAPITAL, OPENER_PATTERN
from shortcutlab.data.columns import (
    int_array,
    numpy_of,
    string_array,
    text_scalar,
    value_offsets,
)


def prepend_column(
    leads: Sequence[str], index: np.ndarray, texts: pa.Array
) -> tuple[pa.Array, np.ndarray]:
    """``leads[index[i]] + " " + texts[i]`` per row (the lead alone for an empty text), and the
    character offset where each lead and its space end (:func:`.text_ops.prepended`).

    Examples:
        >>> column, ends = prepend_column(["In Oslo.", "Fine."], np.array([0, 1]), pa.array(["Good.", ""]))
        >>> column.to_pylist(), ends.tolist()
        (['In Oslo. Good.', 'Fine.'], [9, 5])
    """
    choices = string_array(list(leads))
    chosen = choices.take(int_array(index))
    joined = pc.binary_join_element_wise(chosen, texts, text_scalar(" "))
    has_text = numpy_of(pc.binary_length(texts)) > 0
    if not has_text.all():
        joined = pc.if_else(pa.array(has_text), joined, chosen)
    lengths = numpy_of(pc.utf8_length(choices)).astype(np.int64)
    return joined, lengths[index] + has_text


def insert_column(
    texts: pa.Array,
    rows: np.ndarray,
    at: tuple[np.ndarray, np.ndarray],
    pieces: Sequence[str],
    chosen: np.ndarray,
    *,
    opens_sentence: bool = False,
) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    """``pieces[chosen[j]]`` put into row ``rows[j]`` at offset ``at[j]`` (characters, UTF-8
    bytes), or, in an empty text, the piece without its trailing space (:func:`.text_ops.insert_at`,
    ``opens_sentence`` too); with each row's span ``[start, end)`` in characters (-1: nothing
    inserted).

    Each text is cut in two where its piece goes, and one ``take`` lays the halves and the
    pieces end to end: that buffer already holds the new texts, one after another.

    Examples:
        >>> at = (np.array([6, 0]), np.array([6, 0]))
        >>> new, start, end = insert_column(pa.array(["Good. Bad.", "", "Ok"]), np.array([0, 1]), at, ["Honestly, "], np.array([0, 0]))
        >>> new.to_pylist(), start.tolist(), end.tolist()
        (['Good. Honestly, Bad.', 'Honestly,', 'Ok'], [6, 0, -1], [16, 9, -1])
    """
    n, k = len(texts), len(pieces)
    offsets = value_offsets(texts)
    empty = offsets[rows + 1] == offsets[rows]
    cut = offsets[:-1].copy()
    cut[rows] += at[1]
    halves = np.empty(2 * n + 1, np.int64)
    halves[0::2], halves[1::2] = offsets, cut
    data = texts.buffers()[2] or pa.py_buffer(b"")
    split = pa.Array.from_buffers(pa.large_string(), 2 * n, [None, pa.py_buffer(halves), data])
    # Choice k * 2 is "" (no insert); choices k..2k-1 are the pieces for empty texts.
    options = [*pieces, *(p.rstrip() for p in pieces), ""]
    which = np.full(n, 2 * k, np.int64)
    which[rows] = chosen + k * empty
    inserted = string_array(options, large=True).take(int_array(which))
    order = np.empty(3 * n, np.int64)
    order[0::3], order[1::3], order[2::3] = np.arange(0, 2 * n, 2), 2 * n + np.arange(n), 1
    order[2::3] += np.arange(0, 2 * n, 2)
    laid = pa.concat_arrays([split, inserted]).take(int_array(order))
    data = laid.buffers()[2]
    if opens_sentence:
        data = _ordinary_openers_lowered(split, laid, rows[~empty])
    ends = np.ascontiguousarray(value_offsets(laid)[0::3])
    joined = pa.Array.from_buffers(pa.large_string(), n, [None, pa.py_buffer(ends), data])
    start = np.full(n, -1, np.int64)
    end = np.full(n, -1, np.int64)
    lengths = np.asarray([len(o) for o in options], np.int64)
    start[rows] = np.where(empty, 0, at[0])
    end[rows] = start[rows] + lengths[which[rows]]
    return joined.cast(texts.type), start, end


def _ordinary_openers_lowered(split: pa.Array, laid: pa.Array, rows: np.ndarray) -> pa.Buffer:
    """``laid``'s bytes with the first letter after each of ``rows``' pieces lowered where it is
    capital only because it opens the sentence (:func:`~shortcutlab.casing.lower_ordinary_opener`:
    the same pattern and names); an ASCII letter, so no length and no span moves."""
    data = laid.buffers()[2]
    if not len(rows):
        return data
    words = pc.struct_field(
        pc.extract_regex(split.take(int_array(2 * rows + 1)), OPENER_PATTERN), "word"
    )
    kept = pc.is_in(pc.utf8_lower(words), value_set=string_array(sorted(KEEP_CAPITAL)))
    # No word matched (null): nothing to lower; is_in answers false there, not null.
    lowered = rows[numpy_of(pc.and_(pc.is_valid(words), pc.invert(kept))).astype(bool)]
    if not len(lowered):
        return data
    letters = np.frombuffer(data, np.uint8).copy()  # Arrow's buffers are read-only
    letters[value_offsets(laid)[3 * lowered + 2]] += ord("a") - ord("A")
    return pa.py_buffer(letters)


def array_of_rows(texts: pa.Array, rows: np.ndarray) -> pa.Array:
    """Rows ``rows`` of ``texts`` (the array itself where they are all of it)."""
    return texts if len(rows) == len(texts) else texts.take(int_array(rows))


def overridden(shortcut: object, base: type, method: str) -> bool:
    """Whether a subclass changed ``base``'s ``method``: its column path then goes through
    that method, not through ``base``'s Arrow version of it."""
    return getattr(type(shortcut), method) is not getattr(base, method)
