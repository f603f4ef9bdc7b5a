"""Which labels dominate each attribute group of an MPS build, and the checks on the label counts
that follow: a matched label mix, and warnings where Imbalanced and Balanced do not differ as
intended (paper 002, section 2.2 and A.8)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError, knob, listed, warn
from shortcutlab.families.mps.redistribute import (
    assign_dominant,
    dominant_sets,
    imbalanced_counts,
    label_mix_distance,
    matched_sizes,
    normalised_entropy,
)
from shortcutlab.params import quoted

# label_mix: "paper" sizes every group to its maximum, as the paper does, so Imbalanced's overall
# label mix follows the groups' sizes; "matched" sizes them so every label is equally frequent.
PAPER, MATCHED = "paper", "matched"
LABEL_MIXES = (PAPER, MATCHED)
# Total variation distance between the label mixes of Imbalanced and Balanced worth a warning.
LABEL_MIX_TOLERANCE = 0.05
# Paper 002, A.8: 10 or more classes take a set of labels (75 % combined) instead of one label.
MANY_LABELS = 10


def dominant_label_sets(
    available: np.ndarray,
    kept: Sequence[str],
    labels: LabelSpace,
    *,
    dominant: Mapping[str, Any] | None,
    dominant_labels: int | None,
    pool_label_counts: np.ndarray,
) -> tuple[list[list[int]], list[int]]:
    """The dominant label sets (label ranks) and each group's set: the user's ``dominant``
    mapping, else sets of ``dominant_labels`` labels drawn from the pool's label counts and
    assigned to the groups with the most rows of them."""
    if dominant is not None:
        if dominant_labels is not None:
            raise ConfigError(
                "Pass either 'dominant' (the label sets themselves) or 'dominant_labels' (their "
                "size), not both."
            )
        return _given_sets(dominant, kept, labels)
    set_size = _set_size(dominant_labels, len(labels), len(kept))
    sets = dominant_sets(pool_label_counts, set_size)
    return sets, assign_dominant(available, sets)


def matched_caps(
    caps: np.ndarray,
    available: np.ndarray,
    sets: list[list[int]],
    assigned: list[int],
    share: Fraction,
    kept: Sequence[str],
    labels: LabelSpace,
    counts: str,
) -> np.ndarray:
    """Group sizes (at most ``caps``) whose union holds every label equally often, so Imbalanced
    differs from Balanced in how labels sit within groups, not in the label prior."""
    compositions = np.stack(
        [
            imbalanced_counts(int(n), available[g], sets[assigned[g]], share) / max(int(n), 1)
            for g, n in enumerate(caps.tolist())
        ]
    )
    matched = matched_sizes(caps, compositions)
    if matched.sum() == 0:
        never = [
            labels.values[r] for r in range(len(labels)) if all(r not in sets[s] for s in assigned)
        ]
        reason = (
            f"labels {listed(never, show=repr)} are dominant in no group"
            if never
            else "the groups' sizes allow no such mix"
        )
        raise DataError(
            f"{mps_knob('label_mix', MATCHED)} needs group sizes whose union holds every label "
            f"equally often, and {reason} (rows per value and label: {counts}). Use "
            f"{mps_knob('label_mix', PAPER)}, or tie every label to a group with "
            f"{mps_knob('dominant')} / {mps_knob('dominant_labels')}."
        )
    dropped = [kept[g] for g in np.flatnonzero(matched == 0).tolist()]
    if dropped:
        warn(
            f"{mps_knob('label_mix', MATCHED)} leaves the groups {listed(dropped, show=repr)} out "
            f"of the training sets: no uniform label mix can use them.",
        )
    return matched


def warn_label_mix(
    labels: LabelSpace, imbalanced: np.ndarray, balanced: np.ndarray, label_mix: str
) -> None:
    """Warn when Imbalanced and Balanced differ in their overall label mix: δ then also measures
    that label prior, not only the attribute (the paper's own builds have this shift)."""
    distance = label_mix_distance(imbalanced, balanced)
    if distance <= LABEL_MIX_TOLERANCE:
        return
    shares = imbalanced.sum(axis=0) / imbalanced.sum()
    balanced_shares = balanced.sum(axis=0) / balanced.sum()
    top = int(np.argmax(np.abs(shares - balanced_shares)))
    fix = (
        f"{mps_knob('label_mix', MATCHED)} sizes the groups so both sets hold the labels equally often."
        if label_mix == PAPER
        else f"Balanced cannot even out every group; {mps_knob('size', 'even')} as well keeps both "
        "uniform."
    )
    warn(
        f"The Imbalanced training set is {shares[top]:.0%} label {quoted(labels.values[top])} "
        f"overall and the Balanced one {balanced_shares[top]:.0%}: the two fits also learn "
        f"different label priors, and δ measures that with the attribute. {fix}",
    )


def warn_unbalanced(
    kept: Sequence[str], labels: LabelSpace, imbalanced: np.ndarray, balanced: np.ndarray
) -> None:
    """Warn where Balanced is no more even than Imbalanced: that group's δ measures nothing.

    The paper keeps such groups (its Table 11 balanced entropies are below 1, e.g. Rotten
    Tomatoes QBS .87); the warning says so and how to leave room to even them out.
    """
    k = len(labels)
    same = normalised_entropy(balanced, k) <= normalised_entropy(imbalanced, k) + 1e-9
    for group in np.flatnonzero(same & (balanced.sum(axis=1) > 0)).tolist():
        scarce = labels.values[int(np.argmin(balanced[group]))]
        warn(
            f"Balanced is as skewed as Imbalanced in the group {quoted(kept[group])} (too few "
            f"rows of label {quoted(scarce)} there), so that group does not tell the two apart. "
            f"A smaller {mps_knob('size')} leaves room to even it out.",
        )


def mps_knob(key: str, value: object = None) -> str:
    """An MPS build option as the caller sets it: ``--label-mix matched`` or
    ``mps: {label_mix: matched}``."""
    return knob(key, value, section="mps")


def _set_size(dominant_labels: int | None, n_labels: int, n_groups: int) -> int:
    """Labels per dominant set: one below 10 labels, else enough that the groups share them
    all, ceil(K / G) (A.8: "several labels (with similar sample sizes)")."""
    if dominant_labels is None:
        return 1 if n_labels < MANY_LABELS else math.ceil(n_labels / n_groups)
    bad = isinstance(dominant_labels, bool) or not isinstance(dominant_labels, int | np.integer)
    if bad or not 1 <= dominant_labels < n_labels:
        raise ConfigError(
            f"The 'dominant_labels' parameter must be an integer in [1, {n_labels - 1}]. "
            f"Got {quoted(dominant_labels)} instead."
        )
    return int(dominant_labels)


def _given_sets(
    dominant: Mapping[str, Any], kept: Sequence[str], labels: LabelSpace
) -> tuple[list[list[int]], list[int]]:
    """The user's ``{value: label or [labels]}`` as label-rank sets and a set per group."""
    unknown = [str(v) for v in dominant if str(v) not in kept]
    missing = [v for v in kept if v not in {str(k) for k in dominant}]
    if unknown or missing:
        problem = (
            f"names value(s) {listed(unknown, show=repr)} that the build does not keep"
            if unknown
            else f"gives no label for value(s) {listed(missing, show=repr)}"
        )
        raise ConfigError(
            f"The 'dominant' parameter {problem}. Give one label (or list of labels) for each "
            f"kept value: {listed(kept)}."
        )
    rank_of = {str(v): r for r, v in enumerate(labels.values)}
    by_value = {str(k): v for k, v in dominant.items()}
    sets: list[list[int]] = []
    assigned = []
    for value in kept:
        given = by_value[value]
        names = [str(x) for x in (given if isinstance(given, list | tuple) else [given])]
        bad = [n for n in names if n not in rank_of]
        if bad or not names or len(set(names)) != len(names) or len(names) >= len(labels):
            raise ConfigError(
                f"The 'dominant' parameter gives {quoted(value)} the label(s) {quoted(names)}; give one or more "
                f"distinct labels (fewer than all) from: {listed(rank_of)}."
            )
        ranks = [rank_of[n] for n in names]
        if ranks not in sets:
            sets.append(ranks)
        assigned.append(sets.index(ranks))
    return sets, assigned


def counts_text(available: np.ndarray, kept: Sequence[str], labels: LabelSpace) -> str:
    return listed(
        (
            f"{value}: "
            + listed(f"{label} {n}" for label, n in zip(labels.values, row, strict=True))
            for value, row in zip(kept, available.tolist(), strict=True)
        ),
        separator="; ",
        width=400,
    )
