"""The plan of an MPS build: kept values, dominance, held-out sizes and the per-group label counts
of Imbalanced and Balanced, checked against what the pool holds (each refusal names the fix)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError, ended, listed
from shortcutlab.families.mps.dominant_labels import (
    MANY_LABELS,
    MATCHED,
    PAPER,
    counts_text,
    dominant_label_sets,
    matched_caps,
    mps_knob,
    warn_label_mix,
    warn_unbalanced,
)
from shortcutlab.families.mps.redistribute import (
    capped_proportional,
    exact_share,
    feasible_at_most,
    imbalanced_counts,
    largest_group_size,
    water_fill,
)
from shortcutlab.params import quoted

# size="even": groups no larger than Balanced can fill with exactly uniform labels.
EVEN = "even"
# A held-out set drawn from the pool takes this share of its eligible rows by default.
DEFAULT_TEST_FRACTION = 0.2
__all__ = [
    "DEFAULT_TEST_FRACTION",
    "EVEN",
    "Redistribution",
    "dominance_share",
    "held_out_per_label",
    "kept_values",
    "redistribute",
]


@dataclass
class Redistribution:
    """Rows per (group, label) of Imbalanced and Balanced, with how they were decided."""

    sets: list[list[int]]  # dominant label sets (label ranks)
    assigned: list[int]  # per group: index into ``sets``
    maxima: np.ndarray  # per group: the largest size the dominance allows
    sizes: np.ndarray  # per group: the size used (the same in both sets)
    imbalanced: np.ndarray  # groups x labels
    balanced: np.ndarray  # groups x labels


def kept_values(
    counts: Mapping[str, int],
    values: Sequence[str] | None,
    top_values: int | None,
    *,
    explicit_top: bool = False,
) -> list[str]:
    """The attribute values a build keeps: ``values`` as given, else the ``top_values`` most
    frequent (section 2.2: six for SCS/CCS, all for NBS/QBS/WFS); at least two.

    Examples:
        >>> kept_values({"a": 5, "b": 3, "c": 1}, None, 2)
        ['a', 'b']
    """
    found = listed(f"{v} ({n})" for v, n in counts.items()) or "none"
    if isinstance(values, str):
        raise ConfigError(
            f"The 'values' parameter must be a list of attribute values. Got the string {quoted(values)}; "
            f"pass [{quoted(values)}] (a list of one value)."
        )
    if values is not None:
        kept = [str(v) for v in values]
        if len(set(kept)) != len(kept):
            raise ConfigError(f"The 'values' parameter repeats a value: {quoted(kept)}.")
        unknown = [v for v in kept if v not in counts]
        if unknown:
            raise ConfigError(
                f"The 'values' parameter names {listed(unknown, show=repr)}, which no row has. "
                f"Values found (rows): {found}."
            )
    else:
        if top_values is not None and (
            isinstance(top_values, bool)
            or not isinstance(top_values, int | np.integer)
            or top_values < 1
        ):
            label = "top_values" if explicit_top else "attribute's top_values"
            raise ConfigError(
                f"The {quoted(label)} parameter must be a positive integer or None (all values). "
                f"Got {quoted(top_values)} instead."
            )
        kept = list(counts)[: top_values or None]
    if len(kept) < 2:
        raise DataError(
            f"Every kept row is in one attribute group (values found, rows: {found}); MPS needs "
            f"two or more groups to tie to different labels. Choose another attribute or keep more "
            f"values with {mps_knob('values')} or {ended(mps_knob('top_values'))}"
        )
    return kept


def dominance_share(dominance: float | None, n_labels: int) -> Fraction:
    """The dominance as an exact fraction: the given one, or A.8's default for K labels (0.75 for
    2 labels: 0.5 would be 1/K, no imbalance at all, and 0.75 gives a normalised entropy of 0.81,
    within the paper's Table 11 range for its binary data sets)."""
    if dominance is None:
        return exact_share(0.75 if n_labels == 2 or n_labels >= MANY_LABELS else 0.5)
    bad = isinstance(dominance, bool) or not isinstance(
        dominance, int | float | np.integer | np.floating
    )
    if bad or not 1 / n_labels < float(dominance) <= 1:
        raise ConfigError(
            f"The 'dominance' parameter must be a share in (1/{n_labels}, 1] for {n_labels} labels "
            f"(1/{n_labels} is no imbalance at all). Got {quoted(dominance)} instead."
        )
    return exact_share(float(dominance))


