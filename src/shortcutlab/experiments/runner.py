"""``shortcutlab run``: expand a spec, build each benchmark once, execute the cells, store results.

Re-running the same command resumes: finished cells are skipped, the rest are redone. Each
outcome is committed as soon as it arrives, so stopping at any moment loses at most the cells in
flight.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.corpus import generate_corpus
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, LoadedTable, load_table
from shortcutlab.data.writing import write_json
from shortcutlab.errors import OutputExistsError
from shortcutlab.experiments.executors import make_executor
from shortcutlab.experiments.grid import BenchmarkPlan, CellPlan, plan_grid, shortcut_label
from shortcutlab.experiments.spec import DatasetSpec, ExperimentSpec, load_spec
from shortcutlab.experiments.store import DATABASE, CellRecord, ResultStore
from shortcutlab.experiments.worker import Task, TaskOutcome
from shortcutlab.models import make_model
from shortcutlab.splits.benchmark import MANIFEST, Benchmark
from shortcutlab.splits.distractors import distractor_from_files
from shortcutlab.splits.maze import build_maze_benchmark

Progress = Callable[[str, int, int], None]
SPEC_COPY = "spec.resolved.json"


@dataclass
class RunReport:
    run_dir: Path
    total: int
    skipped: int
    done: int = 0
    failed: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list)
    wall_seconds: float = 0.0


@dataclass
class PlannedCell:
    cell: CellPlan
    finished: bool


def _tables(dataset: DatasetSpec) -> tuple[LoadedTable, LoadedTable]:
    if dataset.builtin:
        corpus = generate_corpus(
            train_size=dataset.generator["train_size"],
            test_size=dataset.generator["test_size"],
            levels=dataset.generator["levels"],
            seed=dataset.generator["seed"],
        )
        return load_table(corpus["train"], role="train"), load_table(corpus["test"], role="test")
    options = dict(
        text_col=dataset.text,
        label_col=dataset.label,
        text_pair_col=dataset.text_pair,
        encoding=dataset.encoding,
        on_empty=dataset.on_empty,
    )
    return (
        load_table(dataset.resolve(dataset.train or ""), role="train", **options),
        load_table(dataset.resolve(dataset.test or ""), role="test", **options),
    )


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
    """Every model config is instantiated and checked against every dataset's label count."""
    for dataset in spec.datasets:
        train = tables[dataset.name][0]
        labels = LabelSpace.infer(
            train.frame[LABEL].tolist(), given=dataset.labels, source=f"dataset '{dataset.name}'"
        )
        for model in spec.models:
            probe = make_model(model.name, model.constructor_params())
            try:
                probe.check(len(labels))
            finally:
                probe.close()


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


def fit_key(cell: CellPlan) -> tuple[str, str, int | None]:
    """Cells with one key share one fit: the seeds of a seed-independent model on one build."""
    seeded = make_model(cell.model.name, cell.model.constructor_params()).depends_on_seed()
    return cell.benchmark.id, cell.model.id, cell.fit_seed if seeded else None


def make_tasks(cells: list[CellPlan], benchmark_dirs: dict[str, Path]) -> list[Task]:
    """One task per fit: the seeds of a seed-independent model share it."""
    groups: dict[tuple[str, str, int | None], list[CellPlan]] = {}
    for cell in cells:
        groups.setdefault(fit_key(cell), []).append(cell)
    return [
        Task(
            benchmark_id=group[0].benchmark.id,
            benchmark_dir=str(benchmark_dirs[group[0].benchmark.id]),
            model_name=group[0].model.name,
            model_params=group[0].model.constructor_params(),
            cells=[(c.id, c.fit_seed) for c in group],
            cpus=group[0].model.cpus,
            gpus=group[0].model.gpus,
            shared_fit=key[2] is None,
        )
        for key, group in groups.items()
    ]


