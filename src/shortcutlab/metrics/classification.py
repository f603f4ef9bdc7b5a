"""Classification metrics as plain functions over label-rank arrays.

Each takes keyword-only ``y_true`` / ``y_pred`` (and ``n_classes`` where it matters) and returns a
float or an array, so the same code serves single evaluations and vectorised bootstraps.
"""

from __future__ import annotations

import numpy as np


def confusion(*, y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> np.ndarray:
    """(n_classes, n_classes) counts, rows = true label, columns = prediction."""
    codes = np.asarray(y_true, dtype=np.int64) * n_classes + np.asarray(y_pred, dtype=np.int64)
    return np.bincount(codes, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


def accuracy(*, y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Share of rows predicted correctly.

    Examples:
        >>> accuracy(y_true=np.array([0, 1, 1]), y_pred=np.array([0, 1, 0]))
        0.6666666666666666
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    return float((y_true == y_pred).mean()) if len(y_true) else float("nan")


def macro_f1_from_confusion(matrix: np.ndarray) -> np.ndarray:
    """Macro-F1 of one (K, K) or a stack (..., K, K) of confusion matrices.

    Labels that neither occur nor are predicted are left out of the average, as scikit-learn's
    ``f1_score(average="macro")`` does by default.
    """
    tp = np.diagonal(matrix, axis1=-2, axis2=-1).astype(np.float64)
    predicted = matrix.sum(axis=-2)
    actual = matrix.sum(axis=-1)
    denominator = predicted + actual
    present = denominator > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(present, 2 * tp / np.maximum(denominator, 1), 0.0)
    return f1.sum(axis=-1) / np.maximum(present.sum(axis=-1), 1)


def macro_f1(*, y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> float:
    """Unweighted mean of per-label F1 over the labels present in ``y_true`` or ``y_pred``.

    Examples:
        >>> macro_f1(y_true=np.array([0, 0, 1, 1]), y_pred=np.array([0, 1, 1, 1]), n_classes=3)
        0.7333333333333334
    """
    return float(
        macro_f1_from_confusion(confusion(y_true=y_true, y_pred=y_pred, n_classes=n_classes))
    )


def per_label_accuracy(*, y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> np.ndarray:
    """Accuracy within each true label (its recall); NaN for labels with no rows."""
    matrix = confusion(y_true=y_true, y_pred=y_pred, n_classes=n_classes)
    support = matrix.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(support > 0, np.diagonal(matrix) / np.maximum(support, 1), np.nan)
