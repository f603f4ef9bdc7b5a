"""A Maze task in a worker: one fit on one benchmark (under the cell's mitigation), scored for
each of its cells; and which stored predictions of a Maze cell the annotation app shows."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.engine.cell import fit_predict, predicted_labels, score, truths_and_pairing
from shortcutlab.engine.worker import (
    TaskOutcome,
    done_outcome,
    failed_outcome,
    groups_record,
    load_benchmark,
    mitigation_keywords,
    pin_threads,
)
from shortcutlab.mitigations import Mitigation
from shortcutlab.mitigations.groups import AUTO

#: The split whose stored predictions a person compares with their own labels.
OWN_TEST = "test"


@dataclass
class Task:
    """A Maze task: one fit on one benchmark, scored for each of its cells."""

    benchmark_id: str
    benchmark_dir: str
    model_name: str
    model_params: dict[str, Any]
    cells: list[tuple[str, int]]  # (cell id, fit seed); several only when the seeds share one fit
    cpus: float = 1.0
    gpus: float = 0.0
    shared_fit: bool = False  # the fit cannot depend on its seed: one fit serves every seed
    # The method itself travels (pickled), so a worker needs no registry entry for it.
    mitigation: Mitigation | None = None
    groups: str = AUTO
    group_labels: str = "train"

    def benchmark_dirs(self) -> dict[str, str]:
        return {self.benchmark_id: self.benchmark_dir}

    def run(self, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
        return execute(self, benchmarks[self.benchmark_id])


def execute(task: Task, benchmark: Benchmark | None = None) -> TaskOutcome:
    """Run one task; errors become failed cell outcomes instead of exceptions."""
    started = time.perf_counter()
    pin_threads(task.cpus)
    try:
        bench = benchmark if benchmark is not None else load_benchmark(task.benchmark_dir)
        truths, pairing = truths_and_pairing(bench)
        fitted = fit_predict(
            bench,
            task.model_name,
            task.model_params,
            task.cells[0][1],
            **mitigation_keywords(task),
        )
        predictions = {
            split: predicted_labels(proba) for split, proba in fitted.probabilities.items()
        }
        metrics = score(truths, predictions, bench.labels.values, pairing, fitted.details)
        if fitted.usage:
            metrics["usage"] = fitted.usage
        metrics |= groups_record(fitted, task.mitigation, task.group_labels)
    except Exception as exc:  # noqa: BLE001 - a failed cell is recorded, the grid goes on
        return failed_outcome(task, exc, started)
    return done_outcome(
        task, metrics, fitted.probabilities, fitted.fit_seconds, fitted.predict_seconds, started
    )


def prediction_splits(cell: Any) -> dict[str, list[str]]:
    """A Maze cell's one fit on the test split, named by model (and mitigation)."""
    name = cell.model if cell.mitigation == "erm" else f"{cell.model} + {cell.mitigation}"
    return {name: [OWN_TEST]}
