"""One MPS task in a worker: fit the model (under the cell's mitigation, erm by default: a method
replaces the backbone's training in both fits) on the Imbalanced and on the Balanced split of a build,
predict its test set (and the other attributes' test sets: cross-testing, paper 002 A.7), score.

Stored predictions are named ``{fit}/{test}``: ``imbalanced/test``, ``balanced/test``,
``imbalanced/test@question`` (the test set of the ``question`` build); with
``average_last_epochs`` one per epoch, ``imbalanced/test/epoch-8``, and no final one.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import LABEL
from shortcutlab.data.pairs import model_inputs
from shortcutlab.engine.cell import fit_predict_frames, predicted_labels
from shortcutlab.engine.worker import (
    TaskOutcome,
    done_outcome,
    failed_outcome,
    groups_record,
    mitigation_keywords,
    pin_threads,
)
from shortcutlab.errors import DataError, listed
from shortcutlab.metrics import group_accuracies, mps_gaps, per_label_accuracy
from shortcutlab.mitigations import Mitigation
from shortcutlab.mitigations.groups import AUTO

FITS = ("imbalanced", "balanced")
OWN_TEST = "test"
GROUP = "group"


def cross_test_name(attribute: str) -> str:
    """The name of another attribute's test set in stored predictions and metrics."""
    return f"{OWN_TEST}@{attribute}"


def prediction_name(fit: str, test: str, epoch: int | None = None) -> str:
    """``imbalanced/test@question`` (``/epoch-8`` for one epoch's predictions)."""
    return f"{fit}/{test}" + (f"/epoch-{epoch}" if epoch is not None else "")


