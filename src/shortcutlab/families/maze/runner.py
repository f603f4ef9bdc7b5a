"""``shortcutlab run``: expand a spec, build each benchmark once, execute the cells, store results.

Re-running the same command resumes: finished cells are skipped, the rest are redone. Each
outcome is committed as soon as it arrives, so stopping at any moment loses at most the cells in
flight.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, LoadedTable
from shortcutlab.engine.mitigation_spec import check_paired_data
from shortcutlab.engine.run_folder import (
    PendingWork,
    PlannedCell,
    RunReport,
    benchmarks_root,
    check_model_configs,
    check_run_dir,
    dataset_tables,
    drive_run,
    fit_groups,
    has_text_pair,
    mitigation_fields,
    mitigation_suffix,
    pending_work,
    planned_cells,
)
from shortcutlab.engine.spec_entries import DatasetSpec
from shortcutlab.engine.store import ResultStore
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.distractors import distractor_from_files
from shortcutlab.families.maze.grid import BenchmarkPlan, CellPlan, plan_grid
from shortcutlab.families.maze.spec import ExperimentSpec
from shortcutlab.families.maze.stored_statistics import with_group_statistics
from shortcutlab.families.maze.task import Task

__all__ = ["plan_maze_run", "run_maze_experiment"]


def _distractors(dataset: DatasetSpec) -> dict[str, Any] | None:
    if not dataset.distractors:
        return None
    return {
        name: distractor_from_files(
            name,
            dataset.resolve(paths["train"]),
            dataset.resolve(paths["test"]) if "test" in paths else None,
            text_col=dataset.inputs.text_col,
            label_col=dataset.inputs.label_col,
            encoding=dataset.inputs.encoding,
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
        inputs=plan.dataset.inputs,
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


def plan_maze_run(spec: ExperimentSpec, out: Path) -> list[PlannedCell]:
    """The cells of a Maze run and whether each is already finished in ``out``."""
    return planned_cells(out, plan_grid(spec)[1])


def run_maze_experiment(spec: ExperimentSpec, out: Path, **options: Any) -> RunReport:
    """Run (or resume) a Maze grid into ``out`` (options: those of ``run_experiment``)."""
    check_run_dir(out)
    tables = {d.name: dataset_tables(d) for d in spec.datasets}
    check_models(spec, tables)
    benchmarks, cells = plan_grid(spec)

    def prepare(store: ResultStore, pending_ids: set[str]) -> PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        benchmark_dirs = _build_needed(spec, benchmarks, pending, tables, out, store)
        tasks = make_tasks(pending, benchmark_dirs)
        work = pending_work(pending, tasks, lambda cell: cell.benchmark.strength, describe)
        return with_group_statistics(work, cells)

    return drive_run(spec, out, [c.id for c in cells], prepare, **options)


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
