"""Every seed the audit draws with, derived in one place from the run's seed, what it is for and
what it is about (a candidate's key): two stages that must draw the same rows (the audit's
insertion test and ``--fix``'s counterfactual test) ask for the same (purpose, key), and no
two purposes share a stream.

Examples:
    >>> derived_seed(0, "insertion rows", "token:text:frankly") == derived_seed(
    ...     0, "insertion rows", "token:text:frankly")
    True
    >>> derived_seed(0, "insertion rows", "token:text:frankly") == derived_seed(
    ...     0, "insertion positions", "token:text:frankly")
    False
"""

from __future__ import annotations

import zlib

import numpy as np


def derived_seed(seed: int, purpose: str, key: str = "") -> int:
    """A 32-bit seed for ``purpose`` (e.g. "insertion rows") about ``key`` (a candidate's key;
    "" for a draw about no candidate), from the run's ``seed``."""
    entropy = [seed, zlib.crc32(purpose.encode()), zlib.crc32(key.encode())]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


__all__ = ["derived_seed"]
