"""Counting and allocation for MPS builds: pure functions over count arrays, no rows, no files.

MPS (paper 002, section 2.2) redistributes labels within attribute groups: in the Imbalanced set
one label (or a set of labels of similar size, appendix A.8) takes at least a share ``d`` of each
group, in the Balanced set the labels are as uniform as each group allows, and the test set is
label-balanced (A.5.1). Everything here decides *how many* rows each (group, label) cell gets;
which rows is drawn elsewhere.

Examples:
    >>> water_fill(7, np.array([1, 5, 5])).tolist()
    [1, 3, 3]
    >>> capped_proportional(10, np.array([3.0, 1.0]), np.array([6, 10])).tolist()
    [6, 4]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np


def exact_share(share: float) -> Fraction:
    """``share`` as the decimal it was written as (0.7 -> 7/10), so ``ceil(0.7 * 10)`` is 7, not 8."""
    return Fraction(str(float(share)))


def dominant_rows(size: np.ndarray | int, share: Fraction) -> np.ndarray:
    """Rows of the dominant set in a group of ``size`` rows: ``ceil(share * size)``, exactly."""
    size = np.asarray(size, dtype=np.int64)
    return -(-size * share.numerator // share.denominator)


def water_fill(total: int, capacity: np.ndarray) -> np.ndarray:
    """Spread ``total`` units over bins as evenly as their capacities allow.

    Every bin gets ``min(capacity, level)`` for the highest level that fits; the units left over
    go one each to the first bins (in index order) that still have room, so the result is
    deterministic.

    Examples:
        >>> water_fill(5, np.array([4, 4])).tolist()
        [3, 2]
        >>> water_fill(6, np.array([0, 1, 9])).tolist()
        [0, 1, 5]
    """
    capacity = np.asarray(capacity, dtype=np.int64)
    if total < 0 or total > int(capacity.sum()):
        raise ValueError(f"cannot place {total} units in bins holding {capacity.tolist()}")
    low, high = 0, int(capacity.max(initial=0))
    while low < high:  # the highest level whose filling does not exceed total
        level = (low + high + 1) // 2
        if int(np.minimum(capacity, level).sum()) <= total:
            low = level
        else:
            high = level - 1
    counts = np.minimum(capacity, low)
    left = total - int(counts.sum())
    room = np.flatnonzero(capacity > counts)[:left]
    counts[room] += 1
    return counts


def capped_proportional(total: int, weights: np.ndarray, capacity: np.ndarray) -> np.ndarray:
    """Split ``total`` in proportion to ``weights`` without any bin passing its capacity.

    Bins that would overflow are filled to capacity and the rest is shared again among the others
    in proportion to their weights; rounding gives the largest remainders the extra units (ties to
    the first bin).

    Examples:
        >>> capped_proportional(9, np.array([1.0, 1.0, 1.0]), np.array([1, 9, 9])).tolist()
        [1, 4, 4]
    """
    weights = np.asarray(weights, dtype=np.float64)
    capacity = np.asarray(capacity, dtype=np.int64)
    if total < 0 or total > int(capacity.sum()):
        raise ValueError(f"cannot place {total} units in bins holding {capacity.tolist()}")
    counts = np.zeros(len(capacity), dtype=np.int64)
    open_bins = capacity > 0
    remaining = total
    while remaining > 0:
        share = np.where(open_bins, weights, 0.0)
        if share.sum() <= 0:  # only weightless bins have room left: fill them evenly
            return counts + water_fill(remaining, capacity - counts)
        ideal = remaining * share / share.sum()
        room = capacity - counts
        over = open_bins & (ideal >= room)
        if over.any():  # these bins fill up; share what is left among the others
            counts[over] = capacity[over]
            remaining = total - int(counts.sum())
            open_bins &= ~over
            continue
        floor = np.floor(ideal).astype(np.int64)
        extra = remaining - int(floor.sum())
        order = np.argsort(-(ideal - floor), kind="stable")
        floor[order[:extra]] += 1
        counts += floor
        remaining = 0
    return counts


def dominant_sets(label_counts: np.ndarray, set_size: int) -> list[list[int]]:
    """Labels (ranks) grouped into sets of ``set_size`` labels of similar size (A.8): labels sorted
    by count (largest first, ties by rank), cut into consecutive sets.

    Examples:
        >>> dominant_sets(np.array([5, 50, 10, 40]), 2)
        [[1, 3], [2, 0]]
    """
    order = np.argsort(-np.asarray(label_counts), kind="stable").tolist()
    return [order[i : i + set_size] for i in range(0, len(order), set_size)]


def assign_dominant(counts: np.ndarray, sets: Sequence[Sequence[int]]) -> list[int]:
    """The dominant set of every group (``counts`` is groups x labels): the assignment that
    maximises the sum, over groups, of the set's share of the group, with every set dominating
    floor(G / J) or ceil(G / J) of the G groups.

    Sets are repeated (tiled) when there are more groups than sets: different groups are tied to
    different labels, as evenly as the numbers allow, the "cross-interactions" of section 2.2,
    not one label for all.

    Examples:
        >>> assign_dominant(np.array([[9, 1], [2, 8], [5, 5]]), [[0], [1]])
        [0, 1, 0]
        >>> assign_dominant(np.array([[9, 1], [8, 2], [7, 3], [6, 4]]), [[0], [1]])
        [0, 0, 1, 1]
    """
    counts = np.asarray(counts, dtype=np.float64)
    totals = np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    shares = np.stack([counts[:, list(s)].sum(axis=1) for s in sets], axis=1) / totals
    fewest, most = len(counts) // len(sets), -(-len(counts) // len(sets))
    best = shares.argmax(axis=1)
    used = np.bincount(best, minlength=len(sets))
    if ((used >= fewest) & (used <= most)).all():
        # Every group can have its own best set: no assignment scores higher (and scipy's
        # import, half a second, is saved for the cases that need it).
        return best.tolist()
    from scipy.optimize import linear_sum_assignment

    # Column c * J + j is copy c of set j. The first ``fewest`` copies of every set carry a bonus
    # larger than any sum of shares, so all of them are used: no set dominates fewer groups.
    weights = np.tile(shares, (1, most))
    weights[:, : fewest * len(sets)] += len(counts) + 1
    groups, columns = linear_sum_assignment(weights, maximize=True)
    assigned = [0] * len(counts)
    for group, column in zip(groups.tolist(), columns.tolist(), strict=True):
        assigned[group] = column % len(sets)
    return assigned


def other_label_cap(dominant: np.ndarray, set_size: int) -> np.ndarray:
    """The most rows one label outside the dominant set may get: the set's mean per label, so a
    minority label never outnumbers the dominant labels on average (matters only for d < 0.5 or
    sets of several labels; with one dominant label and d >= 0.5 the minority holds at most the
    rest)."""
    return np.asarray(dominant, dtype=np.int64) // set_size


def feasible_sizes(
    available: np.ndarray, dominant_set: Sequence[int], share: Fraction
) -> np.ndarray:
    """Per size ``n`` in 0..rows: whether a group of ``n`` rows can hold exactly ``ceil(share * n)``
    rows of the dominant set and the rest from the other labels (under :func:`other_label_cap`).

    Examples:
        >>> feasible_sizes(np.array([10, 10]), [0], Fraction(2, 5))[:9].tolist()  # 5, 7: no
        [True, True, True, True, True, False, True, False, True]
    """
    available = np.asarray(available, dtype=np.int64)
    inside = np.zeros(len(available), dtype=bool)
    inside[list(dominant_set)] = True
    sizes = np.arange(int(available.sum()) + 1, dtype=np.int64)
    dominant = dominant_rows(sizes, share)
    cap = other_label_cap(dominant, len(dominant_set))
    others = available[~inside]
    # Rows the other labels can give at each size: sum over labels of min(available, cap).
    ordered = np.sort(others)
    below = np.searchsorted(ordered, cap, side="right")  # labels holding no more than the cap
    prefix = np.concatenate([[0], np.cumsum(ordered)])
    other_room = prefix[below] + (len(ordered) - below) * cap
    return (dominant <= available[inside].sum()) & (sizes - dominant <= other_room)


def feasible_at_most(
    size: int, available: np.ndarray, dominant_set: Sequence[int], share: Fraction
) -> int:
    """The largest feasible group size no larger than ``size`` (feasible sizes need not form an
    interval, so a share of a total can land on an infeasible one).

    Examples:
        >>> feasible_at_most(7, np.array([10, 10]), [0], Fraction(2, 5))
        6
    """
    feasible = feasible_sizes(available, dominant_set, share)[: int(size) + 1]
    return int(np.flatnonzero(feasible).max(initial=0))


def matched_sizes(maxima: np.ndarray, compositions: np.ndarray) -> np.ndarray:
    """Group sizes (at most ``maxima``) with the most rows whose overall label mix is uniform.

    ``compositions`` (groups x labels) holds each group's label shares in Imbalanced. Groups tied
    to different labels have different sizes, so the union of the groups is skewed towards the
    labels of the large groups; a model trained on it then also learns that label prior. This
    solves max Σ n_g subject to Σ_g n_g (c_g − 1/K) = 0 and 0 <= n_g <= maxima_g (a linear
    program); zero everywhere when no mix of the groups is uniform.

    Examples:
        >>> matched_sizes(np.array([100, 400]), np.array([[0.75, 0.25], [0.25, 0.75]])).tolist()
        [100, 100]
    """
    from scipy.optimize import linprog

    maxima = np.asarray(maxima, dtype=np.float64)
    compositions = np.asarray(compositions, dtype=np.float64)
    k = compositions.shape[1]
    solved = linprog(
        c=-np.ones(len(maxima)),
        A_eq=(compositions - 1.0 / k).T,
        b_eq=np.zeros(k),
        bounds=list(zip(np.zeros(len(maxima)), maxima, strict=True)),
        method="highs",
    )
    if not solved.success:
        return np.zeros(len(maxima), dtype=np.int64)
    return np.floor(np.asarray(solved.x) + 1e-6).astype(np.int64)


def label_mix_distance(first: np.ndarray, second: np.ndarray) -> float:
    """Total variation distance between the overall label mixes of two count tables (groups x
    labels): 0 when both sets hold the labels in the same proportions.

    Examples:
        >>> round(label_mix_distance(np.array([[3, 1], [1, 3]]), np.array([[6, 2], [2, 2]])), 3)
        0.167
    """
    p = np.asarray(first, dtype=np.float64).sum(axis=0)
    q = np.asarray(second, dtype=np.float64).sum(axis=0)
    return float(0.5 * np.abs(p / p.sum() - q / q.sum()).sum())


def largest_group_size(available: np.ndarray, dominant_set: Sequence[int], share: Fraction) -> int:
    """The largest group size ``n`` with exactly ``ceil(share * n)`` rows from the dominant set
    and the rest from the other labels, given the rows ``available`` per label.

    Every ``n`` up to the group's rows is checked: with a per-label cap on the other labels the
    feasible sizes need not form an interval.

    Examples:
        >>> largest_group_size(np.array([30, 100]), [1], Fraction(3, 4))  # 93 + 30 rows
        123
        >>> largest_group_size(np.array([30, 100]), [0], Fraction(3, 4))
        40
    """
    feasible = feasible_sizes(available, dominant_set, share)
    return int(np.flatnonzero(feasible).max(initial=0))


def imbalanced_counts(
    size: int, available: np.ndarray, dominant_set: Sequence[int], share: Fraction
) -> np.ndarray:
    """Rows per label of one Imbalanced group: ``ceil(share * size)`` from the dominant set
    (spread as evenly as availability allows over its labels), the rest water-filled over the
    other labels under :func:`other_label_cap`.

    Examples:
        >>> imbalanced_counts(8, np.array([10, 10, 10]), [2], Fraction(1, 2)).tolist()
        [2, 2, 4]
    """
    available = np.asarray(available, dtype=np.int64)
    inside = np.zeros(len(available), dtype=bool)
    inside[list(dominant_set)] = True
    dominant = int(dominant_rows(size, share))
    cap = int(other_label_cap(dominant, len(dominant_set)))
    counts = np.zeros(len(available), dtype=np.int64)
    members = np.asarray(list(dominant_set), dtype=np.int64)
    counts[members] = water_fill(dominant, available[members])
    outside = np.flatnonzero(~inside)
    counts[outside] = water_fill(size - dominant, np.minimum(available[outside], cap))
    return counts


def normalised_entropy(counts: np.ndarray, n_labels: int) -> np.ndarray:
    """Label entropy of each row of ``counts`` divided by log K (1 = uniform over the K labels);
    NaN for an empty row. The paper's Table 11 statistic, per attribute value.

    Examples:
        >>> normalised_entropy(np.array([[5, 5], [10, 0], [3, 1]]), 2).round(3).tolist()
        [1.0, 0.0, 0.811]
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    totals = counts.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / totals
        terms = np.where(p > 0, -p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    entropy = terms.sum(axis=1) / math.log(n_labels)
    return np.where(totals[:, 0] > 0, entropy, np.nan)