def held_out_per_label(
    parameter: str,
    size: float | None,
    candidates: np.ndarray,
    eligible_rows: int,
    labels: LabelSpace,
    *,
    from_pool: bool,
    optional: bool = False,
) -> int:
    """Rows per label of a label-balanced held-out set (``candidates`` is groups x labels).

    ``size`` is rows in all (an int), a fraction of the ``eligible_rows`` (a float in (0, 1)),
    or ``None``: from the pool 0.2 of it but at most half the rarest label's texts, from a test
    table as many as its rarest label has; an ``optional`` set is then empty.
    """
    n_labels = len(labels)
    per_label_available = candidates.sum(axis=0)
    available = listed(
        f"{label} {n}" for label, n in zip(labels.values, per_label_available.tolist(), strict=True)
    )
    rarest = int(per_label_available.min())
    flag = ended(mps_knob(parameter))
    if size is None or (optional and size == 0):
        if optional:
            return 0
        per_label = (
            min(math.floor(DEFAULT_TEST_FRACTION * eligible_rows / n_labels), rarest // 2)
            if from_pool
            else rarest
        )
        if per_label < 1:
            raise DataError(
                f"Too few distinct texts with a kept attribute value for a label-balanced test "
                f"set (per label: {available}). Add rows of the rarest label or keep more values."
            )
        return per_label
    whole = not isinstance(size, bool) and isinstance(size, int | np.integer)
    fraction = not isinstance(size, bool) and isinstance(size, float | np.floating) and 0 < size < 1
    if whole and size >= 1:
        per_label = int(size) // n_labels
    elif fraction:
        per_label = math.floor(float(size) * eligible_rows / n_labels)
    else:
        raise ConfigError(
            f"The {quoted(parameter)} parameter must be a row count (an integer >= {n_labels}) or a "
            f"fraction in (0, 1){' or 0 for none' if optional else ''}. Got {quoted(size)} instead."
        )
    if per_label < 1:
        raise ConfigError(
            f"The {quoted(parameter)} parameter gives {quoted(size)}, less than one row for each of the "
            f"{n_labels} labels. Raise {flag}"
        )
    if per_label > rarest:
        raise DataError(
            f"The {quoted(parameter)} parameter asks for {per_label} rows of every label, but there are "
            f"only {available} distinct texts per label with a kept value; the largest feasible "
            f"size is {rarest * n_labels}. Lower {flag}"
        )
    return per_label


def redistribute(
    available: np.ndarray,
    kept: Sequence[str],
    labels: LabelSpace,
    share: Fraction,
    *,
    dominant: Mapping[str, Any] | None,
    dominant_labels: int | None,
    size: int | str | None,
    pool_label_counts: np.ndarray,
    label_mix: str = PAPER,
) -> Redistribution:
    """Decide the per-group sizes and label counts of Imbalanced and Balanced from the rows
    ``available`` per (group, label) in the training pool (section 2.2, A.8)."""
    n_labels = len(labels)
    sets, assigned = dominant_label_sets(
        available,
        kept,
        labels,
        dominant=dominant,
        dominant_labels=dominant_labels,
        pool_label_counts=pool_label_counts,
    )
    largest = max(len(sets[s]) for s in assigned)
    if share <= Fraction(largest, n_labels):
        raise ConfigError(
            f"The 'dominance' parameter ({float(share):g}) must exceed {largest}/{n_labels}, the "
            f"share {largest} of {n_labels} labels have with no imbalance at all. Raise "
            f"{mps_knob('dominance')} or use smaller dominant sets."
        )
    maxima = np.array(
        [largest_group_size(available[g], sets[s], share) for g, s in enumerate(assigned)],
        dtype=np.int64,
    )
    counts = counts_text(available, kept, labels)
    if (maxima == 0).any():
        empty = kept[int(np.argmin(maxima))]
        raise DataError(
            f"Too few rows to reach dominance {float(share):g}: the group {quoted(empty)} has no rows of "
            f"its dominant label(s) (rows per value and label: {counts}). Map it to another label "
            f"with {mps_knob('dominant')} or leave the value out with {ended(mps_knob('values'))}"
        )
    caps = maxima
    if size == EVEN:
        # Per group, the largest size at which Balanced is exactly uniform over the labels.
        caps = np.minimum(maxima, len(labels) * available.min(axis=1))
        if (caps == 0).any():
            empty = kept[int(np.argmin(caps))]
            raise DataError(
                f"size='even' needs every label in every group, and the group {quoted(empty)} lacks "
                f"one (rows per value and label: {counts}). Leave that value out with {mps_knob('values')}, "
                f"or give {mps_knob('size')} as a number."
            )
    if label_mix == MATCHED:
        caps = matched_caps(caps, available, sets, assigned, share, kept, labels, counts)
    sizes = _sizes_within(caps, size, share, counts)
    # A share of a total can land on a size the dominance cannot fill exactly: round it down.
    sizes = np.array(
        [
            feasible_at_most(int(n), available[g], sets[assigned[g]], share)
            for g, n in enumerate(sizes.tolist())
        ],
        dtype=np.int64,
    )
    imbalanced = np.stack(
        [
            imbalanced_counts(int(n), available[g], sets[assigned[g]], share)
            for g, n in enumerate(sizes.tolist())
        ]
    )
    balanced = np.stack([water_fill(int(n), available[g]) for g, n in enumerate(sizes.tolist())])
    warn_unbalanced(kept, labels, imbalanced, balanced)
    warn_label_mix(labels, imbalanced, balanced, label_mix)
    return Redistribution(sets, assigned, maxima, sizes, imbalanced, balanced)


def _sizes_within(
    caps: np.ndarray, size: int | str | None, share: Fraction, counts: str
) -> np.ndarray:
    """Per group: its cap (``size`` None or 'even'), or a total of ``size`` rows shared in
    proportion to the caps."""
    if size is None or size == EVEN:
        return caps
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 1:
        raise ConfigError(
            f"The 'size' parameter must be a positive number of rows or 'even'. Got {quoted(size)} "
            "instead."
        )
    if size > caps.sum():
        raise DataError(
            f"Too few rows to reach dominance {float(share):g} with {size} rows: the largest "
            f"feasible size is {int(caps.sum())} (rows per value and label: {counts}). Lower "
            f"{mps_knob('size')} or {ended(mps_knob('dominance'))}"
        )
    return capped_proportional(int(size), caps, caps)
