"""A 1,000-cell Shortcut Maze run folder, written in a minute or two, for the report benchmarks.

The grid: the embedded review corpus, 5 shortcut types x 4 λ x 5 models x 10 seeds = 1,000 cells
on 20 real benchmark builds. Everything except the fits is the engine's own: the spec and its cell
ids (plan_grid), the run folder and its store (drive_run: meta, rows, one transaction per
outcome), the benchmark folders with their texts and cue spans (the runner's builds), and the
metrics (cell.score on the predictions). Only the fit is replaced by a synthetic classifier,
so the page has something to show at scale without 1,000 real fits: each model gets a test
accuracy and a drop that grows with λ, a row is right on the anti-test when it is right on the
test and its draw is under the anti-test accuracy (so changed pairs mostly "break"), and a wrong
answer picks another label at random. The predictions and metrics are a pure function of the
cell ids (same arguments -> same numbers); the store's timings (the synthetic draw as the fit)
and timestamps are real.

Models: tfidf-logreg and tfidf-svm do not depend on their seed, so as in a real run their ten
seeds share one fit (one set of predictions); the three bow-mlp configurations do, so each of
their cells has its own predictions.

    python bench/synthetic_store.py [--out bench/out/synthetic-1000] [--train-size 2000]
        [--test-size 1000]

(bench/report_speed.py makes it there itself when it is asked for synthetic-1000.)
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import ROW_ID
from shortcutlab.engine.cell import predicted_labels, score, truths_and_pairing
from shortcutlab.engine.run_folder import PendingWork, dataset_tables, drive_run, pending_work
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.worker import TaskOutcome, done_outcome
from shortcutlab.errors import OutputExistsError
from shortcutlab.families import parse_spec
from shortcutlab.families.maze.grid import CellPlan, plan_grid

# The runner's own build-and-rows step (private): the folders and rows are exactly a run's.
from shortcutlab.families.maze.runner import _build_needed, describe, make_tasks
from shortcutlab.families.maze.spec import ExperimentSpec
from shortcutlab.families.maze.stored_statistics import with_group_statistics
from shortcutlab.families.maze.task import Task

SHORTCUTS = ["single-term", "synonym", "category", "concept-occurrence", "concept-correlation"]
STRENGTHS = [1.0, 0.8, 0.6, 0.4]
MODELS: list[dict[str, Any]] = [
    {"name": "tfidf-logreg"},
    {"name": "tfidf-svm"},
    {"name": "bow-mlp", "id": "bow-mlp-32", "hidden_dim": 32},
    {"name": "bow-mlp", "id": "bow-mlp-64", "hidden_dim": 64},
    {"name": "bow-mlp", "id": "bow-mlp-128", "hidden_dim": 128},
]
SEEDS = list(range(10))


def grid_spec(train_size: int, test_size: int) -> ExperimentSpec:
    raw = {
        "name": "synthetic-1000",
        "data": {"builtin": "reviews", "train_size": train_size, "test_size": test_size},
        "shortcuts": SHORTCUTS,
        "strengths": STRENGTHS,
        "models": MODELS,
        "seeds": SEEDS,
    }
    spec = parse_spec(raw, source="synthetic store")
    assert isinstance(spec, ExperimentSpec)
    return spec


def unit(*parts: object) -> float:
    """A deterministic number in [0, 1) from ``parts`` (no process-salted hash())."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@dataclass
class SyntheticTask(Task):
    """A Maze task whose fit is a synthetic classifier (see the module docstring)."""

    test_accuracy: float = 0.8
    anti_accuracy: float = 0.6

    def run(self, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
        started = time.perf_counter()
        bench = benchmarks[self.benchmark_id]
        truths, pairing = truths_and_pairing(bench)
        rng = np.random.default_rng(int(self.cells[0][0][:16], 16))
        every_id = np.unique(np.concatenate([bench[s][ROW_ID].to_numpy() for s in truths]))
        draws = rng.random(len(every_id))  # one draw per row id: a pair shares it
        accuracies = {
            "test": self.test_accuracy,
            "anti_test": self.anti_accuracy,
            "original_test": (self.test_accuracy + self.anti_accuracy) / 2,
        }
        k = len(bench.labels)
        probabilities = {}
        for split, truth in truths.items():
            draw = draws[np.searchsorted(every_id, bench[split][ROW_ID].to_numpy())]
            wrong = rng.integers(1, k, size=len(truth))  # an offset to another label
            predicted = np.where(draw < accuracies[split], truth, (truth + wrong) % k)
            confidence = 0.5 + 0.5 * rng.beta(4, 2, size=len(truth))
            proba = np.repeat(((1 - confidence) / (k - 1))[:, None], k, axis=1)
            proba[np.arange(len(truth)), predicted] = confidence
            probabilities[split] = proba.astype(np.float32)
        drawn_at = time.perf_counter()
        predictions = {s: predicted_labels(p) for s, p in probabilities.items()}
        metrics = score(truths, predictions, bench.labels.values, pairing)
        # The store's fit time is the draw's, its predict time the scoring's: what really ran.
        scored = time.perf_counter() - drawn_at
        return done_outcome(self, metrics, probabilities, drawn_at - started, scored, started)


def synthetic(task: Task, cell: CellPlan) -> SyntheticTask:
    """``task`` with accuracies of its model: a skill per model, a drop growing with λ."""
    model = cell.model.id
    test_accuracy = 0.70 + 0.2 * unit("skill", model)
    reliance = 0.15 + 0.45 * unit("reliance", model, cell.benchmark.label)
    anti_accuracy = test_accuracy - reliance * cell.benchmark.strength
    return SyntheticTask(
        **{f.name: getattr(task, f.name) for f in fields(Task)},
        test_accuracy=test_accuracy,
        anti_accuracy=anti_accuracy,
    )


def write_synthetic_run(out: Path, *, train_size: int = 2000, test_size: int = 1000) -> Path:
    """Write the 1,000-cell run folder ``out`` (which must not exist yet)."""
    if out.exists():
        raise OutputExistsError(f"'{out}' exists; pass a new --out (the store is written once).")
    spec = grid_spec(train_size, test_size)
    tables = {d.name: dataset_tables(d) for d in spec.datasets}
    benchmarks, cells = plan_grid(spec)
    by_id = {c.id: c for c in cells}

    def prepare(store: ResultStore, pending_ids: set[str]) -> PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        dirs = _build_needed(spec, benchmarks, pending, tables, out, store)
        tasks = [synthetic(t, by_id[t.cells[0][0]]) for t in make_tasks(pending, dirs)]
        work = pending_work(pending, tasks, lambda c: c.benchmark.strength, describe)
        return with_group_statistics(work, cells)  # as the runner: statistics stored per group

    report = drive_run(spec, out, [c.id for c in cells], prepare, jobs=1)
    if report.failed:
        raise RuntimeError(f"{report.failed} synthetic cells failed: {report.errors[:1]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent / "out" / "synthetic-1000"
    )
    parser.add_argument("--train-size", type=int, default=2000)
    parser.add_argument("--test-size", type=int, default=1000)
    args = parser.parse_args()
    started = time.perf_counter()
    write_synthetic_run(args.out, train_size=args.train_size, test_size=args.test_size)
    with ResultStore.for_run(args.out) as store:
        cells = store.cells()
    size = (args.out / "results.sqlite").stat().st_size
    print(
        f"{args.out}: {len(cells)} cells, {cells['benchmark_id'].nunique()} benchmarks, "
        f"store {size / 1e6:.1f} MB, written in {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
