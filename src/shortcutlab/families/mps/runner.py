"""``shortcutlab run`` for MPS specs: build each (dataset, attribute, seed) once, run the cells.

The run folder, store, executors and resume logic are the engine's
(:func:`~shortcutlab.engine.run_folder.drive_run`). The store's ``cells`` row of an MPS cell
carries the attribute's label in ``shortcut`` and the build's resolved dominance in
``strength``; its ``rows`` table holds every build's test rows, so each stored prediction
(``imbalanced/test``, ``balanced/test@question``, ...) can be scored again.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.loading import LABEL, ROW_ID, LoadedTable
from shortcutlab.engine.mitigation_spec import check_paired_data
from shortcutlab.engine.run_folder import (
    PendingWork,
    PlannedCell,
    RunReport,
    benchmarks_root,
    cell_identity,
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
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.stored_groups import CompletedGroups, plan_groups
from shortcutlab.errors import subject
from shortcutlab.families.mps.build import build_mps_benchmark
from shortcutlab.families.mps.cell import OWN_TEST, MpsTask, cross_test_name, cross_test_table
from shortcutlab.families.mps.grid import MpsBuildPlan, MpsCellPlan, plan_mps_grid
from shortcutlab.families.mps.results import store_mps_group_statistics
from shortcutlab.families.mps.spec import MpsSpec

Tables = dict[str, tuple[LoadedTable, LoadedTable | None]]


def _results_group(cell: MpsCellPlan) -> tuple[Any, ...]:
    """The group ``results`` puts the cell in: dataset, attribute, model, mitigation."""
    identity = cell_identity(cell, strength=0.0)  # the dominance is no part of the group
    return tuple(identity[column] for column in ("dataset", "shortcut", "model", "mitigation"))


def plan_mps_run(spec: MpsSpec, out: str | Path) -> list[PlannedCell]:
    """The cells of an MPS run and whether each is already finished in ``out``."""
    return planned_cells(out, plan_mps_grid(spec)[1])


def run_mps_experiment(
    spec: MpsSpec,
    out: str | Path,
    **options: Any,
) -> RunReport:
    """Run (or resume) an MPS grid into ``out`` (options: those of ``run_experiment``)."""
    out = Path(out)
    check_run_dir(out)
    tables = {d.name: dataset_tables(d, test_required=False) for d in spec.datasets}
    check_mps_models(spec, tables)
    builds, cells = plan_mps_grid(spec)

    def prepare(store: ResultStore, pending_ids: set[str]) -> PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        built = _build_needed(spec, builds, pending, tables, out, store)
        tasks = make_mps_tasks(pending, {b: str(folder) for b, (folder, _) in built.items()})
        work = pending_work(pending, tasks, lambda cell: built[cell.benchmark.id][1], describe_mps)
        groups = plan_groups(cells, _results_group)  # each stored when its last cell is written
        return replace(work, recorded=CompletedGroups(groups, store_mps_group_statistics))

    return drive_run(spec, out, [c.id for c in cells], prepare, **options)


def check_mps_models(spec: MpsSpec, tables: Tables) -> None:
    """Every model config is instantiated and checked against every dataset's label count."""
    for dataset in spec.datasets:
        # The builder fixes the label order; only the count matters here.
        pool = tables[dataset.name][0]
        check_model_configs(
            spec.models,
            len(dataset.labels or pool.frame[LABEL].unique()),
            paired=has_text_pair(pool),
        )
        check_paired_data(spec.mitigation, has_text_pair(pool), dataset.name)


def build_mps(plan: MpsBuildPlan, spec: MpsSpec, tables: Tables, folder: Path) -> Benchmark:
    """Build one MPS benchmark into ``folder`` (atomically) unless a complete one is there."""
    if (folder / MANIFEST).exists():
        return Benchmark.load(folder)
    pool, test = tables[plan.dataset.name]
    with subject(f"MPS build of attribute {plan.attribute.label} on dataset {plan.dataset.name}"):
        return build_mps_benchmark(
            pool,
            test,
            attribute=plan.attribute.name,
            attribute_options=plan.attribute.constructor_options(),
            seed=plan.build_seed,
            labels=list(plan.dataset.labels) if plan.dataset.labels else None,
            inputs=replace(plan.dataset.inputs, out=folder),  # written atomically, from Arrow
            **spec.build,
        )


def make_mps_tasks(cells: list[MpsCellPlan], folders: dict[str, str]) -> list[MpsTask]:
    """One task per pair of fits: the seeds of a seed-independent fit share it."""
    return [
        MpsTask(
            benchmark_id=group[0].benchmark.id,
            benchmark_dir=folders[group[0].benchmark.id],
            cross_tests={b.label: (b.id, folders[b.id]) for b in group[0].cross},
            model_name=group[0].model.name,
            model_params=group[0].model.constructor_params(),
            cells=[(c.id, c.fit_seed) for c in group],
            average_last_epochs=group[0].model.average_last_epochs,
            cpus=group[0].model.cpus,
            gpus=group[0].model.gpus,
            shared_fit=key[-1] is None,
            **mitigation_fields(group[0]),
        )
        for key, group in fit_groups(cells).items()
    ]


def _build_needed(
    spec: MpsSpec,
    builds: list[MpsBuildPlan],
    pending: list[MpsCellPlan],
    tables: Tables,
    out: Path,
    store: ResultStore,
) -> dict[str, tuple[Path, float]]:
    """Build every benchmark a pending cell trains or cross-tests on; store the rows each build's
    fits are scored on (``test``, ``test@ATTRIBUTE``). Returns build id -> (folder, dominance)."""
    root = benchmarks_root(out)
    needed = {b.id for c in pending for b in (c.benchmark, *c.cross)}
    built, loaded = {}, {}
    for plan in builds:
        if plan.id not in needed:
            continue
        loaded[plan.id] = build_mps(plan, spec, tables, root / plan.id)
        built[plan.id] = (root / plan.id, float(loaded[plan.id].manifest["dominance"]))
    # Rewritten on every (re)start: deterministic, so a resumed or extended run stores the same.
    for cell in {c.benchmark.id: c for c in pending}.values():
        own = loaded[cell.benchmark.id]
        tests = {OWN_TEST: own[OWN_TEST]} | {
            cross_test_name(b.label): cross_test_table(own, loaded[b.id], b.label)
            for b in cell.cross
        }
        store.save_rows(
            cell.benchmark.id,
            {
                name: (
                    test[ROW_ID].to_numpy(),
                    own.labels.ranks(test[LABEL], where=f"The {name} split"),
                )
                for name, test in tests.items()
            },
        )
    return built


def describe_mps(cell: MpsCellPlan) -> str:
    return (
        f"{cell.benchmark.dataset.name} {cell.benchmark.label} "
        f"{cell.model.id}{mitigation_suffix(cell)} seed {cell.seed}"
    )