@dataclass
class MpsTask:
    """The two fits of one (build, model, seed), scored for each of its cells."""

    benchmark_id: str
    benchmark_dir: str
    cross_tests: dict[str, tuple[str, str]]  # attribute label -> (build id, folder)
    model_name: str
    model_params: dict[str, Any]
    cells: list[tuple[str, int]]  # (cell id, fit seed); several only when the seeds share a fit
    average_last_epochs: int | None = None
    cpus: float = 1.0
    gpus: float = 0.0
    shared_fit: bool = False
    mitigation: Mitigation | None = None  # both fits are trained under it (None: erm)
    groups: str = AUTO
    group_labels: str = "train"

    def benchmark_dirs(self) -> dict[str, str]:
        return {
            self.benchmark_id: self.benchmark_dir,
            **{build: folder for build, folder in self.cross_tests.values()},
        }

    def run(self, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
        return execute_mps(self, benchmarks)


def execute_mps(task: MpsTask, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
    """Run one MPS task; errors become failed cell outcomes instead of exceptions."""
    started = time.perf_counter()
    pin_threads(task.cpus)
    try:
        own = benchmarks[task.benchmark_id]
        tests = {OWN_TEST: own[OWN_TEST]} | {
            cross_test_name(label): cross_test_table(own, benchmarks[build], label)
            for label, (build, _) in task.cross_tests.items()
        }
        probabilities: dict[str, np.ndarray] = {}
        predictions: dict[str, dict[str, np.ndarray]] = {}
        epochs: dict[str, list[int]] = {}
        fit_seconds = predict_seconds = 0.0
        for fit in FITS:
            fitted = fit_predict_frames(
                own,
                fit,
                tests,
                task.model_name,
                task.model_params,
                task.cells[0][1],
                last_epochs=task.average_last_epochs,
                **mitigation_keywords(task),
            )
            fit_seconds += fitted.fit_seconds
            predict_seconds += fitted.predict_seconds
            if task.average_last_epochs is None:
                probabilities |= {
                    prediction_name(fit, t, None): p for t, p in fitted.probabilities.items()
                }
                predictions[fit] = {t: predicted_labels(p) for t, p in fitted.probabilities.items()}
                continue
            epochs[fit] = sorted(fitted.epochs)
            if not epochs[fit]:
                raise DataError(
                    f"The {fit} fit of {task.model_name} stopped before its last "
                    f"{task.average_last_epochs} epochs, so there is nothing to average. Lower "
                    "average_last_epochs or the model's early stopping (patience)."
                )
            for epoch in epochs[fit]:
                probabilities |= {
                    prediction_name(fit, t, epoch): p for t, p in fitted.epochs[epoch].items()
                }
            predictions[fit] = {
                t: np.stack([predicted_labels(fitted.epochs[e][t]) for e in epochs[fit]])
                for t in tests
            }
        truths = {
            name: own.labels.ranks(table[LABEL], where=f"The {name} split")
            for name, table in tests.items()
        }
        groups = {name: _groups(table, name) for name, table in tests.items()}
        metrics = score_mps(truths, groups, predictions, own.labels.values)
        if epochs:
            metrics["epochs"] = epochs
        metrics |= groups_record(fitted, task.mitigation, task.group_labels)
    except Exception as exc:  # noqa: BLE001 - a failed cell is recorded, the grid goes on
        return failed_outcome(task, exc, started)
    return done_outcome(task, metrics, probabilities, fit_seconds, predict_seconds, started)


def score_mps(
    truths: Mapping[str, np.ndarray],
    groups: Mapping[str, np.ndarray],
    predictions: Mapping[str, Mapping[str, np.ndarray]],
    label_values: Sequence[Any],
) -> dict[str, Any]:
    """Per test set: ACC, W-ACC, worst label, δ, Δ, ζ (``mps_gaps``), and per fit the accuracy
    within each label and within each (label, value) group with its size. Predictions are
    (rows,) or (epochs, rows); with epochs every accuracy is the mean over the epochs."""
    k = len(label_values)
    names = [str(v) for v in label_values]
    scored: dict[str, Any] = {}
    for test, truth in truths.items():
        gaps = mps_gaps(
            y_true=truth,
            pred_imbalanced=predictions["imbalanced"][test],
            pred_balanced=predictions["balanced"][test],
            n_classes=k,
        )
        entry: dict[str, Any] = {"rows": len(truth), **gaps}
        for fit in FITS:
            epochs = np.atleast_2d(predictions[fit][test])
            worst = gaps[f"worst_label_{fit}"]  # -1: no test row (an empty cross-test)
            entry[f"worst_label_{fit}"] = names[worst] if worst >= 0 else None
            per_label = np.mean(
                [per_label_accuracy(y_true=truth, y_pred=e, n_classes=k) for e in epochs], axis=0
            )
            entry[f"per_label_accuracy_{fit}"] = {
                name: None if np.isnan(a) else float(a)
                for name, a in zip(names, per_label, strict=True)
            }
            by_epoch = [
                group_accuracies(y_true=truth, y_pred=e, groups=groups[test])["groups"]
                for e in epochs
            ]
            entry[f"groups_{fit}"] = {
                group: {
                    "accuracy": float(np.mean([found[group]["accuracy"] for found in by_epoch])),
                    "rows": size["rows"],
                }
                for group, size in by_epoch[0].items()
            }
        scored[test] = entry
    return {"tests": scored}


def cross_test_table(own: Benchmark, other: Benchmark, attribute: str) -> pd.DataFrame:
    """The rows of ``other``'s test set whose text is in none of ``own``'s training splits.

    Builds draw their test sets independently from one pool, so another attribute's test set can
    hold rows this build trained on; scoring those would flatter both fits. Model inputs (texts,
    or text pairs) are compared, not row ids: a separate test file numbers its rows from 0 like
    the pool.
    """
    if list(other.labels.values) != list(own.labels.values):
        raise DataError(
            f"The {attribute} build has labels {listed(other.labels.values)} but this build has "
            f"{listed(own.labels.values)}, so its test set cannot be cross-tested. Give the "
            "dataset's 'labels' in the spec so every build uses one order."
        )
    seen = set().union(*(set(model_inputs(own[s])) for s in own.splits if s != OWN_TEST))
    test = other[OWN_TEST]
    unseen = np.array([item not in seen for item in model_inputs(test)], dtype=bool)
    return test[unseen].reset_index(drop=True)


def _groups(table: Any, name: str) -> np.ndarray:
    if GROUP not in table:
        raise DataError(
            f"The {name} split has no '{GROUP}' column (label|value); rebuild the MPS benchmark."
        )
    return table[GROUP].astype(str).to_numpy()


def prediction_splits(cell: Any) -> dict[str, list[str]]:
    """An MPS cell's two fits on its own test split, each with one split per epoch kept."""
    base = cell.model if cell.mitigation == "erm" else f"{cell.model} + {cell.mitigation}"
    epochs = (cell.metrics or {}).get("epochs")
    return {
        f"{base} ({fit.capitalize()})": [
            prediction_name(fit, OWN_TEST, e) for e in (epochs[fit] if epochs else [None])
        ]
        for fit in FITS
    }
