"""What every grid family's run shares: the run folder, its dataset tables, and the resumable loop.

:func:`drive_run` binds a run folder to a spec, skips the cells already finished, hands the
pending ones to an executor, and commits each outcome as soon as it arrives, so stopping at any
moment loses at most the cells in flight. A family (Maze, MPS) only says how pending cells become
benchmarks, tasks and stored records.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.corpus import generate_corpus
from shortcutlab.data.group_split import split_table_by_group
from shortcutlab.data.label_agreement import agree_labels
from shortcutlab.data.loading import TEXT_PAIR, LoadedTable, load_table
from shortcutlab.data.overlap import check_test_overlap
from shortcutlab.data.partials import remove_stale_partials
from shortcutlab.data.writing import check_folder_path, write_json
from shortcutlab.engine.dataset_entry import DEFAULT_TEST_SHARE
from shortcutlab.engine.executors import make_executor
from shortcutlab.engine.mitigation_spec import PLAIN
from shortcutlab.engine.run_lock import LOCK_FILE, run_folder_lock
from shortcutlab.engine.spec_entries import DatasetSpec, ModelSpec
from shortcutlab.engine.store import DATABASE, SPEC_COPY, CellRecord, ResultStore
from shortcutlab.engine.tracking import (
    PENDING_FILE,
    SPEC_HASH_TAG,
    GridToTrack,
    PendingRuns,
    TrackedCell,
    Tracker,
    records_to_track,
    stored_cells_to_track,
)
from shortcutlab.engine.worker import GridTask, TaskOutcome
from shortcutlab.errors import OutputExistsError, ShortcutlabError, ended, knob
from shortcutlab.models import make_model
from shortcutlab.models.base import check_pair_support

Progress = Callable[[str, int, int], None]
BENCHMARKS = "benchmarks"


@dataclass
class RunReport:
    """What a run did: its cells done, skipped (finished before) and failed, and each failure's
    (cell, error); the repr leaves the errors out, so that ``failed=N`` shows at a glance."""

    run_dir: Path
    total: int
    skipped: int
    done: int = 0
    failed: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list, repr=False)
    wall_seconds: float = 0.0


@dataclass
class PlannedCell:
    """A cell of a run's plan (a family's cell plan) and whether the run folder has it already."""

    cell: Any
    finished: bool


@dataclass
class PendingWork:
    """What a family makes of its pending cells: tasks, how an outcome becomes stored records,
    and each cell's description (for progress and failure messages)."""

    tasks: list[GridTask]
    records: Callable[[TaskOutcome], list[CellRecord]]
    describe: Callable[[str], str]
    #: (store, records just written, or None as the run starts) -> None: e.g. CompletedGroups.
    recorded: Callable[[ResultStore, list[CellRecord] | None], None] = lambda store, records: None


def pending_work(
    pending: list[Any],
    tasks: list[GridTask],
    strength: Callable[[Any], float],
    describe: Callable[[Any], str],
) -> PendingWork:
    """The :class:`PendingWork` of ``pending`` cell plans: records carry each cell's identity,
    with ``strength(cell)`` as its λ (or resolved dominance)."""
    by_id = {cell.id: cell for cell in pending}
    return PendingWork(
        tasks=tasks,
        records=lambda outcome: list(
            outcome_records(
                outcome,
                lambda cell_id: cell_identity(by_id[cell_id], strength(by_id[cell_id])),
            )
        ),
        describe=lambda cell_id: describe(by_id[cell_id]),
    )


FitKey = tuple[str, str, str, int | None]


def fit_key(cell: Any) -> FitKey:
    """Cells with one key share their fit(s): the seeds of one build whose fit cannot depend on
    its seed (a seed-independent model under a method that draws no random numbers itself).
    ``cell`` is a family's cell plan (``benchmark.id``, ``model``, ``mitigation``, ``fit_seed``)."""
    seeded = make_model(cell.model.name, cell.model.constructor_params()).depends_on_seed()
    mitigation = getattr(cell, "mitigation", PLAIN)
    seeded = mitigation.make().depends_on_seed(seeded)
    return cell.benchmark.id, cell.model.id, mitigation.id, cell.fit_seed if seeded else None


def fit_groups(cells: Iterable[Any]) -> dict[FitKey, list[Any]]:
    """Cells grouped by :func:`fit_key`: one task per group."""
    groups: dict[FitKey, list[Any]] = {}
    for cell in cells:
        groups.setdefault(fit_key(cell), []).append(cell)
    return groups


def mitigation_suffix(cell: Any) -> str:
    """`` + reweight`` after a model's id in progress and failure messages (nothing for erm)."""
    mitigation = getattr(cell, "mitigation", PLAIN)
    return "" if mitigation == PLAIN else f" + {mitigation.id}"


