"""W-ACC (per-label and per-group), δ / Δ / ζ and their paired bootstrap, against hand-computed values."""

import numpy as np
import pytest

from shortcutlab.errors import DataError
from shortcutlab.metrics import (
    accuracy,
    bootstrap_mps_gaps,
    group_accuracies,
    mps_gaps,
    worst_label_accuracy,
)

TRUTH = np.array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
# per label: 0 -> 3/4, 1 -> 1/4, 2 -> 2/2
IMBALANCED = np.array([0, 0, 0, 1, 0, 0, 0, 1, 2, 2])
# per label: 0 -> 2/4, 1 -> 3/4, 2 -> 1/2
BALANCED = np.array([0, 0, 1, 1, 1, 1, 1, 0, 2, 0])


def test_worst_label_accuracy_by_hand():
    assert worst_label_accuracy(y_true=TRUTH, y_pred=IMBALANCED, n_classes=3) == (0.25, 1)
    assert worst_label_accuracy(y_true=TRUTH, y_pred=BALANCED, n_classes=3) == (0.5, 0)


def test_worst_label_skips_absent_labels_breaks_ties_low_and_counts_invalid_answers_wrong():
    truth = np.array([1, 1, 3, 3])
    assert worst_label_accuracy(y_true=truth, y_pred=np.array([1, 0, 3, 0]), n_classes=4) == (
        0.5,
        1,
    )
    assert worst_label_accuracy(y_true=truth, y_pred=np.array([1, 1, 3, -1]), n_classes=4) == (
        0.5,
        3,
    )
    value, label = worst_label_accuracy(
        y_true=np.array([], int), y_pred=np.array([], int), n_classes=2
    )
    assert np.isnan(value) and label == -1


def test_group_accuracies_report_small_groups_without_using_them():
    groups = np.array(["0|q", "0|q", "0|q", "0|n", "1|q", "1|q", "1|q", "1|n", "2|q", "2|q"])
    result = group_accuracies(y_true=TRUTH, y_pred=IMBALANCED, groups=groups, min_size=2)
    assert result["groups"] == {
        "0|n": {"accuracy": 0.0, "rows": 1, "used": False},
        "0|q": {"accuracy": 1.0, "rows": 3, "used": True},
        "1|n": {"accuracy": 1.0, "rows": 1, "used": False},
        "1|q": {"accuracy": 0.0, "rows": 3, "used": True},
        "2|q": {"accuracy": 1.0, "rows": 2, "used": True},
    }
    assert (result["acc_wg"], result["worst_group"], result["worst_group_rows"]) == (0.0, "1|q", 3)
    none_used = group_accuracies(y_true=TRUTH, y_pred=IMBALANCED, groups=groups, min_size=50)
    assert np.isnan(none_used["acc_wg"]) and none_used["worst_group"] is None


def test_mps_gaps_by_hand():
    gaps = mps_gaps(y_true=TRUTH, pred_imbalanced=IMBALANCED, pred_balanced=BALANCED, n_classes=3)
    assert gaps["accuracy_imbalanced"] == pytest.approx(0.6)  # 3 + 1 + 2 of 10
    assert gaps["accuracy_balanced"] == pytest.approx(0.6)  # 2 + 3 + 1 of 10
    assert (gaps["w_acc_imbalanced"], gaps["worst_label_imbalanced"]) == (0.25, 1)
    assert (gaps["w_acc_balanced"], gaps["worst_label_balanced"]) == (0.5, 0)
    assert gaps["delta_isolated"] == pytest.approx(0.25)  # 0.5 - 0.25
    assert gaps["delta_overall"] == pytest.approx(0.35)  # 0.6 - 0.25
    assert gaps["zeta"] == pytest.approx(0.1)  # 0.6 - 0.5
    assert gaps["delta_overall"] == pytest.approx(gaps["zeta"] + gaps["delta_isolated"])


def test_mps_gaps_average_the_metrics_of_the_epochs():
    perfect = TRUTH.copy()
    gaps = mps_gaps(
        y_true=TRUTH,
        pred_imbalanced=np.stack([IMBALANCED, perfect]),
        pred_balanced=np.stack([BALANCED, BALANCED]),
        n_classes=3,
    )
    assert gaps["w_acc_imbalanced"] == pytest.approx((0.25 + 1.0) / 2)
    assert gaps["accuracy_imbalanced"] == pytest.approx((0.6 + 1.0) / 2)
    assert gaps["delta_isolated"] == pytest.approx(0.5 - 0.625)
    with pytest.raises(DataError, match="do not match 10 test rows"):
        mps_gaps(y_true=TRUTH, pred_imbalanced=IMBALANCED[:5], pred_balanced=BALANCED, n_classes=3)


