"""Run a robustness grid through the engine: one build per (dataset, seed), written once under the
run folder; one task per build and model, which fits the model once and records one cell per
perturbation class (so a killed run resumes at the builds and models it had not finished)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.options import InputOptions
from shortcutlab.engine import run_folder
from shortcutlab.engine.cell import fit_predict_frames
from shortcutlab.engine.spec_entries import DatasetSpec, ModelSpec
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.worker import CellOutcome, TaskOutcome, failed_outcome
from shortcutlab.families.robustness.build import ORIGINAL, TRAIN, build_robustness_benchmark
from shortcutlab.families.robustness.evaluate import measure_class
from shortcutlab.families.robustness.spec import RobustnessSpec
from shortcutlab.provenance import environment

#: Flipped rows a cell keeps for the report's explorer (the rest are counted, not stored).
FLIPPED_KEPT = 200


@dataclass(frozen=True)
class RobustnessBuild:
    """One class of one build: ``id`` names the build (dataset, seed), ``label`` the class."""

    id: str
    dataset: DatasetSpec
    seed: int
    label: str


@dataclass(frozen=True)
class RobustnessCell:
    id: str
    benchmark: RobustnessBuild
    model: ModelSpec
    seed: int
    config: dict[str, Any] = field(hash=False, compare=False)

    @property
    def fit_seed(self) -> int:
        return self.seed


def robustness_cells(spec: RobustnessSpec) -> list[RobustnessCell]:
    cells = []
    for dataset in spec.datasets:
        for seed in spec.seeds:
            for model in spec.models:
                for name, params in spec.perturbations.items():
                    config = {
                        "dataset": dataset.resolved(),
                        "model": model.resolved(),
                        "perturbation": {"name": name, "params": params},
                        "seed": seed,
                        "bootstrap": spec.bootstrap,
                    }
                    build = RobustnessBuild(f"{dataset.name}-seed{seed}", dataset, seed, name)
                    cells.append(RobustnessCell(canonical_hash(config), build, model, seed, config))
    return cells


def plan_robustness_run(spec: RobustnessSpec, out: Path) -> list[run_folder.PlannedCell]:
    finished = run_folder.finished_cells(out)
    return [run_folder.PlannedCell(c, c.id in finished) for c in robustness_cells(spec)]


@dataclass
class RobustnessTask:
    """One build and model: fit once on the build's train split, then measure each class."""

    benchmark_id: str
    benchmark_dir: str
    model_name: str
    model_params: dict[str, Any]
    fit_seed: int
    bootstrap: int
    cells: list[tuple[str, int]]
    classes: list[str]
    cpus: float = 1.0
    gpus: float = 0.0
    shared_fit: bool = True

    def benchmark_dirs(self) -> dict[str, str]:
        return {self.benchmark_id: self.benchmark_dir}

    def run(self, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
        started = time.perf_counter()
        try:
            bench = benchmarks[self.benchmark_id]
            tests = {ORIGINAL: bench[ORIGINAL], **{name: bench[name] for name in self.classes}}
            fitted = fit_predict_frames(
                bench, TRAIN, tests, self.model_name, self.model_params, self.fit_seed
            )
            measured = [
                measure_class(
                    bench, name, fitted.probabilities, bootstrap=self.bootstrap, seed=self.fit_seed
                )
                for name in self.classes
            ]
        except Exception as exc:  # noqa: BLE001 - recorded as a failed cell
            return failed_outcome(self, exc, started)
        elapsed = time.perf_counter() - started
        outcomes = []
        for (cell_id, seed), name, (figures, flips) in zip(
            self.cells, self.classes, measured, strict=True
        ):
            kept = (
                flips.head(FLIPPED_KEPT)
                .astype(object)
                .where(flips.head(FLIPPED_KEPT).notna(), None)
            )
            metrics = figures | {"flipped": kept.to_dict(orient="records")}
            probabilities = {
                ORIGINAL: fitted.probabilities[ORIGINAL],
                name: fitted.probabilities[name],
            }
            outcomes.append(
                CellOutcome(
                    cell_id=cell_id,
                    seed=seed,
                    status="done",
                    metrics=_plain(metrics),
                    probabilities={k: np.asarray(v, np.float32) for k, v in probabilities.items()},
                    fit_seconds=fitted.fit_seconds,
                    predict_seconds=fitted.predict_seconds,
                    total_seconds=elapsed,
                    shared_fit=True,
                )
            )
        return TaskOutcome(task=self, cells=outcomes, versions=environment())


def _plain(value: Any) -> Any:
    """numpy scalars as Python ones, so the store's JSON holds them."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value.item() if hasattr(value, "item") and not isinstance(value, str) else value


def run_robustness_experiment(
    spec: RobustnessSpec, out: Path, **options: Any
) -> run_folder.RunReport:
    cells = robustness_cells(spec)

    def prepare(store: ResultStore, pending_ids: set[str]) -> run_folder.PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        root = run_folder.benchmarks_root(out)
        for build in {c.benchmark.id: c.benchmark for c in pending}.values():
            if not (root / build.id / MANIFEST).exists():
                train, test = run_folder.dataset_tables(build.dataset)
                build_robustness_benchmark(
                    test,
                    train=train,
                    perturbations=spec.perturbations,
                    labels=build.dataset.labels,
                    seed=build.seed,
                    inputs=InputOptions(out=root / build.id, overwrite=True),
                )
        groups: dict[tuple[str, str], list[RobustnessCell]] = {}
        for cell in pending:
            groups.setdefault((cell.benchmark.id, cell.model.id), []).append(cell)
        tasks = [
            RobustnessTask(
                benchmark_id=group[0].benchmark.id,
                benchmark_dir=str(root / group[0].benchmark.id),
                model_name=group[0].model.name,
                model_params=group[0].model.constructor_params(),
                fit_seed=group[0].seed,
                bootstrap=spec.bootstrap,
                cells=[(c.id, c.seed) for c in group],
                classes=[c.benchmark.label for c in group],
                cpus=group[0].model.cpus,
            )
            for group in groups.values()
        ]
        return run_folder.pending_work(
            pending,
            tasks,
            lambda cell: 0.0,
            lambda c: f"{c.benchmark.id} {c.model.id} {c.benchmark.label}",
        )

    return run_folder.drive_run(spec, out, [c.id for c in cells], prepare, **options)
