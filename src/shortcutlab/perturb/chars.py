"""Character noise over whole tables at once: every text's characters as one array of code points.

All rows are joined into one UTF-32 array; an edit picks candidate positions with the counter-based
draws of :mod:`~shortcutlab.perturb.base` and rewrites them in place, and the array is cut back into
texts. Python runs one loop over the rows (the cut), not one per character.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

_ENCODING = "utf-32-le"
_ERRORS = "surrogatepass"  # a lone surrogate in a text survives the round trip


@dataclass(frozen=True)
class CodePoints:
    """Every text's characters in one array, with the row and position of each character."""

    codes: np.ndarray  # uint32 code points, texts one after another
    lengths: np.ndarray  # characters per text
    rows: np.ndarray  # the text each character belongs to
    positions: np.ndarray  # the character's position in its text

    @classmethod
    def of(cls, texts: Sequence[str]) -> CodePoints:
        joined = "".join(texts).encode(_ENCODING, _ERRORS)
        codes = np.frombuffer(joined, dtype=np.uint32).copy()
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        rows = np.repeat(np.arange(len(texts)), lengths)
        starts = np.cumsum(lengths) - lengths
        return cls(codes, lengths, rows, np.arange(len(codes)) - np.repeat(starts, lengths))

    def texts(self, codes: np.ndarray, lengths: np.ndarray | None = None) -> list[str]:
        """The texts spelt by ``codes``, ``lengths`` characters each (default: these lengths)."""
        joined = codes.astype(np.uint32).tobytes().decode(_ENCODING, _ERRORS)
        ends = np.cumsum(self.lengths if lengths is None else lengths).tolist()
        return [joined[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]

    def repeated(self, repeats: np.ndarray) -> list[str]:
        """The texts with each character written ``repeats`` times (0 deletes it)."""
        lengths = np.bincount(self.rows, weights=repeats, minlength=len(self.lengths))
        return self.texts(np.repeat(self.codes, repeats), lengths.astype(np.int64))


def chosen(draws: np.ndarray, rows: np.ndarray, rate: float) -> np.ndarray:
    """Which candidates to edit: those whose draw is below ``rate``, and in every row that has a
    candidate the one with the smallest draw, so each row with something to change changes.
    ``rows`` must be sorted (candidates in text order)."""
    if len(draws) == 0:
        return np.zeros(0, dtype=bool)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    smallest = np.minimum.reduceat(draws, starts)
    counts = np.diff(np.r_[starts, len(draws)])
    return (draws < rate) | (draws == np.repeat(smallest, counts))


@dataclass(frozen=True)
class SubstitutionTable:
    """Per code point, the characters it may become (a row of -1 padding for none)."""

    options: np.ndarray  # (max code + 1, width) code points, -1 padded
    counts: np.ndarray  # options per code point

    @classmethod
    def of(cls, table: Mapping[str, str]) -> SubstitutionTable:
        size = max(map(ord, table)) + 1
        width = max(map(len, table.values()))
        options = np.full((size, width), -1, dtype=np.int64)
        counts = np.zeros(size, dtype=np.int64)
        for char, replacements in table.items():
            options[ord(char), : len(replacements)] = [ord(r) for r in replacements]
            counts[ord(char)] = len(replacements)
        return cls(options, counts)

    def candidates(self, codes: np.ndarray) -> np.ndarray:
        """The positions of the characters this table can replace."""
        inside = codes < len(self.counts)
        can = np.zeros(len(codes), dtype=bool)
        can[inside] = self.counts[codes[inside]] > 0
        return np.flatnonzero(can)

    def substitute(self, codes: np.ndarray, picks: np.ndarray) -> np.ndarray:
        """Each of ``codes`` replaced by the option ``floor(pick * options)`` of it."""
        index = (picks * self.counts[codes]).astype(np.int64)
        return self.options[codes, index]


def substitute(
    texts: Sequence[str], table: SubstitutionTable, key: np.uint64, rate: float
) -> list[str]:
    """The texts with characters of ``table`` replaced at ``rate`` (at least one per row that has
    one), each by one of its options."""
    from shortcutlab.perturb.base import uniforms

    points = CodePoints.of(texts)
    where = table.candidates(points.codes)
    rows, slots = points.rows[where], points.positions[where]
    where = where[chosen(uniforms(key, rows, 2 * slots), rows, rate)]
    codes = points.codes.copy()
    picks = uniforms(key, points.rows[where], 2 * points.positions[where] + 1)
    codes[where] = table.substitute(points.codes[where], picks)
    return points.texts(codes)


def swap_neighbours(
    texts: Sequence[str], letters: np.ndarray, key: np.uint64, rate: float
) -> list[str]:
    """The texts with pairs of adjacent, different letters of the same word swapped at ``rate``
    (at least one per row that has such a pair); ``letters`` marks which code points are letters
    (indexed by code point, shorter than the largest code point is fine)."""
    from shortcutlab.perturb.base import uniforms

    points = CodePoints.of(texts)
    codes = points.codes
    is_letter = np.zeros(len(codes), dtype=bool)
    inside = codes < len(letters)
    is_letter[inside] = letters[codes[inside]]
    pair = is_letter[:-1] & is_letter[1:] & (codes[:-1] != codes[1:])
    pair &= points.rows[:-1] == points.rows[1:]
    where = np.flatnonzero(pair)
    rows = points.rows[where]
    where = where[chosen(uniforms(key, rows, points.positions[where]), rows, rate)]
    where = where[np.r_[True, np.diff(where) > 1]] if len(where) else where  # no overlapping pairs
    swapped = codes.copy()
    swapped[where], swapped[where + 1] = codes[where + 1], codes[where]
    return points.texts(swapped)
