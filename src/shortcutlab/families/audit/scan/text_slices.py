"""A slice of one part's texts and the views of it that the scan's indicators read, each made once.

The scan reads a table a slice of rows at a time (:data:`SLICE_ROWS`), so what it holds besides
the texts is the size of a slice, not of the table: the lower-cased texts, their words and their
spaced-word view (:mod:`shortcutlab.attributes.words`) live only while their slice is counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.lexical import normalised
from shortcutlab.attributes.words import spaced_normalised
from shortcutlab.families.audit.scan.indicator_counts import row_weights
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.tokens import (
    arrow_words_agree,
    clitics_cut,
    findall_words,
    spaced_from_words,
    words,
)

#: Rows read at once: enough that the per-slice costs fade (each regular-expression kernel call
#: compiles its pattern, 1-3 ms with Unicode classes; each slice looks its distinct n-grams up),
#: few enough that a slice's views and position arrays stay a small part of the peak (~85 MB
#: more at 32,768 rows than at 16,384, on two comments a row; 8% less time at 200,000 rows).
SLICE_ROWS = 32_768


class TextSlice:
    """Rows ``start``.. of one part: ``texts``, their label ``ranks``, their metadata entries
    (``columns``) and the views below."""

    def __init__(
        self, texts: pa.Array, start: int, ranks: np.ndarray, columns: dict[str, list[Any]]
    ) -> None:
        self.texts = texts
        self.start = start
        self.stop = start + len(texts)
        self.ranks = ranks
        self.columns = columns

    @cached_property
    def weights(self) -> np.ndarray:
        """The rows' fingerprint numbers (:func:`row_weights`)."""
        return row_weights(self.start, self.stop)

    @cached_property
    def normalised(self) -> pa.Array:
        """:func:`~shortcutlab.attributes.lexical.normalised` texts."""
        return normalised(self.texts)

    @cached_property
    def prepared(self) -> pa.Array:
        """The texts as the token scan reads them: normalised, clitics cut."""
        return clitics_cut(self.normalised)

    @cached_property
    def arrow_words(self) -> bool:
        """Whether Arrow's kernels read the same words as the token pattern's ``findall``."""
        return arrow_words_agree(self.prepared)

    @cached_property
    def words(self) -> pa.ListArray:
        """Per text, its tokens (``findall`` of the token pattern on :attr:`prepared`)."""
        return words(self.prepared) if self.arrow_words else findall_words(self.prepared)

    @cached_property
    def spaced(self) -> pa.Array:
        """:func:`~shortcutlab.attributes.words.spaced_words` of the texts (made from
        :attr:`words` where they were read, and read by Arrow)."""
        if "words" in self.__dict__ and self.arrow_words:
            return spaced_from_words(self.words, self.normalised)
        return spaced_normalised(self.normalised)

    @cached_property
    def irregular(self) -> np.ndarray:
        """Per row, whether its spaced words are not simply its :attr:`words` less those ending
        in "n't" and the clitic breaks
        (:func:`~shortcutlab.families.audit.scan.tokens.spaced_from_words` says which rows: a "_",
        or an "n't'"; every row where Python read the words)."""
        if not self.arrow_words:
            return np.ones(len(self.texts), dtype=bool)
        differ = pc.or_(
            pc.match_substring(self.normalised, "n't'"), pc.match_substring(self.normalised, "_")
        )
        return differ.to_numpy(zero_copy_only=False)

    @cached_property
    def irregular_spaced(self) -> pa.Array:
        """:attr:`spaced` of the :attr:`irregular` rows alone, in order."""
        return self.subset(np.flatnonzero(self.irregular)).spaced

    @cached_property
    def lowered(self) -> pa.Array:
        """The texts in lower case (what :func:`rows_holding` searches)."""
        return pc.utf8_lower(self.texts)

    def subset(self, rows: np.ndarray) -> TextSlice:
        """The slice's rows at positions ``rows`` (their views made anew, for them alone)."""
        taken = pa.array(rows, pa.int64())
        columns = {
            name: [values[i] for i in rows.tolist()] for name, values in self.columns.items()
        }
        return TextSlice(self.texts.take(taken), self.start, self.ranks[rows], columns)


def rows_holding(piece: TextSlice, words: Iterable[str]) -> np.ndarray:
    """Positions of the rows of ``piece`` that may hold one of ``words`` (tokens, or words of the
    spaced view): every row that does, and maybe others. A word's characters lie together in the
    lower-cased text but for an apostrophe (written ’ there), the whitespace a joined "do n't"
    lost, or a clitic cut off, so the longest piece of the word between apostrophes (less the
    "n" of an "n't") is searched for."""
    pieces = set()
    for word in words:
        parts = word.split("'")
        if word.endswith("n't"):
            parts = [*parts[:-2], parts[-2][:-1]]  # "don't": "do" (from "do n't" too)
        longest = max(parts, key=len)
        if not longest:
            return np.arange(len(piece.texts))
        pieces.add(longest)
    if not pieces:
        return np.zeros(0, dtype=np.int64)
    pattern = "|".join(re.escape(found) for found in sorted(pieces))
    held = pc.match_substring_regex(piece.lowered, pattern)
    return np.flatnonzero(held.to_numpy(zero_copy_only=False))


def read_rows(
    piece: TextSlice, words: Iterable[str], width: int, read: Callable[[TextSlice], np.ndarray]
) -> np.ndarray:
    """``read(rows)`` (rows × width, boolean) for the rows of ``piece`` that may hold one of
    ``words`` (:func:`rows_holding`), False for the others: what a row cannot hold is not
    looked for."""
    out = np.zeros((len(piece.texts), width), dtype=bool)
    rows = rows_holding(piece, words)
    if len(rows) == len(piece.texts):
        out[:] = read(piece)
    elif len(rows):
        out[rows] = read(piece.subset(rows))
    return out


def text_slices(table: AuditInputs, part: str, rows: int | None = None) -> Iterator[TextSlice]:
    """``table``'s part ``part``, a slice of ``rows`` (default :data:`SLICE_ROWS`) at a time."""
    for start, texts in table.text_slices(part, rows or SLICE_ROWS):
        stop = start + len(texts)
        columns = {name: values[start:stop] for name, values in table.columns.items()}
        yield TextSlice(texts, start, table.ranks[start:stop], columns)