def _check_run_dir(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputExistsError(f"The run folder '{out}' is a file. Choose a folder with --out.")
    if out.is_dir() and any(out.iterdir()) and not (out / DATABASE).exists():
        raise OutputExistsError(
            f"'{out}' is not empty and is not a run folder. Choose another --out."
        )


def plan_run(
    spec: ExperimentSpec | str | Path, out: str | Path
) -> tuple[ExperimentSpec, list[PlannedCell]]:
    """The cells of a run and whether each is already finished in ``out`` (for --dry-run)."""
    spec = spec if isinstance(spec, ExperimentSpec) else load_spec(spec)
    out = Path(out)
    _check_run_dir(out)
    finished: set[str] = set()
    if (out / DATABASE).exists():
        with ResultStore(out / DATABASE) as store:
            finished = store.finished()
    _, cells = plan_grid(spec)
    return spec, [PlannedCell(c, c.id in finished) for c in cells]


def estimate_seconds(out: str | Path, planned: list[PlannedCell]) -> float | None:
    """Rough time left: the median fit time of finished cells of each model, times its pending fits."""
    if not (Path(out) / DATABASE).exists():
        return None
    with ResultStore(Path(out) / DATABASE) as store:
        frame = store.cells()
    if frame.empty:
        return None
    per_model = frame.groupby("model")["total_seconds"].median().to_dict()
    pending = [p.cell for p in planned if not p.finished]
    if any(c.model.id not in per_model for c in pending):
        return None
    fits = {fit_key(c) for c in pending}
    return sum(per_model[model] for _, model, _ in fits)


def run_experiment(
    spec: ExperimentSpec | str | Path,
    out: str | Path,
    *,
    executor: str = "local",
    jobs: int | None = None,
    address: str | None = None,
    fail_fast: bool = False,
    force: bool = False,
    on_progress: Progress | None = None,
) -> RunReport:
    """Run (or resume) the grid of ``spec`` into the run folder ``out``."""
    started = time.perf_counter()
    spec = spec if isinstance(spec, ExperimentSpec) else load_spec(spec)
    out = Path(out)
    _check_run_dir(out)
    runner = make_executor(executor, jobs=jobs, address=address)
    tables = {d.name: _tables(d) for d in spec.datasets}
    check_models(spec, tables)
    if (out / DATABASE).exists():  # refuse a different spec before touching anything
        with ResultStore(out / DATABASE) as existing:
            existing.check_spec(spec.fingerprint(), force=force)
    benchmarks, cells = plan_grid(spec)
    runner.start()  # an unreachable cluster fails here, before the run folder is created
    try:
        out.mkdir(parents=True, exist_ok=True)
        with ResultStore(out / DATABASE) as store:
            store.write_spec(spec.resolved(), spec.fingerprint(), [c.id for c in cells])
            _write_spec_copy(out, spec)
            finished = store.finished()
            pending = [c for c in cells if c.id not in finished]
            report = RunReport(run_dir=out, total=len(cells), skipped=len(cells) - len(pending))
            progress = on_progress or (lambda message, done, total: None)
            progress("building benchmarks", report.skipped, report.total)
            benchmark_dirs = _build_needed(spec, benchmarks, pending, tables, out, store)
            tasks = make_tasks(pending, benchmark_dirs)
            by_id = {c.id: c for c in pending}

            def record(outcome: TaskOutcome) -> None:
                store.record(_records(outcome, by_id))
                for cell in outcome.cells:
                    if cell.status == "done":
                        report.done += 1
                    else:
                        report.failed += 1
                        plan = by_id[cell.cell_id]
                        report.errors.append((describe(plan), cell.error or ""))
                progress(
                    describe(by_id[outcome.cells[-1].cell_id]),
                    report.skipped + report.done + report.failed,
                    report.total,
                )

            runner.run(tasks, record, fail_fast=fail_fast)
    finally:
        runner.close()
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
    root = out / "benchmarks"
    root.mkdir(exist_ok=True)
    for leftover in root.glob(
        ".*.partial"
    ):  # an interrupted build leaves only a hidden temp folder
        shutil.rmtree(leftover, ignore_errors=True)
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


def _records(outcome: TaskOutcome, by_id: dict[str, CellPlan]) -> list[CellRecord]:
    records = []
    for cell in outcome.cells:
        plan = by_id[cell.cell_id]
        records.append(
            CellRecord(
                cell_id=cell.cell_id,
                dataset=plan.benchmark.dataset.name,
                shortcut=shortcut_label(plan.benchmark.shortcut),
                strength=plan.benchmark.strength,
                model=plan.model.id,
                seed=plan.seed,
                benchmark_id=plan.benchmark.id,
                config=plan.config,
                status=cell.status,
                metrics=cell.metrics,
                error=cell.error,
                probabilities=cell.probabilities,
                fit_seconds=cell.fit_seconds,
                predict_seconds=cell.predict_seconds,
                total_seconds=cell.total_seconds,
                shared_fit=cell.shared_fit,
                versions=outcome.versions,
            )
        )
    return records


def _write_spec_copy(out: Path, spec: ExperimentSpec) -> None:
    write_json(out / SPEC_COPY, spec.resolved())


def describe(cell: CellPlan) -> str:
    return f"{cell.benchmark.dataset.name} {cell.benchmark.label} λ={cell.benchmark.strength:g} {cell.model.id} seed {cell.seed}"
