import numpy as np
import pytest
from scipy.stats import binomtest, bootstrap
from sklearn.metrics import accuracy_score, f1_score, recall_score

from shortcutlab.metrics import (
    accuracy,
    bootstrap_delta,
    bootstrap_deltas,
    holm,
    macro_f1,
    mcnemar_exact,
    per_label_accuracy,
    percentile_interval,
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


# -- the bootstrap against references ------------------------------------------------------------
# Tolerances come from B: a bootstrap standard deviation has Monte-Carlo error ~ sd / sqrt(2B), a
# mean ~ sd / sqrt(B), and a 2.5 % / 97.5 % percentile ~ sqrt(q (1 - q) / B) / density, i.e. about
# 2.7 sd / sqrt(B) for a near-normal distribution. Two independent estimates differ by sqrt(2)
# times that; we allow 5 such standard errors (deterministic seeds, so never flaky).
B = 4000
Z = 5.0


def _monte_carlo_tolerances(sd: float) -> dict[str, float]:
    return {
        "sd": Z * np.sqrt(2) * sd / np.sqrt(2 * B),
        "mean": Z * np.sqrt(2) * sd / np.sqrt(B),
        "percentile": Z * np.sqrt(2) * 2.7 * sd / np.sqrt(B),
    }


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
def test_row_bootstrap_agrees_with_scipy_paired_bootstrap(metric):
    rng = np.random.default_rng(11)
    y = rng.integers(3, size=400)
    a = np.where(rng.random(400) < 0.75, y, rng.integers(3, size=400))
    b = np.where(rng.random(400) < 0.55, y, rng.integers(3, size=400))
    ours = bootstrap_deltas(y_true=y, pred_a=a, pred_b=b, n_classes=3, n_resamples=B, seed=3)[
        metric
    ]
    score = accuracy if metric == "accuracy" else lambda **kw: macro_f1(**kw, n_classes=3)

    def statistic(truth, first, second):
        return score(y_true=truth, y_pred=first) - score(y_true=truth, y_pred=second)

    reference = bootstrap(
        (y, a, b),
        statistic,
        paired=True,
        vectorized=False,
        n_resamples=B,
        method="percentile",
        random_state=np.random.default_rng(5),
    )
    tolerance = _monte_carlo_tolerances(reference.standard_error)
    assert abs(ours.std(ddof=1) - reference.standard_error) < tolerance["sd"]
    low, high = percentile_interval(ours)
    assert abs(low - reference.confidence_interval.low) < tolerance["percentile"]
    assert abs(high - reference.confidence_interval.high) < tolerance["percentile"]
    assert abs(ours.mean() - statistic(y, a, b)) < tolerance["mean"]


def test_fit_level_of_the_two_level_bootstrap_is_the_bootstrap_of_the_fit_mean():
    # Four fits whose drop is 1 or 0 on every row: rows add no variance, so the resampled mean
    # over fits has exactly the plug-in variance of the fit drops over the number of fits.
    y = np.zeros(200, dtype=int)
    right, wrong = np.zeros(200, dtype=int), np.ones(200, dtype=int)
    pred_a = np.stack([right, right, right, right])
    pred_b = np.stack([wrong, wrong, right, right])  # drops 1, 1, 0, 0
    two_level = bootstrap_deltas(
        y_true=y, pred_a=pred_a, pred_b=pred_b, n_classes=2, n_resamples=B, resample_fits=True
    )["accuracy"]
    expected_sd = np.sqrt(np.var([1, 1, 0, 0]) / 4)
    assert abs(two_level.std(ddof=1) - expected_sd) < _monte_carlo_tolerances(expected_sd)["sd"]
    rows_only = bootstrap_deltas(
        y_true=y, pred_a=pred_a, pred_b=pred_b, n_classes=2, n_resamples=200
    )
    assert set(rows_only["accuracy"].tolist()) == {0.5}  # conditional on the fits: no spread


def test_two_level_bootstrap_agrees_with_a_brute_force_from_the_definition():
    rng = np.random.default_rng(2)
    n, fits = 150, 5
    y = rng.integers(2, size=n)
    pred_a = np.stack([np.where(rng.random(n) < 0.6 + 0.06 * f, y, 1 - y) for f in range(fits)])
    pred_b = np.stack([np.where(rng.random(n) < 0.55, y, 1 - y) for _ in range(fits)])
    ours = bootstrap_deltas(
        y_true=y, pred_a=pred_a, pred_b=pred_b, n_classes=2, n_resamples=B, resample_fits=True
    )["accuracy"]
    brute = np.empty(B)
    draw = np.random.default_rng(9)
    for i in range(B):  # draw fits with replacement, then rows shared by the drawn fits
        chosen = draw.integers(fits, size=fits)
        rows = draw.integers(n, size=n)
        brute[i] = np.mean(
            [
                (pred_a[f, rows] == y[rows]).mean() - (pred_b[f, rows] == y[rows]).mean()
                for f in chosen
            ]
        )
    tolerance = _monte_carlo_tolerances(brute.std(ddof=1))
    assert abs(ours.std(ddof=1) - brute.std(ddof=1)) < tolerance["sd"]
    assert abs(ours.mean() - brute.mean()) < tolerance["mean"]
    rows_only = bootstrap_deltas(y_true=y, pred_a=pred_a, pred_b=pred_b, n_classes=2, n_resamples=B)
    assert ours.std() > rows_only["accuracy"].std()  # the fits' spread widens the interval


# -- Holm against its definition ------------------------------------------------------------------
def _holm_rejections(p: np.ndarray, alpha: float) -> set[int]:
    """Holm's step-down procedure at level alpha: reject in order of p while p_(k) <= alpha / (m - k)."""
    rejected: set[int] = set()
    for k, index in enumerate(np.argsort(p, kind="stable")):
        if p[index] * (len(p) - k) > alpha:
            break
        rejected.add(int(index))
    return rejected


def _holm_by_definition(p: np.ndarray) -> np.ndarray:
    """Adjusted p-value of each hypothesis: the smallest alpha at which the procedure rejects it
    (1 when no alpha up to 1 does)."""
    ranked = np.sort(p)
    candidates = sorted({min(1.0, q * (len(p) - k)) for k, q in enumerate(ranked)} | {1.0})
    return np.array(
        [next((a for a in candidates if i in _holm_rejections(p, a)), 1.0) for i in range(len(p))]
    )


@pytest.mark.parametrize("seed", range(6))
def test_holm_matches_the_step_down_procedure(seed):
    rng = np.random.default_rng(seed)
    p = rng.choice([*rng.random(8) * 0.1, 0.2, 0.5, 1.0, 0.003], size=12)  # ties included
    assert holm(p) == pytest.approx(_holm_by_definition(p), abs=1e-12)
