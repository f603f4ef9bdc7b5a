"""The counting behind MPS builds, checked against brute force on small cases."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from shortcutlab.families.mps.redistribute import (
    assign_dominant,
    capped_proportional,
    dominant_rows,
    dominant_sets,
    exact_share,
    imbalanced_counts,
    largest_group_size,
    normalised_entropy,
    water_fill,
)


def test_exact_share_avoids_float_rounding_up():
    # 0.7 * 10 is 7.000000000000001 in floats: a float ceil would ask for 8 dominant rows.
    assert int(dominant_rows(10, exact_share(0.7))) == 7
    assert dominant_rows(np.array([0, 1, 3, 4]), Fraction(3, 4)).tolist() == [0, 1, 3, 3]


@pytest.mark.parametrize("capacity", [[0, 3, 3], [5, 1, 2, 9], [4, 4], [0, 0, 7]])
def test_water_fill_is_as_even_as_capacities_allow(capacity):
    capacity = np.array(capacity)
    for total in range(int(capacity.sum()) + 1):
        counts = water_fill(total, capacity)
        assert counts.sum() == total and (counts <= capacity).all() and (counts >= 0).all()
        # No unit could move from a fuller bin to an emptier one with room: the max-min spread.
        room = counts < capacity
        if room.any():
            assert counts.max() - counts[room].min() <= 1
    with pytest.raises(ValueError):
        water_fill(int(capacity.sum()) + 1, capacity)


def test_capped_proportional_respects_caps_and_weights():
    counts = capped_proportional(100, np.array([1.0, 1.0, 2.0]), np.array([10, 100, 100]))
    assert counts.tolist() == [10, 30, 60]
    assert capped_proportional(5, np.array([0.0, 0.0]), np.array([3, 3])).tolist() == [3, 2]
    rng = np.random.default_rng(0)
    for _ in range(200):
        caps = rng.integers(0, 20, size=4)
        weights = rng.random(4)
        total = int(rng.integers(0, caps.sum() + 1))
        counts = capped_proportional(total, weights, caps)
        assert counts.sum() == total and (counts <= caps).all()


def brute_force_largest(available, dominant_set, share):
    """Largest n with a full assignment: every label within availability, ceil(share n) from the
    set, no other label above the set's mean."""
    inside = set(dominant_set)
    best = 0
    for n in range(sum(available) + 1):
        dominant = -(-n * share.numerator // share.denominator)
        cap = dominant // len(dominant_set)
        inside_room = sum(available[i] for i in inside)
        outside_room = sum(min(available[i], cap) for i in range(len(available)) if i not in inside)
        if dominant <= inside_room and n - dominant <= outside_room:
            best = n
    return best


def test_largest_group_size_matches_brute_force_and_is_drawable():
    rng = np.random.default_rng(1)
    for _ in range(150):
        k = int(rng.integers(2, 6))
        available = rng.integers(0, 25, size=k).tolist()
        set_size = int(rng.integers(1, k))
        dominant_set = sorted(rng.choice(k, size=set_size, replace=False).tolist())
        share = Fraction(int(rng.integers(set_size * 10 // k + 1, 11)), 10)
        largest = largest_group_size(np.array(available), dominant_set, share)
        assert largest == brute_force_largest(available, dominant_set, share)
        if largest:
            counts = imbalanced_counts(largest, np.array(available), dominant_set, share)
            assert counts.sum() == largest and (counts <= np.array(available)).all()
            assert counts[dominant_set].sum() == -(-largest * share.numerator // share.denominator)


def test_imbalanced_counts_spread_evenly():
    counts = imbalanced_counts(100, np.array([80, 80, 80, 80]), [0, 1], Fraction(3, 4))
    assert counts.tolist() == [38, 37, 13, 12]
    # An exhausted minority label leaves its part to the others.
    assert imbalanced_counts(20, np.array([50, 1, 50]), [0], Fraction(1, 2)).tolist() == [10, 1, 9]


def test_dominant_sets_group_labels_of_similar_size():
    sets = dominant_sets(np.array([100, 5, 90, 7, 50, 60]), 2)
    assert sets == [[0, 2], [5, 4], [3, 1]]


def test_assignment_maximises_share_and_spreads_sets():
    counts = np.array([[10, 80, 10], [70, 20, 10], [30, 30, 40]])
    assert assign_dominant(counts, [[0], [1], [2]]) == [1, 0, 2]
    # Five groups leaning to label 0, three sets: every set dominates one or two groups.
    five = np.array([[9, 1, 0], [8, 1, 1], [7, 2, 1], [6, 1, 3], [9, 0, 1]])
    assigned = assign_dominant(five, [[0], [1], [2]])
    assert sorted(assigned.count(j) for j in range(3)) == [1, 2, 2]


def test_assignment_is_optimal_on_random_counts():
    rng = np.random.default_rng(2)
    for _ in range(300):
        groups, n_sets = int(rng.integers(1, 7)), int(rng.integers(1, 5))
        counts = rng.integers(0, 30, size=(groups, n_sets))
        shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
        fewest, most = groups // n_sets, -(-groups // n_sets)
        allowed = [
            choice
            for choice in itertools.product(range(n_sets), repeat=groups)
            if all(fewest <= choice.count(j) <= most for j in range(n_sets))
        ]
        optimum = max(shares[np.arange(groups), list(choice)].sum() for choice in allowed)
        assigned = assign_dominant(counts, [[j] for j in range(n_sets)])
        assert tuple(assigned) in allowed
        assert shares[np.arange(groups), assigned].sum() == pytest.approx(optimum)


def test_normalised_entropy():
    values = normalised_entropy(np.array([[1, 1, 1], [3, 0, 0], [0, 0, 0]]), 3)
    assert values[0] == pytest.approx(1.0) and values[1] == 0.0 and np.isnan(values[2])
