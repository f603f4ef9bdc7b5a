"""Small helpers for Arrow columns."""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def numpy_of(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A column's values as a numpy array.

    ``ChunkedArray.to_numpy`` goes through pandas, whose import alone costs half a second of a
    build's start-up; a single array converts directly.
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    return values.to_numpy(zero_copy_only=False)
