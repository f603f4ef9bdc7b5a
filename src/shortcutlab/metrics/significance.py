"""Paired statistics for the test vs anti-test drop (rows paired by ``row_id``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import binomtest, norm

from shortcutlab.metrics.classification import macro_f1_from_confusion


def mcnemar_exact(*, correct_a: np.ndarray, correct_b: np.ndarray) -> dict[str, float]:
    """Exact McNemar test on paired correctness: two-sided binomial test of the discordant pairs.

    ``b`` counts rows right under A and wrong under B, ``c`` the reverse.

    Examples:
        >>> result = mcnemar_exact(correct_a=np.array([1, 1, 1, 1, 1, 0]), correct_b=np.array([0, 0, 0, 0, 0, 0]))
        >>> result["b"], result["c"], round(result["p_value"], 4)
        (5, 0, 0.0625)
    """
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
    """Bootstrap distribution of delta = metric(A) - metric(B) for accuracy and macro-F1.

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
    accuracy and macro-F1, averaged over fits.

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
    terms = [(float(sign), np.atleast_2d(pred)) for sign, pred in terms]
    y_true = np.asarray(y_true, dtype=np.int64)
    n_rows, n_fits = len(y_true), len(terms[0][1])
    rng = np.random.default_rng(seed)
    deltas: dict[str, list[np.ndarray]] = {"accuracy": [], "macro_f1": []}
    chunk = max(1, min(n_resamples, 2_000_000 // max(n_rows, 1)))
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        rows = rng.integers(n_rows, size=(size, n_rows))
        if resample_fits:
            weights = rng.multinomial(n_fits, np.full(n_fits, 1.0 / n_fits), size=size) / n_fits
        else:
            weights = np.full((size, n_fits), 1.0 / n_fits)
        width = n_classes + 1  # the last column counts invalid (-1) predictions
        offset = np.arange(size)[:, None] * n_classes * width
        acc = np.zeros(size)
        f1 = np.zeros(size)
        base = offset + y_true[rows] * width
        for fit in range(n_fits):
            for sign, predictions in terms:
                predicted = np.asarray(predictions[fit], dtype=np.int64)
                predicted = np.where(predicted < 0, n_classes, predicted)
                codes = (base + predicted[rows]).ravel()
                matrices = np.bincount(codes, minlength=size * n_classes * width)
                matrices = matrices.reshape(size, n_classes, width)
                correct = np.trace(matrices[:, :, :n_classes], axis1=1, axis2=2) / n_rows
                acc += sign * weights[:, fit] * correct
                f1 += sign * weights[:, fit] * macro_f1_from_confusion(matrices)
        deltas["accuracy"].append(acc)
        deltas["macro_f1"].append(f1)
        done += size
    return {name: np.concatenate(values) for name, values in deltas.items()}


def percentile_interval(samples: np.ndarray, confidence: float = 0.95) -> list[float]:
    tail = (1 - confidence) / 2 * 100
    return [float(np.percentile(samples, tail)), float(np.percentile(samples, 100 - tail))]


def bootstrap_p_value(samples: np.ndarray, estimate: float) -> float:
    """Two-sided p-value of "delta = 0" from the bootstrap standard error: a normal approximation,
    z = estimate / SE, not an exact test.

    A percentile p-value cannot go below 2/(B+1), which a Holm correction over a grid then pushes
    above any alpha; the standard-error z-test has no such floor.

    Examples:
        >>> round(bootstrap_p_value(np.array([0.1, 0.2, 0.3]), 0.2), 4)
        0.0455
    """
    se = float(np.std(samples, ddof=1))
    if se == 0.0:
        return 1.0 if estimate == 0 else 0.0
    return float(2 * norm.sf(abs(estimate) / se))


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
    """Percentile bootstrap interval of delta = metric(A) - metric(B) for accuracy and macro-F1."""
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


def holm(p_values: np.ndarray | list[float]) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (family-wise error control across a grid).

    Examples:
        >>> holm([0.01, 0.04, 0.03]).round(2).tolist()
        [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped) if m else stepped
    return adjusted


def benjamini_hochberg(p_values: np.ndarray | list[float]) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (false-discovery-rate control across many tests).

    The adjusted value of the ``i``-th smallest of ``m`` p-values is min over ``j >= i`` of
    ``m / j * p_(j)``, capped at 1 (step-up; valid under independence or positive dependence).

    Examples:
        >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
        [0.02, 0.04, 0.04, 0.02]
        >>> benjamini_hochberg([]).tolist()
        []
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if m == 0:
        return np.zeros(0)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    running = np.minimum.accumulate(scaled[::-1])[::-1]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(running, 1.0)
    return adjusted
