"""Seeded, stratified hold-out of a validation split."""

from __future__ import annotations

import numpy as np

from shortcutlab.errors import ConfigError, ended, knob
from shortcutlab.params import quoted


def holdout_size(val_size: float, n_rows: int) -> int:
    """Rows to hold out: ``val_size`` rows if an int, that fraction of ``n_rows`` if in (0, 1)."""
    bad = isinstance(val_size, bool) or not isinstance(
        val_size, int | float | np.integer | np.floating
    )
    if not bad and float(val_size).is_integer() and float(val_size) >= 1:
        size = int(val_size)
    elif not bad and 0 < float(val_size) < 1:
        size = max(1, round(float(val_size) * n_rows))
    elif not bad and float(val_size) == 0:
        return 0
    else:
        size = -1
    if size < 0 or size >= n_rows:
        raise ConfigError(
            f"The 'val_size' parameter must be a row count in [0, {n_rows - 1}] or a fraction in (0, 1). "
            f"Got {quoted(val_size)} instead."
        )
    return size


def stratified_holdout(ranks: np.ndarray, val_size: float, rng: np.random.Generator) -> np.ndarray:
    """Boolean mask of the rows to hold out, with label shares as close as possible to the whole.

    Every label keeps at least one training row. Allocation uses largest remainders, so the counts
    per label sum exactly to the requested size.

    Examples:
        >>> mask = stratified_holdout(np.array([0] * 80 + [1] * 20), 10, np.random.default_rng(0))
        >>> int(mask[:80].sum()), int(mask[80:].sum())
        (8, 2)
    """
    n = len(ranks)
    size = holdout_size(val_size, n)
    mask = np.zeros(n, dtype=bool)
    if size == 0:
        return mask
    labels, counts = np.unique(ranks, return_counts=True)
    room = counts - 1  # every label keeps one training row
    if size > room.sum():
        raise ConfigError(
            f"The 'val_size' parameter asks for {size} validation rows, but only {int(room.sum())} can "
            f"be held out while keeping every label in training. Lower {ended(knob('val_size'))}"
        )
    ideal = size * counts / n
    take = np.minimum(np.floor(ideal).astype(np.int64), room)
    order = np.argsort(-(ideal - take), kind="stable")
    while take.sum() < size:
        for j in order:
            if take.sum() == size:
                break
            if take[j] < room[j]:
                take[j] += 1
    for label, k in zip(labels.tolist(), take.tolist(), strict=True):
        members = np.flatnonzero(ranks == label)
        mask[rng.permutation(members)[:k]] = True
    return mask
