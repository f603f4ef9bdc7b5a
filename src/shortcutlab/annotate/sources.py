"""Where task items come from: a grid run folder (its store and benchmark folders) or one
benchmark folder, and the builds of a run a task samples from.

A run holds many builds (dataset × shortcut × λ × seed for the Maze, dataset × attribute × seed
for MPS). A task samples from one build per (dataset, shortcut): the lowest seed's, and for the
Maze the strongest λ (the build where the models lean on the cue most), unless ``benchmark``
names one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.engine.run_folder import BENCHMARKS
from shortcutlab.engine.store import DATABASE, ResultStore
from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.families import family, stored_family

TEST = "test"  # the split a task samples, and whose stored rows the predictions follow
RUN_HINT = (
    "a run folder ('shortcutlab run SPEC --out DIR') or a benchmark folder ('shortcutlab build')"
)


@dataclass
class Build:
    """One benchmark folder a task samples from, and the run cells that were scored on it."""

    benchmark_id: str
    folder: Path
    dataset: str
    shortcut: str
    cells: pd.DataFrame  # the store's cells on this build (empty for a bare benchmark folder)


def is_run(path: Path) -> bool:
    return (path / DATABASE).is_file()


def is_benchmark(path: Path) -> bool:
    return (path / MANIFEST).is_file()


def read_manifest(folder: Path) -> dict[str, Any]:
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


def source_builds(source: Path, *, benchmark: str | None = None) -> list[Build]:
    """The builds a task over ``source`` samples from (see the module docstring)."""
    source = Path(source)
    if is_benchmark(source):
        arguments = read_manifest(source).get("arguments", {})
        shortcut = arguments.get("shortcut") or arguments.get("attribute") or ""
        return [Build(source.name, source, source.name, str(shortcut), pd.DataFrame())]
    if not is_run(source):
        raise DataError(f"'{source}' is neither {RUN_HINT}. Pass one of those.")
    with ResultStore.for_run(source) as store:
        cells = store.spec_cells()
    if benchmark is not None:
        chosen = cells[cells["benchmark_id"] == benchmark]
        if chosen.empty:
            known = listed(sorted(cells["benchmark_id"].unique()))
            raise ConfigError(f"The run has no build {benchmark!r}; its builds: {known}.")
        cells = chosen
    ordered = cells.sort_values(["seed", "strength"], ascending=[True, False], kind="stable")
    builds = []
    for (dataset, shortcut), part in ordered.groupby(["dataset", "shortcut"], sort=False):
        build_id = part["benchmark_id"].iloc[0]
        on_build = part[part["benchmark_id"] == build_id].sort_values(
            ["model", "mitigation", "seed"], kind="stable"
        )
        folder = source / BENCHMARKS / build_id
        if not is_benchmark(folder):
            raise DataError(
                f"The run's build folder '{folder}' is missing; run 'shortcutlab run' on its spec "
                "again to rebuild it."
            )
        builds.append(Build(build_id, folder, str(dataset), str(shortcut), on_build))
    return sorted(builds, key=lambda b: (b.dataset, b.shortcut))


def model_predictions(
    source: Path, build: Build, row_ids: np.ndarray
) -> dict[str, list[list[str]]]:
    """Each model's predicted labels on ``row_ids`` of the build's test split: name -> one list
    of labels per row, holding one label per epoch (a single one without epochs). An MPS cell
    gives two models, its Imbalanced and its Balanced fit."""
    if build.cells.empty:
        return {}
    labels = [str(v) for v in read_manifest(build.folder)["labels"]]
    found: dict[str, list[list[str]]] = {}
    with ResultStore.for_run(source) as store:
        of_run = family(stored_family(store.spec()))
        stored_ids, _ = store.rows(build.benchmark_id, TEST)
        position = {int(r): i for i, r in enumerate(stored_ids)}
        rows = [position[int(r)] for r in row_ids]
        for cell in build.cells.itertuples():
            for name, splits in of_run.predictions_to_show(cell).items():
                per_epoch = [
                    predicted_labels(store.probabilities(cell.cell_id, split))[rows]
                    for split in splits
                ]
                found[_unique(found, name, cell.seed)] = [
                    [labels[int(epoch[i])] for epoch in per_epoch] for i in range(len(rows))
                ]
    return found


def _unique(found: dict[str, Any], name: str, seed: int) -> str:
    return name if name not in found else f"{name}, seed {seed}"


def load_build(build: Build) -> Benchmark:
    return Benchmark.load(build.folder)


__all__ = [
    "RUN_HINT",
    "Build",
    "is_benchmark",
    "is_run",
    "load_build",
    "model_predictions",
    "read_manifest",
    "source_builds",
]
