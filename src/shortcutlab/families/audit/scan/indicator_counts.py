"""What the scan keeps of each indicator instead of its rows: how many rows have it, how many of
each label, and a fingerprint of which rows, added up a slice of rows at a time.

The scan tests an indicator on its label counts alone (:mod:`shortcutlab.metrics.association`),
and folds indicators with exactly the same rows into one candidate; for that it compares the rows'
fingerprints: per row, three pseudo-random whole numbers below 2**20 fixed by the row's position
(SplitMix64), summed over the indicator's rows. The sums are exact (float64 holds whole numbers to
2**53, so up to 2**33 rows), so the same rows always give the same fingerprint, in any order of
slices; two different row sets with the same support and label counts share all three sums with
probability about 2**-60.

Examples:
    >>> counts = IndicatorCounts.empty(n_classes=2, size=2)
    >>> matrix = np.array([[1, 0], [1, 1], [0, 1]], dtype=bool)
    >>> counts.add_dense(matrix, np.array([0, 1, 1]), row_weights(0, 3))
    >>> counts.support.tolist(), counts.counts.tolist()
    ([2, 2], [[1, 1], [0, 2]])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

#: Independent sums per fingerprint, and the bits of each row's number.
FINGERPRINTS = 3
_WEIGHT_BITS = 20
#: Rows a fingerprint stays exact for (the sums stay below 2**53).
MAX_ROWS = 1 << (53 - _WEIGHT_BITS)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def row_weights(start: int, stop: int) -> np.ndarray:
    """(rows, FINGERPRINTS) float64 whole numbers below 2**20 of rows ``start``..``stop``-1."""
    index = np.arange(start, stop, dtype=np.uint64)
    weights = np.empty((stop - start, FINGERPRINTS), dtype=np.float64)
    with np.errstate(over="ignore"):
        for j in range(FINGERPRINTS):
            weights[:, j] = _splitmix64(index * np.uint64(FINGERPRINTS) + np.uint64(j)) >> (
                np.uint64(64 - _WEIGHT_BITS)
            )
    return weights


def _splitmix64(values: np.ndarray) -> np.ndarray:
    """SplitMix64's output function (Steele et al. 2014), wrapping modulo 2**64."""
    z = values + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@dataclass
class IndicatorCounts:
    """Per indicator: ``support`` (rows with it), ``counts`` (rows with it per label, (F, K))
    and ``prints`` (the fingerprint of its rows, (F, FINGERPRINTS))."""

    support: np.ndarray
    counts: np.ndarray
    prints: np.ndarray

    @classmethod
    def empty(cls, n_classes: int, size: int = 0) -> IndicatorCounts:
        return cls(
            np.zeros(size, dtype=np.int64),
            np.zeros((size, n_classes), dtype=np.int64),
            np.zeros((size, FINGERPRINTS), dtype=np.float64),
        )

    def grow(self, size: int) -> None:
        """Room for at least ``size`` indicators (the new ones at zero; the arrays may hold more
        than the caller's indicators: it keeps its own count). Capacity doubles, so a vocabulary
        found a slice at a time is copied O(log F) times."""
        if size <= len(self.support):
            return
        capacity = max(size, 2 * len(self.support), 1024)
        for name in ("support", "counts", "prints"):
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def add_dense(self, matrix: np.ndarray, ranks: np.ndarray, weights: np.ndarray) -> None:
        """Add a slice of rows: ``matrix`` (rows × F) indicators, their label ranks and
        :func:`row_weights`."""
        present = np.asarray(matrix, dtype=bool)
        columns = present.shape[1]
        self.grow(columns)
        n_classes = self.counts.shape[1]
        by_label = np.zeros((len(ranks), n_classes), dtype=np.float64)
        by_label[np.arange(len(ranks)), ranks] = 1.0
        as_float = present.astype(np.float64)
        # Whole numbers below 2**53 throughout: the products are exact in any summing order.
        self.support[:columns] += present.sum(axis=0)
        self.counts[:columns] += (as_float.T @ by_label).astype(np.int64)
        self.prints[:columns] += as_float.T @ weights

    def add_entries(
        self,
        ids: np.ndarray,
        local: np.ndarray,
        rows: np.ndarray,
        ranks: np.ndarray,
        weights: np.ndarray,
    ) -> None:
        """Add a slice of rows given as entries: entry ``e`` says row ``rows[e]`` of the slice
        (rows in order) has indicator ``ids[local[e]]``; a row that repeats an indicator counts
        once. ``ids`` are distinct; ``ranks`` and ``weights`` are the slice's rows'."""
        size = len(ids)
        if not size:
            return
        rows_in_slice = len(ranks)
        # The (row, id) pairs as a CSR matrix straight from the row-ordered entries: the repeats
        # within a row are summed where the row's few entries are sorted, much cheaper than a
        # sort or hash of all pairs.
        indptr = np.zeros(rows_in_slice + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=rows_in_slice), out=indptr[1:])
        matrix = sp.csr_matrix(
            (np.ones(len(local), dtype=np.int32), local, indptr), shape=(rows_in_slice, size)
        )
        matrix.sum_duplicates()
        matrix.data[:] = 1  # a row with the indicator, however often
        # One pass over the entries for every sum: (ids × rows) @ (rows × [labels, weights]).
        n_classes = self.counts.shape[1]
        by_row = np.zeros((rows_in_slice, n_classes + FINGERPRINTS), dtype=np.float64)
        by_row[np.arange(rows_in_slice), ranks] = 1.0
        by_row[:, n_classes:] = weights
        sums = matrix.T @ by_row  # whole numbers below 2**53: exact in any order
        del matrix
        self.grow(int(ids.max()) + 1)
        labelled = sums[:, :n_classes].astype(np.int64)
        self.counts[ids] += labelled
        self.support[ids] += labelled.sum(axis=1)
        self.prints[ids] += sums[:, n_classes:]

    def take(self, index: np.ndarray) -> IndicatorCounts:
        """The indicators at ``index``, in that order."""
        return IndicatorCounts(self.support[index], self.counts[index], self.prints[index])

    @classmethod
    def joined(cls, parts: list[IndicatorCounts], n_classes: int) -> IndicatorCounts:
        """``parts`` one after the other."""
        if not parts:
            return cls.empty(n_classes)
        return cls(
            np.concatenate([p.support for p in parts]),
            np.concatenate([p.counts for p in parts]),
            np.concatenate([p.prints for p in parts]),
        )

    def signatures(self) -> list[bytes]:
        """Per indicator, what identifies its rows: its support, label counts and fingerprint."""
        keys = np.column_stack([self.support, self.counts]).astype(np.float64)
        return [row.tobytes() for row in np.column_stack([keys, self.prints])]


def grown(array: np.ndarray, size: int) -> np.ndarray:
    """``array`` with room for ``size`` entries (zeros after its own), doubling its capacity."""
    if size <= len(array):
        return array
    bigger = np.zeros(max(size, 2 * len(array), 1024), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
