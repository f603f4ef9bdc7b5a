"""Paired statistics for the test vs anti-test drop (rows paired by ``row_id``)."""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest

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


def bootstrap_delta(
    *,
    y_true: np.ndarray,
    pred_a: np.ndarray,
    pred_b: np.ndarray,
    n_classes: int,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, list[float]]:
    """Percentile bootstrap interval of delta = metric(A) - metric(B) for accuracy and macro-F1.

    ``pred_a`` and ``pred_b`` are (seeds, rows) arrays of predictions on the same paired rows; one
    resample draws rows with replacement and the statistic is the delta averaged over seeds.
    """
    pred_a, pred_b = np.atleast_2d(pred_a), np.atleast_2d(pred_b)
    y_true = np.asarray(y_true, dtype=np.int64)
    n_rows = len(y_true)
    rng = np.random.default_rng(seed)
    deltas = {"accuracy": [], "macro_f1": []}
    chunk = max(1, min(n_resamples, 2_000_000 // max(n_rows, 1)))
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        rows = rng.integers(n_rows, size=(size, n_rows))
        offset = np.arange(size)[:, None] * n_classes * n_classes
        acc = np.zeros(size)
        f1 = np.zeros(size)
        base = offset + y_true[rows] * n_classes
        for seed_a, seed_b in zip(pred_a, pred_b, strict=True):
            for sign, pred in ((1.0, seed_a), (-1.0, seed_b)):
                codes = (base + np.asarray(pred, dtype=np.int64)[rows]).ravel()
                matrices = np.bincount(codes, minlength=size * n_classes * n_classes).reshape(
                    size, n_classes, n_classes
                )
                acc += sign * np.trace(matrices, axis1=1, axis2=2) / n_rows
                f1 += sign * macro_f1_from_confusion(matrices)
        deltas["accuracy"].append(acc / len(pred_a))
        deltas["macro_f1"].append(f1 / len(pred_a))
        done += size
    tail = (1 - confidence) / 2 * 100
    return {
        name: [
            float(np.percentile(np.concatenate(values), tail)),
            float(np.percentile(np.concatenate(values), 100 - tail)),
        ]
        for name, values in deltas.items()
    }
