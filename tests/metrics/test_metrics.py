import numpy as np
import pytest
from scipy.stats import binomtest
from sklearn.metrics import accuracy_score, f1_score, recall_score

from shortcutlab.metrics import (
    accuracy,
    bootstrap_delta,
    macro_f1,
    mcnemar_exact,
    per_label_accuracy,
)

RNG = np.random.default_rng(0)
Y = RNG.integers(4, size=300)
P = np.where(RNG.random(300) < 0.7, Y, RNG.integers(4, size=300))


def test_metrics_agree_with_scikit_learn():
    assert accuracy(y_true=Y, y_pred=P) == pytest.approx(accuracy_score(Y, P))
    assert macro_f1(y_true=Y, y_pred=P, n_classes=4) == pytest.approx(
        f1_score(Y, P, average="macro")
    )
    assert per_label_accuracy(y_true=Y, y_pred=P, n_classes=4) == pytest.approx(
        recall_score(Y, P, average=None)
    )


def test_per_label_accuracy_is_nan_without_support():
    result = per_label_accuracy(y_true=np.array([0, 0]), y_pred=np.array([0, 1]), n_classes=3)
    assert result[0] == 0.5 and np.isnan(result[2])


def test_mcnemar_is_the_exact_binomial_test_on_discordant_pairs():
    a = RNG.random(500) < 0.8
    b = RNG.random(500) < 0.6
    result = mcnemar_exact(correct_a=a, correct_b=b)
    discordant_b, discordant_c = int((a & ~b).sum()), int((~a & b).sum())
    assert (result["b"], result["c"]) == (discordant_b, discordant_c)
    assert result["p_value"] == pytest.approx(
        binomtest(discordant_c, discordant_b + discordant_c, 0.5).pvalue
    )
    assert mcnemar_exact(correct_a=a, correct_b=a)["p_value"] == 1.0


def test_bootstrap_interval_contains_the_estimate_and_is_reproducible():
    worse = np.where(RNG.random(300) < 0.5, Y, RNG.integers(4, size=300))
    interval = bootstrap_delta(y_true=Y, pred_a=P, pred_b=worse, n_classes=4, seed=1)
    point = accuracy(y_true=Y, y_pred=P) - accuracy(y_true=Y, y_pred=worse)
    assert interval["accuracy"][0] < point < interval["accuracy"][1]
    assert interval == bootstrap_delta(y_true=Y, pred_a=P, pred_b=worse, n_classes=4, seed=1)
    f1_point = macro_f1(y_true=Y, y_pred=P, n_classes=4) - macro_f1(
        y_true=Y, y_pred=worse, n_classes=4
    )
    assert interval["macro_f1"][0] < f1_point < interval["macro_f1"][1]


def test_bootstrap_of_identical_predictions_is_zero():
    interval = bootstrap_delta(
        y_true=Y, pred_a=np.stack([P, P]), pred_b=np.stack([P, P]), n_classes=4, n_resamples=200
    )
    assert interval == {"accuracy": [0.0, 0.0], "macro_f1": [0.0, 0.0]}


def test_invalid_predictions_are_wrong_everywhere():
    from shortcutlab.metrics import INVALID

    y = np.array([0, 1, 1, 2])
    p = np.array([0, INVALID, 1, INVALID])
    assert accuracy(y_true=y, y_pred=p) == 0.5
    # Invalid rows count against their true label's recall but credit no predicted label.
    assert macro_f1(y_true=y, y_pred=p, n_classes=3) == pytest.approx(
        f1_score(y, np.where(p < 0, 9, p), labels=[0, 1, 2], average="macro")
    )
    assert per_label_accuracy(y_true=y, y_pred=p, n_classes=3).tolist() == [1.0, 0.5, 0.0]
    interval = bootstrap_delta(y_true=y, pred_a=y, pred_b=p, n_classes=3, n_resamples=200)
    assert interval["accuracy"][0] >= 0 and interval["accuracy"][1] <= 1
