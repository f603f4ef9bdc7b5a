"""``shortcutlab run``: expand a spec, build each benchmark once, execute the cells, store results.

Re-running the same command resumes: finished cells are skipped, the rest are redone. Each
outcome is committed as soon as it arrives, so stopping at any moment loses at most the cells in
flight.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, LoadedTable
from shortcutlab.experiments.cat_runner import plan_cat_run, run_cat_experiment
from shortcutlab.experiments.cat_spec import CatSpec
from shortcutlab.experiments.grid import BenchmarkPlan, CellPlan, plan_grid
from shortcutlab.experiments.mitigation_spec import check_paired_data
from shortcutlab.experiments.mps_runner import plan_mps_run, run_mps_experiment
from shortcutlab.experiments.mps_spec import MpsSpec
from shortcutlab.experiments.run_folder import (
    PendingWork,
    PlannedCell,
    Progress,
    RunReport,
    benchmarks_root,
    check_model_configs,
    check_run_dir,
    dataset_tables,
    drive_run,
    finished_cells,
    fit_groups,
    fit_key,
    has_text_pair,
    mitigation_fields,
    mitigation_suffix,
    pending_work,
)
from shortcutlab.experiments.spec import DatasetSpec, ExperimentSpec, load_spec
from shortcutlab.experiments.store import DATABASE, ResultStore
from shortcutlab.experiments.worker import Task
from shortcutlab.splits.benchmark import MANIFEST, Benchmark
from shortcutlab.splits.distractors import distractor_from_files
from shortcutlab.splits.maze import build_maze_benchmark

__all__ = ["RunReport", "estimate_seconds", "plan_run", "run_experiment"]


def _distractors(dataset: DatasetSpec) -> dict[str, Any] | None:
    if not dataset.distractors:
        return None
    return {
        name: distractor_from_files(
            name,
            dataset.resolve(paths["train"]),
            dataset.resolve(paths["test"]) if "test" in paths else None,
            text_col=dataset.text,
            label_col=dataset.label,
            encoding=dataset.encoding,
        )
        for name, paths in dataset.distractors.items()
    }


def check_models(spec: ExperimentSpec, tables: dict[str, tuple[LoadedTable, LoadedTable]]) -> None:
    """Every model config is instantiated and checked against every dataset's label count, and
    every mitigation against its input kind."""
    for dataset in spec.datasets:
        train = tables[dataset.name][0]
        labels = LabelSpace.infer(
            train.frame[LABEL].tolist(), given=dataset.labels, source=f"dataset '{dataset.name}'"
        )
        check_model_configs(spec.models, len(labels), paired=has_text_pair(train))
        check_paired_data(spec.mitigation, has_text_pair(train), dataset.name)


def build_benchmark(
    plan: BenchmarkPlan, spec: ExperimentSpec, tables: tuple[LoadedTable, LoadedTable], folder: Path
) -> Benchmark:
    """Build one benchmark into ``folder`` (atomically) unless a complete one is already there."""
    if (folder / MANIFEST).exists():
        return Benchmark.load(folder)
    benchmark = build_maze_benchmark(
        tables[0],
        tables[1],
        shortcut=plan.shortcut.name,
        shortcut_options=plan.shortcut.constructor_options(),
        strength=plan.strength,
        strength_mode=spec.strength_mode,
        test_strength=spec.test_strength,
        sampling=spec.sampling,
        seed=plan.build_seed,
        val_size=spec.val_size,
        labels=list(plan.dataset.labels) if plan.dataset.labels else None,
        distractors=_distractors(plan.dataset),
        text_col=plan.dataset.text,
        label_col=plan.dataset.label,
        text_pair_col=plan.dataset.text_pair,
    )
    benchmark.save(folder)
    return benchmark


def make_tasks(cells: list[CellPlan], benchmark_dirs: dict[str, Path]) -> list[Task]:
    """One task per fit: the seeds of a seed-independent fit share it."""
    return [
        Task(
            benchmark_id=group[0].benchmark.id,
            benchmark_dir=str(benchmark_dirs[group[0].benchmark.id]),
            model_name=group[0].model.name,
            model_params=group[0].model.constructor_params(),
            cells=[(c.id, c.fit_seed) for c in group],
            cpus=group[0].model.cpus,
            gpus=group[0].model.gpus,
            shared_fit=key[-1] is None,
            **mitigation_fields(group[0]),
        )
        for key, group in fit_groups(cells).items()
    ]


def plan_run(
    spec: ExperimentSpec | MpsSpec | str | Path, out: str | Path
) -> tuple[ExperimentSpec | MpsSpec, list[PlannedCell]]:
    """The cells of a run and whether each is already finished in ``out`` (for --dry-run)."""
    spec = spec if isinstance(spec, ExperimentSpec | MpsSpec | CatSpec) else load_spec(spec)
    if isinstance(spec, MpsSpec):
        return spec, plan_mps_run(spec, out)
    if isinstance(spec, CatSpec):
        return spec, plan_cat_run(spec, out)
    out = Path(out)
    check_run_dir(out)
    finished = finished_cells(out)
    _, cells = plan_grid(spec)
    return spec, [PlannedCell(c, c.id in finished) for c in cells]


def estimate_seconds(out: str | Path, planned: list[PlannedCell]) -> float | None:
    """Rough time left: the median fit time of finished cells of each (model, mitigation), times
    its pending fits."""
    if not (Path(out) / DATABASE).exists():
        return None
    with ResultStore(Path(out) / DATABASE) as store:
        frame = store.cells()
    if frame.empty:
        return None
    per_fit = frame.groupby(["model", "mitigation"])["total_seconds"].median().to_dict()
    fits = {fit_key(p.cell) for p in planned if not p.finished}
    if any((model, mitigation) not in per_fit for _, model, mitigation, _ in fits):
        return None
    return sum(per_fit[(model, mitigation)] for _, model, mitigation, _ in fits)


def run_experiment(
    spec: ExperimentSpec | MpsSpec | CatSpec | str | Path,
    out: str | Path,
    *,
    executor: str = "local",
    jobs: int | None = None,
    address: str | None = None,
    fail_fast: bool = False,
    force: bool = False,
    on_progress: Progress | None = None,
) -> RunReport:
    """Run (or resume) the grid of ``spec`` (a Maze, MPS or CAT grid) into the run folder ``out``."""
    started = time.perf_counter()
    spec = spec if isinstance(spec, ExperimentSpec | MpsSpec | CatSpec) else load_spec(spec)
    options = dict(
        executor=executor,
        jobs=jobs,
        address=address,
        fail_fast=fail_fast,
        force=force,
        on_progress=on_progress,
    )
    if isinstance(spec, MpsSpec):
        return run_mps_experiment(spec, out, **options)
    if isinstance(spec, CatSpec):
        return run_cat_experiment(spec, out, **options)
    out = Path(out)
    check_run_dir(out)
    tables = {d.name: dataset_tables(d) for d in spec.datasets}
    check_models(spec, tables)
    benchmarks, cells = plan_grid(spec)

    def prepare(store: ResultStore, pending_ids: set[str]) -> PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        benchmark_dirs = _build_needed(spec, benchmarks, pending, tables, out, store)
        tasks = make_tasks(pending, benchmark_dirs)
        return pending_work(pending, tasks, lambda cell: cell.benchmark.strength, describe)

    report = drive_run(spec, out, [c.id for c in cells], prepare, **options)
    report.wall_seconds = time.perf_counter() - started
    return report


def _build_needed(
    spec: ExperimentSpec,
    benchmarks: list[BenchmarkPlan],
    pending: list[CellPlan],
    tables: dict[str, tuple[LoadedTable, LoadedTable]],
    out: Path,
    store: ResultStore,
) -> dict[str, Path]:
    root = benchmarks_root(out)
    needed = {c.benchmark.id for c in pending}
    dirs = {}
    for plan in benchmarks:
        dirs[plan.id] = root / plan.id
        if plan.id not in needed:
            continue
        benchmark = build_benchmark(plan, spec, tables[plan.dataset.name], dirs[plan.id])
        if not store.has_rows(plan.id):
            truths = {
                s: benchmark.labels.ranks(benchmark[s][LABEL])
                for s in ("test", "anti_test", "original_test")
                if s in benchmark.splits
            }
            store.save_rows(
                plan.id, {s: (benchmark[s]["row_id"].to_numpy(), truths[s]) for s in truths}
            )
    return dirs


def describe(cell: CellPlan) -> str:
    return (
        f"{cell.benchmark.dataset.name} {cell.benchmark.label} λ={cell.benchmark.strength:g} "
        f"{cell.model.id}{mitigation_suffix(cell)} seed {cell.seed}"
    )
