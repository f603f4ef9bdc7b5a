"""Handing memory the audit has freed back to the system between its stages.

Each stage of a scan (the token scan, the word views, the surface measures, the matrix) frees
most of what it allocated before the next one starts, but the allocators keep the freed pages
for reuse: Arrow's pool its blocks, glibc's ``malloc`` the heap that numpy's arrays lived on
(large arrays move from ``mmap`` to the heap once a few were freed). Left there, they add up to
a resident size of about twice the live data; handed back after each stage, the next stage's
peak starts from the live data alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from functools import cache

import pyarrow as pa


def release_freed_memory() -> None:
    """Return the freed pages of Arrow's pool and of the C heap to the system (where the C
    library can: ``malloc_trim`` is glibc's; elsewhere only Arrow's pool is trimmed)."""
    pa.default_memory_pool().release_unused()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None
