"""What runs inside an executor's worker: fit and score the cells of one task.

A task is one fit, shared by several seeds when the model cannot depend on its seed. Workers
never touch the result store; they return outcomes to the coordinating process, which records
them. Threads are pinned to the task's CPU request, so every executor computes the same numbers.

Executors see any task through :class:`GridTask` (the benchmarks it reads, its resources, and
``run``), so every grid family's tasks share them; each family defines its own task.
"""

from __future__ import annotations

import functools
import os
import sys
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.engine.cell import (
    Fitted,
)
from shortcutlab.errors import ShortcutlabError
from shortcutlab.mitigations import Mitigation
from shortcutlab.mitigations.registry import GROUPS_TRAIN
from shortcutlab.provenance import environment
from shortcutlab.registry import UserEntry, add_user_entries


class GridTask(Protocol):
    """What executors need of a task: its resource request, the benchmarks it reads, and ``run``."""

    cpus: float
    gpus: float
    cells: list[tuple[str, int]]  # (cell id, fit seed): every cell the task's fit(s) serve
    shared_fit: bool

    def benchmark_dirs(self) -> dict[str, str]:
        """Benchmark id -> folder, for every benchmark the task reads."""
        ...

    def run(self, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
        """Fit and score, with ``benchmarks`` keyed like :meth:`benchmark_dirs`."""
        ...


@dataclass
class CellOutcome:
    cell_id: str
    seed: int
    status: str
    metrics: dict[str, Any] | None = None
    probabilities: dict[str, np.ndarray] | None = None
    error: str | None = None
    fit_seconds: float | None = None
    predict_seconds: float | None = None
    total_seconds: float | None = None
    shared_fit: bool = False


@dataclass
class TaskOutcome:
    task: GridTask
    cells: list[CellOutcome]
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return any(c.status == "failed" for c in self.cells)


@functools.lru_cache(maxsize=8)
def load_benchmark(benchmark_dir: str) -> Benchmark:
    """Workers reuse a benchmark across the tasks they run (a per-process cache)."""
    return Benchmark.load(benchmark_dir)


def run_task(task: GridTask, *benchmarks: Benchmark) -> TaskOutcome:
    """Run ``task`` in a worker. ``benchmarks`` (in ``task.benchmark_dirs()`` order) come from
    Ray's object store; without them each is read from its folder."""
    dirs = task.benchmark_dirs()
    if benchmarks:
        return task.run(dict(zip(dirs, benchmarks, strict=True)))
    return task.run({key: load_benchmark(folder) for key, folder in dirs.items()})


def run_task_adding(
    entries: list[UserEntry], task: GridTask, *benchmarks: Benchmark
) -> TaskOutcome:
    """:func:`run_task` in a worker that first adds the coordinator's user registry ``entries``
    (a Ray worker: it may serve several runs, so each task brings its own)."""
    add_user_entries(entries)
    return run_task(task, *benchmarks)


def done_outcome(
    task: GridTask,
    metrics: dict[str, Any],
    probabilities: dict[str, np.ndarray],
    fit_seconds: float,
    predict_seconds: float,
    started: float,
) -> TaskOutcome:
    """Every cell of ``task`` done with the same scores and predictions (they share the fit)."""
    elapsed = time.perf_counter() - started
    cells = [
        CellOutcome(
            cell_id=cell_id,
            seed=seed,
            status="done",
            metrics=metrics,
            probabilities=probabilities,
            fit_seconds=fit_seconds,
            predict_seconds=predict_seconds,
            total_seconds=elapsed,
            shared_fit=task.shared_fit,
        )
        for cell_id, seed in task.cells
    ]
    return TaskOutcome(task=task, cells=cells, versions=environment())


def failed_outcome(task: GridTask, exc: Exception, started: float) -> TaskOutcome:
    """Every cell of ``task`` failed with ``exc`` (a user error's message, else the traceback)."""
    message = (
        str(exc)
        if isinstance(exc, ShortcutlabError)
        else f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}"
    )
    failed = [
        CellOutcome(
            cell_id=c,
            seed=s,
            status="failed",
            error=message,
            total_seconds=time.perf_counter() - started,
        )
        for c, s in task.cells
    ]
    return TaskOutcome(task=task, cells=failed, versions=environment())


def mitigation_keywords(task: Any) -> dict[str, Any]:
    """A task's method and group settings as keywords of :func:`fit_predict_frames`."""
    return {
        "mitigation": task.mitigation,
        "group_source": task.groups,
        "group_labels": task.group_labels,
    }


def groups_record(
    fitted: Fitted, mitigation: Mitigation | None, group_labels: str
) -> dict[str, Any]:
    """What a cell's metrics record of the groups its method read: the column, the spec's
    ``group_labels`` and the rows read (nothing when it read none)."""
    if not fitted.groups_read or mitigation is None:
        return {}
    rows = "train" if mitigation.capabilities()["groups"] == GROUPS_TRAIN else "validation"
    return {"groups": {"source": fitted.groups_read, "labels": group_labels, "rows": rows}}


def pin_threads(cpus: float) -> None:
    """Use exactly ``cpus`` threads for BLAS and torch, whatever the executor."""
    from threadpoolctl import threadpool_limits

    threads = max(1, int(cpus))
    threadpool_limits(limits=threads)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)
    else:
        # Importing torch to pin it cost every TF-IDF cell's process 4 s; torch reads this when a
        # torch model imports it later in this process.
        os.environ["OMP_NUM_THREADS"] = str(threads)