def mitigation_fields(cell: Any) -> dict[str, Any]:
    """A task's mitigation keywords for ``cell``: the method instance and the group settings."""
    return {
        "mitigation": cell.mitigation.make(),
        "groups": cell.groups,
        "group_labels": cell.group_labels,
    }


def check_model_configs(models: Iterable[ModelSpec], n_labels: int, *, paired: bool) -> None:
    """Instantiate every model config and check it against the dataset's label count and input
    kind (``paired``: the dataset has a text_pair)."""
    for model in models:
        probe = make_model(model.name, model.constructor_params())
        try:
            check_pair_support(probe, paired=paired)
            probe.check(n_labels)
        finally:
            probe.close()


def dataset_tables(
    dataset: DatasetSpec, *, test_required: bool = True
) -> tuple[LoadedTable, LoadedTable | None]:
    """The dataset's train and test tables (generated for a built-in corpus); ``test`` may be
    absent where not required (an MPS pool carves its own test split)."""
    if dataset.builtin:
        corpus = generate_corpus(
            train_size=dataset.generator["train_size"],
            test_size=dataset.generator["test_size"],
            levels=dataset.generator["levels"],
            seed=dataset.generator["seed"],
        )
        return load_table(corpus["train"], role="train"), load_table(corpus["test"], role="test")
    if dataset.split_by is not None:  # one file, split by group (seed 0 for every seed)
        data = dataset.inputs.read(dataset.resolve(dataset.train or ""), role="data")
        sides, _ = split_table_by_group(
            data,
            dataset.split_by,
            columns=dataset.inputs.reading(),
            test_size=dataset.test_size or DEFAULT_TEST_SHARE,
        )
        return sides["train"], sides["test"]
    train = dataset.inputs.read(dataset.resolve(dataset.train or ""), role="train")
    if dataset.test is None and not test_required:
        return train, None
    test = dataset.inputs.read(dataset.resolve(dataset.test or ""), role="test")
    tables = agree_labels({"train": train, "test": test})
    check_test_overlap(tables["train"], tables["test"])  # before the run folder exists
    return tables["train"], tables["test"]


def has_text_pair(table: LoadedTable) -> bool:
    """Whether a dataset's table gives models paired inputs."""
    return TEXT_PAIR in table.column_names()


def check_run_dir(out: Path) -> None:
    check_folder_path(out)
    # A lock file alone is what a fresh run killed before its store existed leaves.
    if out.is_dir() and any(p.name != LOCK_FILE for p in out.iterdir()):
        if not (out / DATABASE).exists():
            raise OutputExistsError(
                f"'{out}' is not empty and is not a run folder. Choose another "
                f"{ended(knob('out', run=True))}"
            )


def finished_cells(out: Path, *, quiet: bool = False) -> set[str]:
    """The finished cells of a run folder (none when it has no store yet; ``quiet``: none
    either when the store cannot be read, as after a failure that damaged it)."""
    if not (out / DATABASE).exists():
        return set()
    try:
        with ResultStore(out / DATABASE) as store:
            return store.finished()
    except (ShortcutlabError, sqlite3.Error):
        if quiet:
            return set()
        raise


def planned_cells(out: Path, cells: Iterable[Any]) -> list[PlannedCell]:
    """A family's cell plans and whether each is finished in the run folder ``out`` (what
    ``run --dry-run`` shows)."""
    out = Path(out)
    check_run_dir(out)
    finished = finished_cells(out)
    return [PlannedCell(c, c.id in finished) for c in cells]


def benchmarks_root(out: Path) -> Path:
    """The run's benchmarks folder, without the hidden temp folders of interrupted builds."""
    root = out / BENCHMARKS
    root.mkdir(exist_ok=True)
    remove_stale_partials(root)  # builds of killed runs (a live PID's build is in flight)
    return root


def drive_run(
    spec: Any,
    out: Path,
    cell_ids: list[str],
    prepare: Callable[[ResultStore, set[str]], PendingWork],
    *,
    executor: str = "local",
    jobs: int | None = None,
    address: str | None = None,
    fail_fast: bool = False,
    force: bool = False,
    on_progress: Progress | None = None,
    tracker: Tracker | None = None,
) -> RunReport:
    """Run (or resume) ``cell_ids`` of ``spec`` into ``out``; ``prepare(store, pending)`` builds
    what the pending cells need and returns their :class:`PendingWork`. A ``tracker`` logs each
    cell after the store commits it (and, as the run starts, the finished cells it lacks).

    One run per folder at a time: the folder's lock is held throughout (a second run answers
    :class:`~shortcutlab.errors.FolderInUseError`). A fresh folder (no store before) that ends
    without a finished cell, whatever stopped it, is removed (or emptied, when it existed
    empty), so the corrected spec runs there without ``--force``."""
    started = time.perf_counter()
    check_run_dir(out)
    runner = make_executor(executor, jobs=jobs, address=address)
    # Network answers first, each bounded: a refusal (or a kill meanwhile) leaves no folder or lock.
    runner.check()
    if tracker is not None:
        tracker.connect()
    with run_folder_lock(out) as created:
        fresh = not (out / DATABASE).exists()
        try:
            report = _run_locked(
                spec, out, cell_ids, prepare, runner, fail_fast, force, on_progress, tracker
            )
        except BaseException:
            # Any failure, a bug or disk full as much as a refused input or Ctrl-C: a folder
            # holding finished cells is kept (the next run resumes them); one holding none would
            # only block the fixed spec as "a different spec".
            if fresh:
                remove_unfinished(out, created=created)
            raise
    report.wall_seconds = time.perf_counter() - started
    return report


