"""Indicator blocks (the same rows, different columns) joined side by side into one CSR matrix,
each block let go as soon as its entries are copied.

``scipy.sparse.hstack`` holds every block and the joined matrix at once, and copies each block's
values; an indicator's value is always 1, so here only the column numbers are copied (row by row
in slices of rows), the values are made once the blocks are gone, and the largest block (the
words, first) is freed before the next is read. The result is ``hstack``'s: the same entries in
the same order within each row.

Examples:
    >>> import numpy as np
    >>> joined = join_indicator_blocks([sp.csr_matrix(np.eye(2, dtype=np.int32)),
    ...                                 sp.csr_matrix(np.ones((2, 1), dtype=np.int32))], 2)
    >>> joined.toarray().tolist()
    [[1, 0, 1], [0, 1, 1]]
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

#: Rows whose entries are placed at once (bounds the temporary position arrays).
ROWS_PER_SLICE = 16_384


def join_indicator_blocks(blocks: list[sp.csr_matrix], rows: int) -> sp.csr_matrix:
    """The blocks' columns side by side, every stored entry read as presence (int32 1, as the
    indicator blocks hold); ``blocks`` is emptied as it is read."""
    counts = [np.diff(block.indptr) for block in blocks]
    per_row = np.zeros(rows, dtype=np.int64)
    for count in counts:
        per_row += count
    total = int(per_row.sum())
    index_type = np.int32 if total < np.iinfo(np.int32).max else np.int64
    indptr = np.zeros(rows + 1, dtype=index_type)
    np.cumsum(per_row, out=indptr[1:])
    del per_row
    indices = np.empty(total, dtype=np.int32)
    free = indptr[:-1].astype(np.int64)  # per row, its next free entry
    width = 0
    while blocks:
        block, count = blocks.pop(0), counts.pop(0)
        _place(block, count, free, indices, width)
        free += count
        width += block.shape[1]
        del block
    data = np.ones(total, dtype=np.int32)
    return sp.csr_matrix((data, indices, indptr), shape=(rows, width))


def _place(
    block: sp.csr_matrix, count: np.ndarray, free: np.ndarray, indices: np.ndarray, width: int
) -> None:
    """Copy ``block``'s column numbers (shifted by ``width``) to each row's free entries."""
    rows = len(count)
    for start in range(0, rows, ROWS_PER_SLICE):
        stop = min(start + ROWS_PER_SLICE, rows)
        first, last = int(block.indptr[start]), int(block.indptr[stop])
        if first == last:
            continue
        within = np.arange(first, last) - np.repeat(block.indptr[start:stop], count[start:stop])
        at = np.repeat(free[start:stop], count[start:stop]) + within
        indices[at] = block.indices[first:last] + width
