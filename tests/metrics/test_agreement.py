"""Cohen's and Fleiss' κ against hand-worked examples and scikit-learn's Cohen's κ."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shortcutlab.errors import DataError
from shortcutlab.metrics.agreement import (
    category_counts,
    cohen_kappa,
    fleiss_kappa,
    observed_agreement,
)

# Fleiss (1971)-style worked example (Wikipedia "Fleiss' kappa"): 10 items, 14 raters, 5 categories.
FLEISS_TABLE = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)


def test_cohen_kappa_of_a_hand_worked_two_by_two_table():
    # 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: p_o = 0.7, p_e = 0.5*0.6 + 0.5*0.4 = 0.5.
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(rater_a=a, rater_b=b) == pytest.approx(0.4)


def test_cohen_kappa_matches_scikit_learn_on_random_ratings():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = rng.choice(list("abcd"), size=40)
        b = np.where(rng.random(40) < 0.6, a, rng.choice(list("abcd"), size=40))
        expected = sklearn_metrics.cohen_kappa_score(a, b)
        assert cohen_kappa(rater_a=a, rater_b=b) == pytest.approx(expected)


def test_perfect_agreement_is_one_and_constant_ratings_are_undefined():
    assert cohen_kappa(rater_a=["a", "b", "a"], rater_b=["a", "b", "a"]) == pytest.approx(1.0)
    assert math.isnan(cohen_kappa(rater_a=["a", "a"], rater_b=["a", "a"]))
    assert math.isnan(fleiss_kappa(counts=np.array([[3, 0], [3, 0]])))


def test_fleiss_kappa_of_the_worked_example():
    # P̄ = 0.378, P̄_e = 0.213 -> κ = 0.210 (to three decimals, as the worked example states).
    assert fleiss_kappa(counts=FLEISS_TABLE) == pytest.approx(0.20993, abs=5e-5)


def test_fleiss_kappa_with_two_raters_is_scotts_pi():
    # Two raters: Fleiss' κ is Scott's π, p_e from the pooled shares.
    a = ["y", "y", "n", "n", "y", "n"]
    b = ["y", "n", "n", "n", "y", "y"]
    counts, _ = category_counts(list(zip(a, b, strict=True)))
    p_o = 4 / 6
    pooled_y = (3 + 3) / 12
    p_e = pooled_y**2 + (1 - pooled_y) ** 2
    assert fleiss_kappa(counts=counts) == pytest.approx((p_o - p_e) / (1 - p_e))
    assert observed_agreement(list(zip(a, b, strict=True))) == pytest.approx(p_o)


def test_bad_inputs_are_refused_with_the_fix():
    with pytest.raises(DataError, match="same items; got 2 and 1"):
        cohen_kappa(rater_a=["a", "b"], rater_b=["a"])
    with pytest.raises(DataError, match="at least one item"):
        cohen_kappa(rater_a=[], rater_b=[])
    with pytest.raises(DataError, match=r"same number \(at least 2\) of raters .* \[2, 3\]"):
        fleiss_kappa(counts=np.array([[2, 0], [1, 2]]))
