"""Classification metrics as plain functions over label-rank arrays.

Each takes keyword-only ``y_true`` / ``y_pred`` (and ``n_classes`` where it matters) and returns a
float or an array, so the same code serves single evaluations and vectorised bootstraps.
A prediction of ``-1`` means "no valid answer" (an unparseable LLM reply): it is wrong for every
row, and it counts against the true label's recall without crediting any predicted label.
"""

from __future__ import annotations

import numpy as np

INVALID = -1


def confusion(*, y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> np.ndarray:
    """(n_classes, n_classes + 1) counts: rows = true label, columns = prediction, last = invalid.

    Examples:
        >>> confusion(y_true=np.array([0, 1, 1]), y_pred=np.array([0, -1, 0]), n_classes=2).tolist()
        [[1, 0, 0], [1, 0, 1]]
    """
    width = n_classes + 1
    predicted = np.asarray(y_pred, dtype=np.int64)
    codes = np.asarray(y_true, dtype=np.int64) * width + np.where(
        predicted < 0, n_classes, predicted
    )
    return np.bincount(codes, minlength=n_classes * width).reshape(n_classes, width)


def accuracy(*, y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Share of rows predicted correctly.

    Examples:
        >>> accuracy(y_true=np.array([0, 1, 1]), y_pred=np.array([0, 1, 0]))
        0.6666666666666666
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    return float((y_true == y_pred).mean()) if len(y_true) else float("nan")


def accuracy_from_confusion(matrix: np.ndarray) -> np.ndarray:
    """Accuracy of one (K, K+1) or a stack (..., K, K+1) of confusion matrices (see
    :func:`confusion`): the diagonal over every row, invalid answers included; NaN without rows.

    Examples:
        >>> float(accuracy_from_confusion(np.array([[1, 0, 0], [1, 0, 1]])))
        0.3333333333333333
    """
    k = matrix.shape[-2]
    right = np.trace(matrix[..., :k], axis1=-2, axis2=-1)
    total = matrix.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, right / np.maximum(total, 1), np.nan)


def worst_label_accuracy_from_confusion(matrix: np.ndarray) -> np.ndarray:
    """W-ACC of one (K, K+1) or a stack (..., K, K+1) of confusion matrices: the lowest accuracy
    within a true label, over the labels that have rows (MPS paper, A.5.1); inf without rows.

    Examples:
        >>> float(worst_label_accuracy_from_confusion(np.array([[3, 1, 0], [1, 1, 2]])))
        0.25
    """
    k = matrix.shape[-2]
    right = np.diagonal(matrix[..., :k], axis1=-2, axis2=-1)
    support = matrix.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_label = np.where(support > 0, right / np.maximum(support, 1), np.inf)
    return per_label.min(axis=-1)


def macro_f1_from_confusion(matrix: np.ndarray) -> np.ndarray:
    """Macro-F1 of one (K, K+1) or a stack (..., K, K+1) of confusion matrices (see :func:`confusion`).

    Labels that neither occur nor are predicted are left out of the average, as scikit-learn's
    ``f1_score(average="macro")`` does by default.
    """
    k = matrix.shape[-2]
    tp = np.diagonal(matrix[..., :k], axis1=-2, axis2=-1).astype(np.float64)
    predicted = matrix[..., :k].sum(axis=-2)
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
        return np.where(
            support > 0, np.diagonal(matrix[:, :n_classes]) / np.maximum(support, 1), np.nan
        )


def expected_calibration_error(
    *, confidence: np.ndarray, correct: np.ndarray, bins: int = 10
) -> float:
    """ECE: the row-weighted mean |accuracy - confidence| over equal-width confidence bins.

    Rows without a confidence (NaN) are left out; NaN when none has one.

    Examples:
        >>> round(expected_calibration_error(confidence=np.array([0.9, 0.9, 0.2]), correct=np.array([1, 0, 0])), 3)
        0.333
    """
    confidence = np.asarray(confidence, dtype=np.float64)
    correct = np.asarray(correct, dtype=np.float64)
    known = ~np.isnan(confidence)
    if not known.any():
        return float("nan")
    confidence, correct = confidence[known], correct[known]
    index = np.minimum((confidence * bins).astype(np.int64), bins - 1)
    total = 0.0
    for b in np.unique(index):
        members = index == b
        total += members.sum() * abs(correct[members].mean() - confidence[members].mean())
    return float(round(total / len(confidence), 12))
