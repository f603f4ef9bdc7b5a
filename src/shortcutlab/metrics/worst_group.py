"""Worst-group metrics of the MPS paper (002, appendix A.5) as pure functions over label ranks.

- W-ACC, the paper's variant (A.5.1): the lowest per-label accuracy (groups = true labels);
- the traditional worst-group accuracy over (label, attribute value) groups, where groups under a
  minimum size are reported but not used (A.5.2, Table 8: groups of 1-7 rows give 0 %);
- δ = W-ACC(Balanced) − W-ACC(Imbalanced), Δ = ACC(Balanced) − W-ACC(Imbalanced) and
  ζ = ACC(Balanced) − W-ACC(Balanced), so Δ = ζ + δ (A.5.4);
- a paired bootstrap of δ, Δ and ζ: both fits predicted the same test rows, so one row resample
  serves both.

A prediction array may carry a leading epochs axis, ``(epochs, rows)``: each metric is then the
mean of its per-epoch values (the paper's "average of the metrics of the final five epochs", §3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.errors import DataError
from shortcutlab.metrics.catalog import METRICS
from shortcutlab.metrics.classification import accuracy, per_label_accuracy
from shortcutlab.metrics.resampling import Draw, confusion_stack, resample

GAPS = ("delta_isolated", "delta_overall", "zeta")


def worst_label_accuracy(
    *, y_true: np.ndarray, y_pred: np.ndarray, n_classes: int
) -> tuple[float, int]:
    """W-ACC (A.5.1): the minimum accuracy within a true label, and that label's rank.

    Labels without test rows are skipped; ties go to the lowest rank; ``(nan, -1)`` without rows.

    Examples:
        >>> worst_label_accuracy(y_true=np.array([0, 0, 1, 1, 2]), y_pred=np.array([0, 0, 1, 0, 0]), n_classes=3)
        (0.0, 2)
    """
    per_label = per_label_accuracy(y_true=y_true, y_pred=y_pred, n_classes=n_classes)
    if np.all(np.isnan(per_label)):
        return float("nan"), -1
    worst = int(np.nanargmin(per_label))
    return float(per_label[worst]), worst


def group_accuracies(
    *, y_true: np.ndarray, y_pred: np.ndarray, groups: np.ndarray, min_size: int = 1
) -> dict[str, Any]:
    """Accuracy, size and use of every group, and the traditional worst-group accuracy ``acc_wg``
    over the groups with at least ``min_size`` rows (``nan`` and no ``worst_group`` when none has).

    Examples:
        >>> result = group_accuracies(y_true=np.array([0, 0, 0, 1, 1]), y_pred=np.array([0, 0, 1, 1, 0]),
        ...                           groups=np.array(["0|a", "0|a", "0|a", "1|a", "1|b"]), min_size=2)
        >>> result["groups"]["1|b"], result["acc_wg"], result["worst_group"]
        ({'accuracy': 0.0, 'rows': 1, 'used': False}, 0.6666666666666666, '0|a')
    """
    groups = np.asarray(groups).astype(str)
    correct = np.asarray(y_true) == np.asarray(y_pred)
    names, index, sizes = np.unique(groups, return_inverse=True, return_counts=True)
    hits = np.bincount(index, weights=correct, minlength=len(names))
    table: dict[str, dict[str, Any]] = {}
    worst: tuple[float, str] | None = None
    for name, size, hit in zip(names.tolist(), sizes.tolist(), hits.tolist(), strict=True):
        value = hit / size
        used = size >= min_size
        table[name] = {"accuracy": value, "rows": int(size), "used": used}
        if used and (worst is None or value < worst[0]):
            worst = (value, name)
    return {
        "groups": table,
        "acc_wg": worst[0] if worst else float("nan"),
        "worst_group": worst[1] if worst else None,
        "worst_group_rows": table[worst[1]]["rows"] if worst else None,
        "min_size": min_size,
    }


def mps_gaps(
    *, y_true: np.ndarray, pred_imbalanced: np.ndarray, pred_balanced: np.ndarray, n_classes: int
) -> dict[str, Any]:
    """ACC and W-ACC of the Imbalanced and Balanced fits on one test set, and δ, Δ, ζ (A.5.4).

    With an epochs axis the worst label is the one most often worst over the epochs.

    Examples:
        >>> truth = np.array([0, 0, 1, 1])
        >>> gaps = mps_gaps(y_true=truth, pred_imbalanced=np.array([0, 0, 0, 1]),
        ...                 pred_balanced=np.array([0, 1, 1, 1]), n_classes=2)
        >>> gaps["w_acc_imbalanced"], gaps["w_acc_balanced"], gaps["accuracy_balanced"]
        (0.5, 0.5, 0.75)
        >>> gaps["delta_isolated"], gaps["delta_overall"], gaps["zeta"]
        (0.0, 0.25, 0.25)
    """
    result: dict[str, Any] = {}
    for fit, predicted in (("imbalanced", pred_imbalanced), ("balanced", pred_balanced)):
        epochs = _epochs(predicted, len(y_true))
        worst = [worst_label_accuracy(y_true=y_true, y_pred=e, n_classes=n_classes) for e in epochs]
        labels = np.array([label for _, label in worst])
        result[f"accuracy_{fit}"] = float(
            np.mean([accuracy(y_true=y_true, y_pred=e) for e in epochs])
        )
        result[f"w_acc_{fit}"] = float(np.mean([value for value, _ in worst]))
        result[f"worst_label_{fit}"] = (
            int(np.bincount(labels[labels >= 0]).argmax()) if (labels >= 0).any() else -1
        )
    result.update(
        _gaps(result["w_acc_imbalanced"], result["accuracy_balanced"], result["w_acc_balanced"])
    )
    return result


def bootstrap_mps_gaps(
    *,
    y_true: np.ndarray | Sequence[np.ndarray],
    pred_imbalanced: np.ndarray | Sequence[np.ndarray],
    pred_balanced: np.ndarray | Sequence[np.ndarray],
    n_classes: int,
    n_resamples: int = 1000,
    seed: int = 0,
    resample_fits: bool = False,
) -> dict[str, np.ndarray]:
    """Bootstrap distributions of δ, Δ and ζ averaged over fits (``GAPS`` keys, one value per resample).

    A fit is one (Imbalanced, Balanced) pair trained with one seed. ``y_true`` is either one array
    of test rows that every fit predicted (``pred_*`` of shape (fits, rows) or (fits, epochs,
    rows)): each resample draws the same rows for every fit; or one array per fit when the fits
    were tested on different builds (``pred_*`` one array per fit): rows are drawn within each
    fit's own test set. ``resample_fits`` also draws the fits with replacement (a two-level
    bootstrap, so the interval includes the variance between fits). Epochs are averaged, never
    resampled.
    """
    truths, imbalanced, balanced, shared = _fits(y_true, pred_imbalanced, pred_balanced)

    def gaps(draw: Draw) -> dict[str, np.ndarray]:
        totals = {name: np.zeros(draw.size) for name in GAPS}
        for fit, rows in enumerate(draw.rows):
            truth = truths[fit][rows]
            w_imb, _ = _resampled(truth, imbalanced[fit], rows, n_classes)
            w_bal, acc_bal = _resampled(truth, balanced[fit], rows, n_classes)
            for name, value in _gaps(w_imb, acc_bal, w_bal).items():
                totals[name] += draw.weights[:, fit] * value
        return totals

    return resample(
        gaps,
        row_counts=[len(t) for t in truths],
        n_resamples=n_resamples,
        seed=seed,
        shared_rows=shared,
        resample_fits=resample_fits,
        cost=max(len(t) for t in truths) * max(len(p) for p in imbalanced),
    )


def _gaps(w_imbalanced: Any, acc_balanced: Any, w_balanced: Any) -> dict[str, Any]:
    return {
        "delta_isolated": w_balanced - w_imbalanced,
        "delta_overall": acc_balanced - w_imbalanced,
        "zeta": acc_balanced - w_balanced,
    }


def _epochs(predicted: np.ndarray, n_rows: int) -> np.ndarray:
    """Predictions as (epochs, rows)."""
    predicted = np.asarray(predicted)
    epochs = predicted.reshape(1, -1) if predicted.ndim == 1 else predicted
    if epochs.ndim != 2 or epochs.shape[1] != n_rows:
        raise DataError(
            f"Predictions of shape {predicted.shape} do not match {n_rows} test rows; give "
            "(rows,) or (epochs, rows)."
        )
    return epochs


def _fits(
    y_true: Any, pred_imbalanced: Any, pred_balanced: Any
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], bool]:
    """Per fit: truth (rows,), Imbalanced and Balanced predictions (epochs, rows); rows shared?"""
    shared = isinstance(y_true, np.ndarray)
    if shared:
        truth = np.asarray(y_true, dtype=np.int64)
        imbalanced, balanced = np.asarray(pred_imbalanced), np.asarray(pred_balanced)
        if imbalanced.ndim == 1:
            imbalanced, balanced = imbalanced[None], balanced[None]
        truths = [truth] * len(imbalanced)
    else:
        truths = [np.asarray(t, dtype=np.int64) for t in y_true]
        imbalanced, balanced = list(pred_imbalanced), list(pred_balanced)
    if not (len(truths) == len(imbalanced) == len(balanced)) or not truths:
        raise DataError(
            f"The bootstrap needs one Imbalanced and one Balanced prediction per fit; got "
            f"{len(imbalanced)} and {len(balanced)} for {len(truths)} fits."
        )
    as_epochs = [
        (_epochs(i, len(t)).astype(np.int64), _epochs(b, len(t)).astype(np.int64))
        for t, i, b in zip(truths, imbalanced, balanced, strict=True)
    ]
    return truths, [i for i, _ in as_epochs], [b for _, b in as_epochs], shared


def _resampled(
    truth: np.ndarray, epochs: np.ndarray, rows: np.ndarray, n_classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """W-ACC and ACC of each resample (``rows``: (resamples, n)), averaged over the epochs."""
    w_acc, acc = np.zeros(len(rows)), np.zeros(len(rows))
    worst, overall = METRICS.get("w_acc").of_confusion, METRICS.get("accuracy").of_confusion
    for predicted in epochs:
        matrices = confusion_stack(truth, predicted[rows], n_classes)
        w_acc += worst(matrices)
        acc += overall(matrices)
    return w_acc / len(epochs), acc / len(epochs)
