"""``shortcutlab run`` for CAT specs: store each dataset once as a benchmark, run the cells.

The run folder, store, executors and resume logic are the engine's
(:func:`~shortcutlab.engine.run_folder.drive_run`). A dataset becomes a benchmark folder
holding its ``train`` and ``test`` tables and the label order; a cell is (dataset, model,
augment, seed) and stores the CAT results (:func:`~shortcutlab.families.cat.run.run_cat`) as its
metrics. The store's ``cells`` row carries ``cat`` or ``cat+augment`` in ``shortcut`` and the
augmentation as 0 / 1 in ``strength`` (there is no λ in a CAT grid).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT_PAIR
from shortcutlab.engine import run_folder
from shortcutlab.engine.run_folder import PendingWork, PlannedCell, RunReport
from shortcutlab.engine.spec_entries import DatasetSpec, ModelSpec
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.worker import TaskOutcome, done_outcome, failed_outcome, pin_threads
from shortcutlab.families.cat.run import CatConfig, run_cat
from shortcutlab.families.cat.spec import CatSpec

AUGMENTED, PLAIN = "cat+augment", "cat"


@dataclass(frozen=True)
class CatBuildPlan:
    """One dataset of the grid, stored as a benchmark (train, test, label order)."""

    id: str
    dataset: DatasetSpec
    config: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class CatCellPlan:
    id: str
    benchmark: CatBuildPlan
    model: ModelSpec
    augment: bool
    seed: int
    config: dict[str, Any] = field(hash=False, compare=False)

    @property
    def label(self) -> str:
        return AUGMENTED if self.augment else PLAIN


def plan_cat_grid(spec: CatSpec) -> tuple[list[CatBuildPlan], list[CatCellPlan]]:
    """All builds and cells of the spec, in a fixed order (dataset, model, augment, seed)."""
    builds, cells = [], []
    options = {"k": spec.k, "default_label": spec.default_label, "replace": spec.replace}
    for dataset in spec.datasets:
        config = {"dataset": dataset.resolved()}
        build = CatBuildPlan(f"{dataset.name}-{canonical_hash(config)[:10]}", dataset, config)
        builds.append(build)
        for model in spec.models:
            for augment in spec.augment:
                for seed in spec.seeds:
                    cell_config = {
                        "benchmark": config,
                        "model": {"name": model.name, "params": model.params},
                        "cat": options | {"augment": augment},
                        "seed": seed,
                    }
                    cells.append(
                        CatCellPlan(
                            canonical_hash(cell_config), build, model, augment, seed, cell_config
                        )
                    )
    return builds, cells


def plan_cat_run(spec: CatSpec, out: str | Path) -> list[PlannedCell]:
    """The cells of a CAT run and whether each is already finished in ``out``."""
    return run_folder.planned_cells(out, plan_cat_grid(spec)[1])


@dataclass
class CatTask:
    """One CAT cell: fit, counterfactual sets, baselines (no fit is shared: the seed draws the
    counterfactuals even for a model that ignores it)."""

    benchmark_id: str
    benchmark_dir: str
    model_name: str
    model_params: dict[str, Any]
    cells: list[tuple[str, int]]
    options: dict[str, Any]
    cpus: float = 1.0
    gpus: float = 0.0
    shared_fit: bool = False

    def benchmark_dirs(self) -> dict[str, str]:
        return {self.benchmark_id: self.benchmark_dir}

    def run(self, benchmarks: Mapping[str, Benchmark]) -> TaskOutcome:
        started = time.perf_counter()
        pin_threads(self.cpus)
        try:
            benchmark = benchmarks[self.benchmark_id]
            config = CatConfig(
                model=self.model_name,
                params=self.model_params,
                seed=self.cells[0][1],
                labels=list(benchmark.labels.values),
                **self.options,
            )
            outcome = run_cat(benchmark["train"], benchmark["test"], config)
        except Exception as exc:  # noqa: BLE001 - a failed cell is recorded, the grid goes on
            return failed_outcome(self, exc, started)
        # The fit and the predictions interleave (two models, k sets): only the total is timed.
        # The test predictions are stored so `results` can pair an augmented fit with a plain one.
        probabilities = {"test": outcome.probabilities}
        return done_outcome(self, outcome.results, probabilities, None, None, started)  # type: ignore[arg-type]


def run_cat_experiment(spec: CatSpec, out: str | Path, **options: Any) -> RunReport:
    """Run (or resume) a CAT grid into ``out`` (options: those of ``run_experiment``)."""
    out = Path(out)
    run_folder.check_run_dir(out)
    tables = {d.name: run_folder.dataset_tables(d) for d in spec.datasets}
    for dataset in spec.datasets:
        labels = _labels(dataset, tables[dataset.name])
        # One-text models are refused here, before the run folder exists.
        run_folder.check_model_configs(spec.models, len(labels), paired=True)
    builds, cells = plan_cat_grid(spec)

    def prepare(store: ResultStore, pending_ids: set[str]) -> PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        needed = {c.benchmark.id for c in pending}
        root = run_folder.benchmarks_root(out)
        folders = {
            b.id: str(_store_dataset(b, tables[b.dataset.name], root / b.id))
            for b in builds
            if b.id in needed
        }
        for b in builds:  # the test rows' labels, for paired tests between cells
            if b.id in needed and not store.has_rows(b.id):
                test = tables[b.dataset.name][1].frame
                labels = _labels(b.dataset, tables[b.dataset.name])
                store.save_rows(
                    b.id, {"test": (test[ROW_ID].to_numpy(), labels.ranks(test[LABEL]))}
                )
        tasks = [
            CatTask(
                benchmark_id=c.benchmark.id,
                benchmark_dir=folders[c.benchmark.id],
                model_name=c.model.name,
                model_params=c.model.constructor_params(),
                cells=[(c.id, c.seed)],
                options=c.config["cat"],
                cpus=c.model.cpus,
                gpus=c.model.gpus,
            )
            for c in pending
        ]
        by_id = {c.id: c for c in pending}
        return PendingWork(
            tasks=tasks,
            records=lambda outcome: list(
                run_folder.outcome_records(outcome, lambda cell_id: _identity(by_id[cell_id]))
            ),
            describe=lambda cell_id: describe_cat(by_id[cell_id]),
        )

    return run_folder.drive_run(spec, out, [c.id for c in cells], prepare, **options)


def _labels(dataset: DatasetSpec, tables: tuple[Any, Any]) -> LabelSpace:
    """The label order: the spec's, else the sorted labels of both files."""
    seen = [*tables[0].frame[LABEL].tolist(), *tables[1].frame[LABEL].tolist()]
    return LabelSpace.infer(
        seen, given=dataset.labels or sorted(set(seen), key=str), source=f"dataset '{dataset.name}'"
    )


def _store_dataset(plan: CatBuildPlan, tables: tuple[Any, Any], folder: Path) -> Path:
    """Write the dataset's train and test tables as a benchmark (atomically) unless present."""
    if not (folder / MANIFEST).exists():
        manifest = {
            "labels": _labels(plan.dataset, tables).to_json(),
            "arguments": {"family": "cat", TEXT_PAIR + "_col": plan.dataset.inputs.text_pair_col},
            "dataset": plan.config["dataset"],
        }
        Benchmark(
            splits={"train": tables[0].frame, "test": tables[1].frame},
            labels=LabelSpace(tuple(manifest["labels"])),
            manifest=manifest,
        ).save(folder)
    return folder


def _identity(cell: CatCellPlan) -> dict[str, Any]:
    """The store's cells row of a CAT cell (see the module docstring)."""
    return {
        "dataset": cell.benchmark.dataset.name,
        "shortcut": cell.label,
        "strength": float(cell.augment),
        "model": cell.model.id,
        "seed": cell.seed,
        "benchmark_id": cell.benchmark.id,
        "config": cell.config,
    }


def describe_cat(cell: CatCellPlan) -> str:
    return f"{cell.benchmark.dataset.name} {cell.model.id} {cell.label} seed {cell.seed}"
