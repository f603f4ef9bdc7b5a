"""Find literal words in many texts at C speed: one lower-cased UTF-8 buffer and numpy comparisons.

The cleaners and the cue detector do per-row Python work only on rows that contain a needle; this
module finds those rows (and, for single words, every occurrence with its neighbouring bytes)
without a Python loop over the rows, which keeps a 200,000-row build well under a second.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow.compute as pc

from shortcutlab.data.columns import string_array

_EMPTY = np.zeros(0, dtype=np.int64)
WINDOW_LIMIT = 64  # the widest window :meth:`LoweredBytes.windows` serves


@dataclass(frozen=True)
class LoweredBytes:
    """Texts lower-cased and UTF-8 encoded end to end; row ``i`` is ``data[offsets[i]:offsets[i + 1]]``."""

    data: np.ndarray
    offsets: np.ndarray

    @classmethod
    def of(cls, texts: Sequence[str], *, ascii_only: bool = True) -> LoweredBytes:
        """Encode ``texts``; ``ascii_only`` folds A-Z only (enough for ASCII needles, and 10x faster)."""
        array = string_array(texts, large=True)
        lowered = pc.ascii_lower(array) if ascii_only else pc.utf8_lower(array)
        _, offsets, data = lowered.buffers()
        start = lowered.offset
        return cls(
            data=np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8),
            offsets=np.frombuffer(offsets, dtype=np.int64)[start : start + len(texts) + 1],
        )

    def find(self, needle: str) -> tuple[np.ndarray, np.ndarray]:
        """Byte positions of ``needle`` (lower-case) inside single rows, and the row of each
        (in no particular order)."""
        encoded = needle.encode("utf-8")
        positions = find_bytes(self.data, encoded)
        rows = np.searchsorted(self.offsets, positions, side="right") - 1
        inside = positions + len(encoded) <= self.offsets[rows + 1]
        return positions[inside], rows[inside]

    def rows_containing(self, needles: Iterable[str]) -> np.ndarray:
        """Sorted rows that contain at least one of ``needles``."""
        return distinct([self.find(n)[1] for n in needles])

    def windows(self, starts: np.ndarray, width: int) -> np.ndarray:
        """The ``width`` bytes from each of ``starts`` as the rows of a matrix (NUL outside the
        buffer, ``starts`` at most :data:`WINDOW_LIMIT` bytes outside it; rows of the text are
        not separated, so callers mask them themselves)."""
        if width > WINDOW_LIMIT:
            raise ValueError(f"windows are at most {WINDOW_LIMIT} bytes wide, not {width}")
        view = np.lib.stride_tricks.sliding_window_view(self._padded, width)
        return view[starts + WINDOW_LIMIT]

    @cached_property
    def _padded(self) -> np.ndarray:
        pad = np.zeros(WINDOW_LIMIT, np.uint8)
        return np.concatenate([pad, self.data, pad])


def distinct(arrays: Sequence[np.ndarray]) -> np.ndarray:
    """The sorted distinct values of some integer arrays (sorting beats numpy 2's hashing here)."""
    if not arrays:
        return _EMPTY
    values = np.sort(np.concatenate(arrays))
    return values[np.concatenate(([True], values[1:] != values[:-1]))] if len(values) else values


def find_bytes(data: np.ndarray, needle: bytes) -> np.ndarray:
    """Every start position of ``needle`` in ``data`` (uint8), overlapping ones included, unsorted.

    Four-byte needles and longer are anchored on their first four bytes, compared as uint32 words
    at the four alignments: four passes over a quarter of the data each, instead of one byte-wise
    comparison that yields a candidate for every common letter.

    Examples:
        >>> sorted(find_bytes(np.frombuffer(b"honestly, honestly", np.uint8), b"honestly").tolist())
        [0, 10]
    """
    n, m = len(data), len(needle)
    if m == 0 or n < m:
        return _EMPTY
    if m >= 4:
        key = np.frombuffer(needle[:4], dtype=np.uint32)[0]
        found = []
        for shift in range(4):
            words = (n - shift) // 4
            view = data[shift : shift + 4 * words].view(np.uint32)
            found.append(np.flatnonzero(view == key) * 4 + shift)
        positions = np.concatenate(found).astype(np.int64)  # grouped by alignment, not sorted
        checked = 4
    else:
        positions = np.flatnonzero(data == needle[0]).astype(np.int64)
        checked = 1
    positions = positions[positions <= n - m]
    for k in range(checked, m):
        positions = positions[data[positions + k] == needle[k]]
    return positions


def rows_containing(texts: Sequence[str], needles: Sequence[str]) -> np.ndarray:
    """Sorted rows of ``texts`` holding at least one of the lower-case ``needles``, in any case."""
    ascii_only = all(n.isascii() for n in needles)
    return LoweredBytes.of(texts, ascii_only=ascii_only).rows_containing(needles)
