"""Group and class arithmetic shared by the mitigations: balanced loss weights, balanced subsamples.

Every function takes integer codes (group codes from :mod:`shortcutlab.mitigations.groups`, or
label ranks) and returns row weights or row positions; randomness comes from a Generator the
caller seeds.

Examples:
    >>> group_balanced_weights(np.array([0, 0, 0, 1])).tolist()
    [0.6666666666666666, 0.6666666666666666, 0.6666666666666666, 2.0]
    >>> balanced_rows(np.array([0, 0, 0, 1, 1]), np.random.default_rng(0)).tolist()
    [1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.mitigations.base import TrainingRows
from shortcutlab.mitigations.groups import group_counts


def require_groups(rows: TrainingRows, method: str, split: str = "training") -> np.ndarray:
    """The group codes of ``rows``; refuses rows given without groups or with ungrouped rows."""
    if rows.groups is None:
        raise ConfigError(
            f"The {method} mitigation needs group labels on the {split} rows, but none were "
            "given; build its context with mitigation_context (groups from a 'shortcut' or "
            "'group' column, or one named with groups: COLUMN)."
        )
    missing = int(np.count_nonzero(rows.groups < 0))
    if missing:
        raise DataError(
            f"The {method} mitigation needs a group for every {split} row, but {missing} of "
            f"{len(rows)} have none; fill the group column or choose another one."
        )
    return rows.groups


def inverse_frequency_weights(codes: np.ndarray) -> np.ndarray:
    """Per-row weights proportional to 1 / (rows sharing the row's code), with mean 1: every code
    present carries the same total weight."""
    present, inverse, counts = np.unique(codes, return_inverse=True, return_counts=True)
    return len(codes) / (len(present) * counts[inverse].astype(np.float64))


def group_balanced_weights(groups: np.ndarray) -> np.ndarray:
    """Loss weights that give every group present the same total weight (mean 1)."""
    return inverse_frequency_weights(groups)


def class_balanced_weights(labels: np.ndarray) -> np.ndarray:
    """Loss weights that give every label present the same total weight (mean 1)."""
    return inverse_frequency_weights(labels)


def balanced_rows(
    groups: np.ndarray,
    rng: np.random.Generator,
    *,
    balanced: np.ndarray | None = None,
    size: int | None = None,
) -> np.ndarray:
    """Sorted row positions: ``size`` rows drawn without replacement from every group in
    ``balanced`` (default: every group present; ``size`` defaults to the smallest of them), and
    every row of the other groups."""
    present = np.unique(groups)
    chosen = present if balanced is None else np.intersect1d(present, balanced)
    if size is None:
        size = int(min(np.count_nonzero(groups == g) for g in chosen))
    kept = [np.flatnonzero(~np.isin(groups, chosen))]
    for group in chosen:  # sorted codes, so the draws do not depend on row order
        members = np.flatnonzero(groups == group)
        kept.append(rng.choice(members, size=size, replace=False))
    return np.sort(np.concatenate(kept))


def stratified_split(
    codes: np.ndarray, fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted row positions of a ``fraction`` / rest split within every code (label or group);
    a code with two rows or more puts at least one on each side."""
    first, second = [], []
    for code in np.unique(codes):  # sorted codes, so the draws do not depend on row order
        members = rng.permutation(np.flatnonzero(codes == code))
        cut = int(round(fraction * len(members)))
        if len(members) >= 2:
            cut = min(max(cut, 1), len(members) - 1)
        first.append(members[:cut])
        second.append(members[cut:])
    return np.sort(np.concatenate(first)), np.sort(np.concatenate(second))


def require_group_sizes(
    groups: np.ndarray, names: Sequence[str], *, minimum: int, method: str, split: str
) -> None:
    """Refuse when any group in ``names`` (every group seen in any split, so also one these rows
    lack entirely) has fewer than ``minimum`` rows here, printing every group's count."""
    counts = np.bincount(groups[groups >= 0], minlength=len(names))
    if counts.min() < minimum:
        raise DataError(
            f"The {method} mitigation needs at least {minimum} {split} rows in every group; "
            f"the {split} rows per group are {group_counts(groups, names)}. Use a larger "
            "validation split (--val-size) or lower min_group."
        )


def require_labels_covered(
    train_labels: np.ndarray,
    held_out_labels: np.ndarray,
    label_values: Sequence[object],
    *,
    method: str,
) -> None:
    """Refuse held-out rows that lack a label the training rows have: a head refitted on them
    could never predict it."""
    missing = np.setdiff1d(np.unique(train_labels), np.unique(held_out_labels))
    if len(missing):
        names = listed(repr(label_values[rank]) for rank in missing)
        raise DataError(
            f"The {method} mitigation refits on the held-out rows, but they have no row with "
            f"label {names}, which the training rows have. Use a larger (or stratified) "
            "validation split (--val-size)."
        )
