"""One cell of work: fit a model (under a mitigation; erm is the plain fit) on a benchmark with
one seed, predict, score.

``evaluate_benchmark`` and the grid engine both use these functions, so a grid cell and a
single evaluation give the same numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import LABEL, ROW_ID
from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.metrics import (
    INVALID,
    METRICS,
    expected_calibration_error,
    mcnemar_exact,
    per_label_accuracy,
    split_metric_names,
)
from shortcutlab.mitigations import Mitigation, MitigationContext, Predictor, make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from shortcutlab.mitigations.groups import AUTO
from shortcutlab.models.base import check_input_kind

EVAL_SPLITS = ("test", "anti_test", "original_test")
ERM = "erm"


@dataclass
class Fitted:
    """Probabilities per evaluated split (float32, rows in split order), timings, and what models
    that answer in text report: per-split details (invalid answers, confidences) and LLM usage."""

    probabilities: dict[str, np.ndarray]
    fit_seconds: float
    predict_seconds: float
    details: dict[str, dict[str, Any]] = field(default_factory=dict)
    usage: dict[str, int] | None = None
    epochs: dict[int, dict[str, np.ndarray]] = field(
        default_factory=dict
    )  # epoch -> split -> proba
    groups_read: str = ""  # the column a mitigation read groups from ("" when none)


def predicted_labels(probabilities: np.ndarray) -> np.ndarray:
    """Argmax ranks; an all-zero row (a model's "no valid answer") becomes INVALID (-1).

    Examples:
        >>> predicted_labels(np.array([[0.2, 0.8], [0.0, 0.0]])).tolist()
        [1, -1]
    """
    probabilities = np.asarray(probabilities)
    labels = probabilities.argmax(axis=1)
    return np.where(probabilities.sum(axis=1) > 0, labels, INVALID)


def predicted_probability(probabilities: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    """The probability of each row's predicted rank; NaN where the rank is INVALID.

    Examples:
        >>> predicted_probability(np.array([[0.2, 0.8], [0.0, 0.0]]), np.array([1, -1])).tolist()
        [0.8, nan]
    """
    chosen = np.asarray(probabilities)[np.arange(len(predicted)), np.maximum(predicted, 0)]
    return np.where(predicted != INVALID, chosen, np.nan)


def eval_splits(benchmark: Benchmark) -> list[str]:
    splits = [s for s in EVAL_SPLITS if s in benchmark.splits]
    if "test" not in splits or "anti_test" not in splits:
        raise DataError(
            "The benchmark needs 'test' and 'anti_test' splits to measure a shortcut drop."
        )
    return splits


def fit_predict(
    benchmark: Benchmark,
    model: str,
    params: Mapping[str, Any] | None,
    seed: int,
    *,
    mitigation: Mitigation | None = None,
    group_source: str = AUTO,
    group_labels: str = "train",
) -> Fitted:
    """Fit ``model`` (under ``mitigation``; default erm) on the train split, its validation split
    passed along, and predict every evaluated split."""
    return fit_predict_frames(
        benchmark,
        "train",
        {split: benchmark[split] for split in eval_splits(benchmark)},
        model,
        params,
        seed,
        mitigation=mitigation,
        group_source=group_source,
        group_labels=group_labels,
    )


def fit_predict_frames(
    benchmark: Benchmark,
    train_split: str,
    tests: Mapping[str, pd.DataFrame],
    model: str,
    params: Mapping[str, Any] | None,
    seed: int,
    *,
    last_epochs: int | None = None,
    mitigation: Mitigation | None = None,
    group_source: str = AUTO,
    group_labels: str = "train",
) -> Fitted:
    """Fit ``model`` under ``mitigation`` (default erm: the backend's own fit) on ``train_split``
    of ``benchmark`` (its validation split passed along) and predict each table of ``tests``
    (label ranks in the benchmark's order) with the predictor the mitigation returns.

    ``group_source`` and ``group_labels`` say where a method that reads groups finds them
    (:func:`~shortcutlab.mitigations.context.mitigation_context`); ``Fitted.groups_read`` names
    the column it read. With ``last_epochs`` (plain erm only) the tests are predicted after each
    of the model's last ``last_epochs`` scheduled epochs instead of once after fitting
    (``Fitted.epochs``; ``probabilities`` empty).
    """
    mitigation = mitigation if mitigation is not None else make_mitigation(ERM)
    k = len(benchmark.labels)
    context = mitigation_context(
        benchmark,
        mitigation,
        model=model,
        params=params or {},
        seed=seed,
        train_split=train_split,
        group_source=group_source,
        group_labels=group_labels,
    )
    estimator = _checked_model(context, mitigation, last_epochs)
    details: dict[str, dict[str, Any]] = {}
    predictor: Predictor = estimator

    def predict_all() -> dict[str, np.ndarray]:
        return _predict_tables(predictor, tests, model, k, details)

    per_epoch: dict[int, dict[str, np.ndarray]] = {}
    try:
        started = time.perf_counter()
        if last_epochs is None:
            predictor = mitigation.fit(context)
        else:
            _fit_recording_epochs(
                estimator,
                context,
                k,
                last_epochs,
                lambda epoch: per_epoch.update({epoch: predict_all()}),
            )
        fitted_at = time.perf_counter()
        probabilities = predict_all() if last_epochs is None else {}
    finally:
        if predictor is not estimator or last_epochs is not None:  # the probe is closed already
            predictor.close()
    usage = dict(predictor.usage_) if getattr(predictor, "usage_", None) else None  # type: ignore[attr-defined]
    return Fitted(
        probabilities,
        fitted_at - started,
        time.perf_counter() - fitted_at,
        details,
        usage,
        epochs=per_epoch,
        groups_read=context.group_source,
    )


def _checked_model(
    context: MitigationContext, mitigation: Mitigation, last_epochs: int | None
) -> Any:
    """A new model of the cell, checked against the train inputs. Without ``last_epochs`` it is
    closed again (only the check used it; the method makes its own); with it, it is the model erm
    fits epoch by epoch, which only erm may do."""
    estimator = context.new_model()
    check_input_kind(estimator, context.train.inputs)
    if last_epochs is None:
        estimator.close()
    elif mitigation.name != ERM:
        raise ConfigError(
            f"average_last_epochs applies to the plain fit (erm), not to {mitigation.name}."
        )
    return estimator


def _predict_tables(
    predictor: Predictor,
    tests: Mapping[str, pd.DataFrame],
    model: str,
    k: int,
    details: dict[str, dict[str, Any]],
) -> dict[str, np.ndarray]:
    """float32 probabilities of each table of ``tests``; what the predictor reports per table
    (invalid answers, confidences) goes into ``details``."""
    found = {}
    for name, table in tests.items():
        proba = np.asarray(predictor.predict_proba(model_inputs(table)), dtype=np.float32)
        if proba.shape != (len(table), k):
            raise DataError(
                f"Model {model} returned probabilities of shape {proba.shape}; expected {(len(table), k)}."
            )
        found[name] = proba
        if getattr(predictor, "prediction_details_", None) is not None:
            details[name] = predictor.prediction_details_  # type: ignore[attr-defined]
    return found


def _fit_recording_epochs(
    estimator: Any,
    context: MitigationContext,
    k: int,
    last_epochs: int,
    record: Callable[[int], None],
) -> None:
    """erm's fit spelled out (per-epoch predictions need the backend itself): ``record(epoch)``
    runs after each of the model's last ``last_epochs`` scheduled epochs."""
    first = int(getattr(estimator, "epochs", last_epochs)) - last_epochs + 1
    estimator.on_epoch_end(lambda epoch: record(epoch) if epoch >= first else None)
    estimator.fit(
        context.train.inputs,
        context.train.labels,
        n_classes=k,
        validation=context.validation_pair(),
    )


def paired_indices(test_ids: np.ndarray, anti_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the rows shared by test and anti-test, aligned by row id."""
    if len(test_ids) == len(anti_ids) and np.array_equal(test_ids, anti_ids):
        return np.arange(len(test_ids)), np.arange(len(anti_ids))
    _, test_index, anti_index = np.intersect1d(test_ids, anti_ids, return_indices=True)
    if len(test_index) == 0:
        raise DataError(
            "The test and anti-test splits share no row_id, so the drop cannot be paired."
        )
    return test_index, anti_index


def score(
    truths: Mapping[str, np.ndarray],
    predictions: Mapping[str, np.ndarray],
    label_values: Sequence[Any],
    pairing: tuple[np.ndarray, np.ndarray],
    details: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Metrics of one seed: per split, Δ = test − anti-test of every per-split metric, exact
    McNemar on the paired rows."""
    k = len(label_values)
    splits = {
        s: split_metrics(truths[s], predictions[s], label_values, k, (details or {}).get(s))
        for s in predictions
    }
    test_index, anti_index = pairing
    return {
        "splits": splits,
        "delta": {m: splits["test"][m] - splits["anti_test"][m] for m in split_metric_names()},
        "mcnemar": mcnemar_exact(
            correct_a=predictions["test"][test_index] == truths["test"][test_index],
            correct_b=predictions["anti_test"][anti_index] == truths["anti_test"][anti_index],
        ),
    }


def split_metrics(
    truth: np.ndarray,
    predicted: np.ndarray,
    label_values: Sequence[Any],
    k: int,
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The scores of one split: every per-split metric of the registry, per-label accuracy, the
    predicted label distribution and, for models that state one, their confidence."""
    per_label = per_label_accuracy(y_true=truth, y_pred=predicted, n_classes=k)
    counts = np.bincount(np.where(predicted < 0, k, predicted), minlength=k + 1)
    metrics: dict[str, Any] = {
        "rows": len(truth),
        **{
            name: METRICS.get(name).score(y_true=truth, y_pred=predicted, n_classes=k)
            for name in split_metric_names()
        },
        "per_label_accuracy": {
            str(v): (None if np.isnan(a) else float(a))
            for v, a in zip(label_values, per_label, strict=True)
        },
        # The Shortcut Suite's label-distribution figure; "invalid" counts unparseable answers.
        "label_distribution": {
            **{str(v): int(c) for v, c in zip(label_values, counts[:k], strict=True)},
            "invalid": int(counts[k]),
        },
        "invalid": int(counts[k]),
    }
    confidence = None if details is None else details.get("confidence")
    if confidence is not None and np.any(~np.isnan(np.asarray(confidence, dtype=np.float64))):
        confidence = np.asarray(confidence, dtype=np.float64)
        known = ~np.isnan(confidence)
        correct = predicted == truth
        metrics["confidence"] = {
            "rows": int(known.sum()),
            "mean": float(confidence[known].mean()),
            "accuracy": float(correct[known].mean()),
            "ece": expected_calibration_error(confidence=confidence, correct=correct),
        }
    return metrics


def truths_and_pairing(
    benchmark: Benchmark,
) -> tuple[dict[str, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    truths = {
        s: benchmark.labels.ranks(benchmark[s][LABEL], where=f"The {s} split")
        for s in eval_splits(benchmark)
    }
    pairing = paired_indices(
        benchmark["test"][ROW_ID].to_numpy(), benchmark["anti_test"][ROW_ID].to_numpy()
    )
    return truths, pairing
