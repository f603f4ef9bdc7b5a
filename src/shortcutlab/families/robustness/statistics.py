"""One perturbation class's figures on its changed rows, each paired to its source row.

- accuracy on the original and on the perturbed rows, and the drop (original − perturbed) with a
  95 % paired percentile bootstrap interval (the rows' per-row drops resampled together) and an
  exact McNemar p on the paired correctness; Holm-adjusted over the build's classes;
- the flip rate: the share of rows whose prediction changed;
- for a DIR class, the share of rows not already predicted as the expected label whose
  prediction moved to it, with a one-sided exact binomial p against 1/K, the share a model
  guessing uniformly among the K labels would reach.

Examples:
    >>> figures = class_statistics(
    ...     truth_original=np.array([0, 1, 1, 0]), truth_perturbed=np.array([0, 1, 1, 0]),
    ...     pred_original=np.array([0, 1, 1, 0]), pred_perturbed=np.array([0, 0, 1, 1]),
    ...     n_classes=2, n_resamples=200, seed=0)
    >>> figures["accuracy_original"], figures["accuracy_perturbed"], figures["drop"], figures["flip_rate"]
    (1.0, 0.5, 0.5, 0.5)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shortcutlab.metrics import holm, mcnemar_exact
from shortcutlab.metrics.resampling import percentile_interval, resampled_means


def class_statistics(
    *,
    truth_original: np.ndarray,
    truth_perturbed: np.ndarray,
    pred_original: np.ndarray,
    pred_perturbed: np.ndarray,
    n_classes: int,
    n_resamples: int = 1000,
    seed: int = 0,
    expected: np.ndarray | None = None,
) -> dict[str, Any]:
    """The class's figures (see the module docstring); ``expected`` (label ranks) makes it a
    DIR class's, with ``moved_to_expected`` and its p."""
    right_original = np.asarray(pred_original) == np.asarray(truth_original)
    right_perturbed = np.asarray(pred_perturbed) == np.asarray(truth_perturbed)
    rows = len(right_original)
    figures: dict[str, Any] = {"rows": rows}
    if rows == 0:
        return figures
    per_row_drop = right_original.astype(float) - right_perturbed.astype(float)
    samples = resampled_means(per_row_drop, n_resamples=n_resamples, seed=seed)
    low, high = percentile_interval(samples)
    figures |= {
        "accuracy_original": float(right_original.mean()),
        "accuracy_perturbed": float(right_perturbed.mean()),
        "drop": float(per_row_drop.mean()),
        "drop_ci_low": low,
        "drop_ci_high": high,
        "p_mcnemar": mcnemar_exact(correct_a=right_original, correct_b=right_perturbed)["p_value"],
        "flips": int((np.asarray(pred_original) != np.asarray(pred_perturbed)).sum()),
    }
    figures["flip_rate"] = figures["flips"] / rows
    if expected is not None:
        figures |= moved_to_expected(pred_original, pred_perturbed, expected, n_classes)
    return figures


def moved_to_expected(
    pred_original: np.ndarray, pred_perturbed: np.ndarray, expected: np.ndarray, n_classes: int
) -> dict[str, Any]:
    """Of the rows whose original prediction was not the expected label, how many the
    perturbation moved to it, and the one-sided exact binomial p of that share against 1/K."""
    from scipy.stats import binomtest  # scipy.stats is slow to import: only a DIR class needs it

    eligible = np.asarray(pred_original) != np.asarray(expected)
    moved = int((eligible & (np.asarray(pred_perturbed) == np.asarray(expected))).sum())
    trials = int(eligible.sum())
    if trials == 0:
        return {"expected_rows": 0, "moved_to_expected": None, "p_expected": None}
    test = binomtest(moved, trials, 1.0 / n_classes, alternative="greater")
    return {
        "expected_rows": trials,
        "moved_to_expected": moved / trials,
        "p_expected": float(test.pvalue),
    }


def with_holm(classes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The classes' figures with ``p_mcnemar_holm``: McNemar's p adjusted over the classes
    measured (a class without changed rows has none)."""
    measured = [c for c in classes if c.get("p_mcnemar") is not None]
    adjusted = holm([c["p_mcnemar"] for c in measured]) if measured else []
    for figures, p in zip(measured, adjusted, strict=True):
        figures["p_mcnemar_holm"] = float(p)
    return classes