def _w_acc(truth, predicted):
    return worst_label_accuracy(y_true=truth, y_pred=predicted, n_classes=3)[0]


def test_bootstrap_matches_a_resample_by_resample_loop():
    rng = np.random.default_rng(3)
    truth = rng.integers(3, size=40)
    imbalanced = np.where(rng.random(40) < 0.6, truth, rng.integers(3, size=40))
    balanced = np.where(rng.random(40) < 0.8, truth, rng.integers(3, size=40))
    samples = bootstrap_mps_gaps(
        y_true=truth,
        pred_imbalanced=imbalanced,
        pred_balanced=balanced,
        n_classes=3,
        n_resamples=50,
        seed=11,
    )
    draws = np.random.default_rng(11).integers(40, size=(50, 40))  # the documented draw order
    expected = []
    for rows in draws:
        t, i, b = truth[rows], imbalanced[rows], balanced[rows]
        w_imb, w_bal, acc_bal = _w_acc(t, i), _w_acc(t, b), accuracy(y_true=t, y_pred=b)
        expected.append((w_bal - w_imb, acc_bal - w_imb, acc_bal - w_bal))
    expected = np.array(expected)
    assert np.allclose(samples["delta_isolated"], expected[:, 0])
    assert np.allclose(samples["delta_overall"], expected[:, 1])
    assert np.allclose(samples["zeta"], expected[:, 2])


def test_bootstrap_of_equal_fits_has_no_isolated_gap_and_is_reproducible():
    same = bootstrap_mps_gaps(
        y_true=TRUTH, pred_imbalanced=BALANCED, pred_balanced=BALANCED, n_classes=3, n_resamples=200
    )
    assert np.all(same["delta_isolated"] == 0)
    again = bootstrap_mps_gaps(
        y_true=TRUTH, pred_imbalanced=BALANCED, pred_balanced=BALANCED, n_classes=3, n_resamples=200
    )
    assert all(np.array_equal(same[k], again[k]) for k in same)


def test_two_identical_fits_resampled_give_the_one_fit_distribution():
    one = bootstrap_mps_gaps(
        y_true=TRUTH,
        pred_imbalanced=IMBALANCED,
        pred_balanced=BALANCED,
        n_classes=3,
        n_resamples=300,
        seed=5,
    )
    two = bootstrap_mps_gaps(
        y_true=TRUTH,
        pred_imbalanced=np.stack([IMBALANCED, IMBALANCED]),
        pred_balanced=np.stack([BALANCED, BALANCED]),
        n_classes=3,
        n_resamples=300,
        seed=5,
        resample_fits=True,
    )
    # The fit weights are drawn after the rows, so the rows (and with equal fits every value) agree.
    assert np.allclose(one["delta_overall"], two["delta_overall"])


def test_fits_on_their_own_test_sets_draw_rows_within_each():
    other_truth = np.array([0, 1, 2, 0, 1, 2])
    other_pred = np.array([0, 1, 2, 0, 1, 2])  # perfect: δ = Δ = ζ = 0 on every resample
    samples = bootstrap_mps_gaps(
        y_true=[TRUTH, other_truth],
        pred_imbalanced=[IMBALANCED, other_pred],
        pred_balanced=[BALANCED, other_pred],
        n_classes=3,
        n_resamples=40,
        seed=2,
    )
    rng = np.random.default_rng(2)
    first, _ = rng.integers(10, size=(40, 10)), rng.integers(6, size=(40, 6))
    expected = [
        (_w_acc(TRUTH[r], BALANCED[r]) - _w_acc(TRUTH[r], IMBALANCED[r])) / 2 for r in first
    ]
    assert np.allclose(samples["delta_isolated"], expected)
    with pytest.raises(DataError, match="one Imbalanced and one Balanced prediction per fit"):
        bootstrap_mps_gaps(
            y_true=[TRUTH],
            pred_imbalanced=[IMBALANCED, IMBALANCED],
            pred_balanced=[BALANCED],
            n_classes=3,
        )
