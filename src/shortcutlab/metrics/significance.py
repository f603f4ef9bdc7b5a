"""Paired statistics for the test vs anti-test drop (rows paired by ``row_id``): the exact McNemar
test and the paired bootstrap of every per-split metric."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shortcutlab.metrics.catalog import METRICS, split_metric_names
from shortcutlab.metrics.resampling import Draw, confusion_stack, percentile_interval, resample


def mcnemar_exact(*, correct_a: np.ndarray, correct_b: np.ndarray) -> dict[str, float]:
    """Exact McNemar test on paired correctness: two-sided binomial test of the discordant pairs.

    ``b`` counts rows right under A and wrong under B, ``c`` the reverse.

    Examples:
        >>> result = mcnemar_exact(correct_a=np.array([1, 1, 1, 1, 1, 0]), correct_b=np.array([0, 0, 0, 0, 0, 0]))
        >>> result["b"], result["c"], round(result["p_value"], 4)
        (5, 0, 0.0625)
    """
    from scipy.stats import binomtest  # scipy.stats costs ~0.4 s to import: a report needs none

    a = np.asarray(correct_a, dtype=bool)
    b_ = np.asarray(correct_b, dtype=bool)
    b = int((a & ~b_).sum())
    c = int((~a & b_).sum())
    p_value = 1.0 if b + c == 0 else float(binomtest(min(b, c), b + c, 0.5).pvalue)
    return {"b": b, "c": c, "p_value": min(p_value, 1.0)}


def bootstrap_deltas(
    *,
    y_true: np.ndarray,
    pred_a: np.ndarray,
    pred_b: np.ndarray,
    n_classes: int,
    n_resamples: int = 1000,
    seed: int = 0,
    resample_fits: bool = False,
) -> dict[str, np.ndarray]:
    """Bootstrap distribution of delta = metric(A) - metric(B) for every per-split metric.

    ``pred_a`` and ``pred_b`` are (fits, rows) arrays of predictions on the same paired rows. One
    resample draws rows with replacement, the same rows for every fit (they share one test set);
    with ``resample_fits`` it also draws the fits with replacement (a two-level bootstrap, so the
    interval includes the variance between fits). The statistic is the delta averaged over fits.
    """
    return bootstrap_contrast(
        y_true=y_true,
        terms=[(1.0, pred_a), (-1.0, pred_b)],
        n_classes=n_classes,
        n_resamples=n_resamples,
        seed=seed,
        resample_fits=resample_fits,
    )


def bootstrap_contrast(
    *,
    y_true: np.ndarray,
    terms: Sequence[tuple[float, np.ndarray]],
    n_classes: int,
    n_resamples: int = 1000,
    seed: int = 0,
    resample_fits: bool = False,
) -> dict[str, np.ndarray]:
    """Bootstrap distribution of a signed sum of metrics, Σ sign · metric(predictions), for
    every per-split metric of :data:`~shortcutlab.metrics.catalog.METRICS`, averaged over fits.

    Each term's predictions are a (fits, rows) array on the same rows (fit ``j`` of every term
    belongs together: a mitigation's fit and the erm fit of the same seed, say). Rows and (with
    ``resample_fits``) fits are drawn as in :func:`bootstrap_deltas`, which is the contrast
    ``[(+1, A), (-1, B)]``; the change of a drop between two methods is
    ``[(+1, test_m), (-1, anti_m), (-1, test_erm), (+1, anti_erm)]``.

    Examples:
        A method right on test and anti-test rows (Δ = 0) against erm, right on test rows and wrong
        on anti-test rows (Δ = 1): the drop changes by -1 in every resample.

        >>> truth = np.array([0, 1, 0, 1])
        >>> right, wrong = truth[None, :], 1 - truth[None, :]
        >>> terms = [(1.0, right), (-1.0, right), (-1.0, right), (1.0, wrong)]
        >>> bootstrap_contrast(y_true=truth, terms=terms, n_classes=2, n_resamples=5)["accuracy"].tolist()
        [-1.0, -1.0, -1.0, -1.0, -1.0]
    """
    terms = [(float(sign), np.asarray(np.atleast_2d(pred), dtype=np.int64)) for sign, pred in terms]
    y_true = np.asarray(y_true, dtype=np.int64)
    kernels = {name: METRICS.get(name).of_confusion for name in split_metric_names()}
    n_fits = len(terms[0][1])

    def contrast(draw: Draw) -> dict[str, np.ndarray]:
        rows = draw.rows[0]
        truth = y_true[rows]
        totals = {name: np.zeros(draw.size) for name in kernels}
        for fit in range(n_fits):
            for sign, predictions in terms:
                matrices = confusion_stack(truth, predictions[fit][rows], n_classes)
                for name, kernel in kernels.items():
                    totals[name] += sign * draw.weights[:, fit] * kernel(matrices)
        return totals

    return resample(
        contrast,
        row_counts=[len(y_true)] * n_fits,
        n_resamples=n_resamples,
        seed=seed,
        resample_fits=resample_fits,
    )


def bootstrap_delta(
    *,
    y_true: np.ndarray,
    pred_a: np.ndarray,
    pred_b: np.ndarray,
    n_classes: int,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    resample_fits: bool = False,
) -> dict[str, list[float]]:
    """Percentile bootstrap interval of delta = metric(A) - metric(B) for every per-split metric."""
    samples = bootstrap_deltas(
        y_true=y_true,
        pred_a=pred_a,
        pred_b=pred_b,
        n_classes=n_classes,
        n_resamples=n_resamples,
        seed=seed,
        resample_fits=resample_fits,
    )
    return {name: percentile_interval(values, confidence) for name, values in samples.items()}
