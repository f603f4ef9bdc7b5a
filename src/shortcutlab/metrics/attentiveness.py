"""The Counterfactual Attentiveness Test's metric (CAT, paper 003 section 3.3) as pure functions.

Attentiveness of one counterfactual set = the share of kept rows whose prediction changed when
x1 was replaced by another row's x1. Over k sets: the per-set shares, their mean and standard
deviation (the paper's mean ± std over k = 5 draws), and the same per original predicted label.

Examples:
    >>> original = np.array([0, 0, 2, 2])
    >>> sets = np.array([[1, 0, 1, 2], [1, 1, 1, 1]])
    >>> summary = attentiveness_summary(original=original, counterfactual=sets, n_classes=3)
    >>> summary["per_set"], summary["mean"]
    ([0.5, 1.0], 0.75)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shortcutlab.metrics.proportions import binomial_interval


def attentiveness(*, original: np.ndarray, counterfactual: np.ndarray) -> float:
    """Share of rows whose counterfactual prediction differs from the original prediction.

    Examples:
        >>> attentiveness(original=np.array([0, 1, 2]), counterfactual=np.array([0, 2, 1]))
        0.6666666666666666
    """
    original, counterfactual = np.asarray(original), np.asarray(counterfactual)
    if original.shape != counterfactual.shape or original.ndim != 1 or not len(original):
        raise ValueError(
            f"attentiveness needs two equal-length, non-empty 1-d arrays; got shapes "
            f"{original.shape} and {counterfactual.shape}."
        )
    return float(np.mean(original != counterfactual))


def spread(values: list[float]) -> float | None:
    """Sample standard deviation (ddof=1) of the per-set figures; ``None`` for one set, where
    nothing varied (printed as ``—``, never as 0)."""
    return float(np.std(values, ddof=1)) if len(values) > 1 else None


def attentiveness_summary(
    *, original: np.ndarray, counterfactual: np.ndarray, n_classes: int
) -> dict[str, Any]:
    """Per-set attentiveness of a (k, rows) array of counterfactual predictions against the
    (rows,) original predictions, with mean, std over the k sets, and per original label
    (``per_label[rank]``: rows and mean/std, ``None`` where no row had that prediction)."""
    original = np.asarray(original)
    sets = np.atleast_2d(np.asarray(counterfactual))
    per_set = [attentiveness(original=original, counterfactual=row) for row in sets]
    per_label: list[dict[str, Any] | None] = []
    for rank in range(n_classes):
        rows = original == rank
        if not rows.any():
            per_label.append(None)
            continue
        shares = [attentiveness(original=original[rows], counterfactual=s[rows]) for s in sets]
        per_label.append(
            {"rows": int(rows.sum()), "mean": float(np.mean(shares)), "std": spread(shares)}
        )
    return {
        "k": len(per_set),
        "rows": len(original),
        "per_set": per_set,
        "mean": float(np.mean(per_set)),
        "std": spread(per_set),
        "per_label": per_label,
    }


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> list[float]:
    """Wilson score interval of a proportion (for accuracy over test rows; it ignores the
    variance between fits), as scipy's ``binomtest(...).proportion_ci(method="wilson")``.

    Examples:
        >>> [round(v, 4) for v in wilson_interval(80, 100)]
        [0.7112, 0.8666]
    """
    return binomial_interval(successes, trials, method="wilson", confidence=confidence)