def _run_locked(
    spec: Any,
    out: Path,
    cell_ids: list[str],
    prepare: Callable[[ResultStore, set[str]], PendingWork],
    runner: Any,
    fail_fast: bool,
    force: bool,
    on_progress: Progress | None,
    tracker: Tracker | None,
) -> RunReport:
    """:func:`drive_run`'s work, with the folder's lock held."""
    finished_before: list[TrackedCell] = []
    if (out / DATABASE).exists():  # refuse a different spec before touching anything
        with ResultStore(out / DATABASE) as existing:
            existing.check_spec(spec.fingerprint(), force=force)
            if tracker is not None:
                finished_before = stored_cells_to_track(existing, spec.family, cell_ids)
    if tracker is not None:  # it logs what a kill missed
        tags = {SPEC_HASH_TAG: spec.fingerprint()}
        pending = PendingRuns(out / PENDING_FILE)
        tracker.start(GridToTrack(spec.name, tags, finished_before, pending))
    runner.start()  # a cluster that refuses this driver fails here, before the store is created
    try:
        with ResultStore(out / DATABASE) as store:
            store.write_spec(spec.resolved(), spec.fingerprint(), cell_ids)
            write_json(out / SPEC_COPY, spec.resolved())
            finished = store.finished()
            pending = {c for c in cell_ids if c not in finished}
            report = RunReport(
                run_dir=out, total=len(cell_ids), skipped=len(cell_ids) - len(pending)
            )
            progress = on_progress or (lambda message, done, total: None)
            progress("building benchmarks", report.skipped, report.total)
            work = prepare(store, pending)
            work.recorded(store, None)

            def record(outcome: TaskOutcome) -> None:
                records = work.records(outcome)
                store.record(records)
                work.recorded(store, records)
                if tracker is not None:  # after the commit: a kill between is logged on resume
                    tracker.log_cells(records_to_track(records, spec.family))
                _count(report, outcome, work.describe)
                progress(
                    work.describe(outcome.cells[-1].cell_id),
                    report.skipped + report.done + report.failed,
                    report.total,
                )

            runner.run(work.tasks, record, fail_fast=fail_fast)
    finally:
        runner.close()
    return report


def remove_unfinished(out: Path, *, created: bool) -> None:
    """Undo a fresh run that finished no cell: remove the folder it ``created``, or empty the
    (empty) folder it was given; a folder holding finished cells is left to resume."""
    if finished_cells(out, quiet=True):
        return
    if created:
        shutil.rmtree(out, ignore_errors=True)
        return
    for entry in out.iterdir():
        if entry.name == LOCK_FILE:
            continue  # still held: removed by the lock when it ends
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def _count(report: RunReport, outcome: TaskOutcome, describe: Callable[[str], str]) -> None:
    for cell in outcome.cells:
        if cell.status == "done":
            report.done += 1
        else:
            report.failed += 1
            report.errors.append((describe(cell.cell_id), cell.error or ""))


def cell_identity(cell: Any, strength: float) -> dict[str, Any]:
    """What the store's cells row says of a cell plan besides its outcome: ``shortcut`` is the
    build's label (a shortcut, or an MPS attribute), ``strength`` its λ (or resolved dominance),
    ``mitigation`` the method's id."""
    return {
        "dataset": cell.benchmark.dataset.name,
        "shortcut": cell.benchmark.label,
        "strength": strength,
        "model": cell.model.id,
        "mitigation": getattr(cell, "mitigation", PLAIN).id,
        "seed": cell.seed,
        "benchmark_id": cell.benchmark.id,
        "config": cell.config,
    }


def outcome_records(
    outcome: TaskOutcome, identity: Callable[[str], dict[str, Any]]
) -> Iterable[CellRecord]:
    """The store records of an outcome's cells; ``identity(cell_id)`` gives the cell's dataset,
    shortcut, strength, model, mitigation, seed, benchmark_id and config."""
    for cell in outcome.cells:
        yield CellRecord(
            cell_id=cell.cell_id,
            **identity(cell.cell_id),
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
