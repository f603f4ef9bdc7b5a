"""What ``explain`` explains: a benchmark folder (the model named by its registry name), or a run
folder (a cell's model id and seed, refitted on the benchmark that cell used), and which of the
benchmark's rows carry a recorded cue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.loading import CUE_SPANS, SHORTCUT, TEXT_PAIR
from shortcutlab.data.pairs import TextInput, model_inputs
from shortcutlab.engine.run_folder import BENCHMARKS
from shortcutlab.engine.store import DATABASE, ResultStore
from shortcutlab.errors import ConfigError, DataError, InputFileError, knob, listed
from shortcutlab.explain.explained import FIRST, SECOND
from shortcutlab.explain.tokens import Span
from shortcutlab.families.maze import FAMILY
from shortcutlab.families.maze.cue_spans import cue_column, frame_cue_spans
from shortcutlab.models import MODELS
from shortcutlab.models.adapters import refuse_fitted_function, resolve_model
from shortcutlab.params import quoted
from shortcutlab.shortcuts import SHORTCUTS

MAZE_KIND = FAMILY.manifest_kind
CUE = "cue"


@dataclass
class ExplainSource:
    """The benchmark, the backend and its parameters, the fit seed, and where they came from."""

    benchmark: Benchmark
    model: str
    params: dict[str, Any]
    fit_seed: int
    record: dict[str, Any]


@dataclass
class CueRows:
    """The explained rows: their ids, model inputs, cue spans, Table 4 group and the part
    (first or second text) that carries the cue."""

    row_ids: list[Any]
    inputs: list[TextInput]
    spans: list[list[Span]]
    groups: list[str]
    part: int
    available: int  # rows of the split that carry a cue


def resolve_source(
    source: Benchmark | str | Path,
    *,
    model: Any,
    params: Mapping[str, Any] | None,
    seed: int,
    benchmark_id: str | None = None,
) -> ExplainSource:
    """A benchmark, as an object or its folder (``model`` is anything
    :func:`~shortcutlab.models.adapters.resolve_model` takes), or a run folder (``model`` a model id)."""
    if isinstance(source, Benchmark):
        return _from_benchmark(source, model, params, seed, benchmark_id)
    folder = Path(source)
    if (folder / MANIFEST).exists():
        return _from_benchmark(Benchmark.load(folder), model, params, seed, benchmark_id)
    if (folder / DATABASE).exists():
        if params:
            raise ConfigError(
                f"{knob('params', flag='--param')} applies to a benchmark; a run folder's cell "
                f"brings its model's parameters. Drop it, or explain the benchmark with "
                f"{knob('model')}."
            )
        return _from_run(folder, model, seed, benchmark_id)
    raise InputFileError(
        f"'{folder}' is neither a benchmark folder (no {MANIFEST}) nor a run folder (no "
        f"{DATABASE}). Pass the folder 'shortcutlab build maze' or 'shortcutlab run' wrote."
    )


def _from_benchmark(
    benchmark: Benchmark,
    model: Any,
    params: Mapping[str, Any] | None,
    seed: int,
    benchmark_id: str | None,
) -> ExplainSource:
    """A benchmark held in memory or read from its folder (recorded by its path, if it has one)."""
    where = f"'{benchmark.path}' is" if benchmark.path is not None else "this is"
    if benchmark_id is not None:
        raise ConfigError(
            f"{knob('benchmark')} picks a build inside a run folder; {where} a benchmark."
        )
    name, resolved = resolve_model(model, params)
    refuse_fitted_function(name)
    MODELS.get(name)  # an unknown name fails here, with the close matches and the list
    record: dict[str, Any] = {"kind": "benchmark", **_cell_of(benchmark)}
    if benchmark.path is not None:
        record["path"] = str(benchmark.path)
    return ExplainSource(benchmark, name, resolved, seed, record)


def _cell_of(benchmark: Benchmark) -> dict[str, Any]:
    """The shortcut and λ the explained build carries (what the long table names its rows by)."""
    return {"shortcut": benchmark.shortcut or None, "strength": benchmark.strength}


def _from_run(folder: Path, model_id: str, seed: int, benchmark_id: str | None) -> ExplainSource:
    with ResultStore.for_run(folder) as store:
        cells = store.spec_cells()
        configs = store.configs()
    models = sorted(set(cells["model"]))
    if model_id not in models:
        raise ConfigError(
            f"The run has no model {quoted(model_id)}; its model ids: {listed(models)}."
        )
    cells = cells[cells["model"] == model_id]
    seeds = sorted(set(cells["seed"].tolist()))
    if seed not in seeds:
        raise ConfigError(f"The run has no seed {seed} for {model_id}; its seeds: {listed(seeds)}.")
    cells = cells[cells["seed"] == seed]
    builds = sorted(set(cells["benchmark_id"]))
    if benchmark_id is not None and benchmark_id not in builds:
        raise ConfigError(
            f"The run has no benchmark {quoted(benchmark_id)} for {model_id} seed {seed}; "
            f"its benchmarks: {listed(builds)}."
        )
    if benchmark_id is None and len(builds) > 1:
        raise ConfigError(
            f"The run holds {len(builds)} benchmarks for {model_id} seed {seed}; name one with "
            f"{knob('benchmark')}: {listed(builds)}."
        )
    chosen = benchmark_id or builds[0]
    cell_id = cells[cells["benchmark_id"] == chosen]["cell_id"].iloc[0]
    config = configs[cell_id]
    record = {
        "kind": "run",
        "path": str(folder),
        "benchmark_id": chosen,
        "model_id": model_id,
        "seed": seed,
        "cell_id": cell_id,
    }
    benchmark = Benchmark.load(folder / BENCHMARKS / chosen)
    record.update(_cell_of(benchmark))
    return ExplainSource(
        benchmark,
        config["model"]["name"],
        dict(config["model"]["params"]),
        int(config["seed"]),
        record,
    )


def cue_rows(benchmark: Benchmark, *, split: str, rows: int, seed: int) -> CueRows:
    """Up to ``rows`` rows of ``split`` that carry a recorded cue, drawn with ``seed`` (in split
    order). A row's Table 4 group is its cue's side when every row got one (category: country or
    city, as in the paper's table), else one "cue" group."""
    kind = benchmark.manifest.get("kind")
    if kind != MAZE_KIND:
        raise DataError(
            f"explain needs a Shortcut Maze build with an inserted cue; this benchmark is a "
            f"{kind or 'benchmark without a kind'} build. Build one with 'shortcutlab build maze'."
        )
    frame = benchmark[split]
    if CUE_SPANS not in frame.columns and benchmark.shortcut in SHORTCUTS:
        if not SHORTCUTS.capabilities(benchmark.shortcut)["inserts_cue"]:
            inserting = SHORTCUTS.having("inserts_cue")
            raise DataError(
                f"The {benchmark.shortcut} shortcut rewrites whole texts, so no tokens hold its cue "
                f"and attributions have nothing to be checked against. Explain a build of an "
                f"inserted cue: {listed(inserting)}."
            )
    column = cue_column(benchmark.manifest)
    spans = frame_cue_spans(frame, column, split=split)
    carrying = np.flatnonzero([bool(s) for s in spans])
    if len(carrying) == 0:
        raise DataError(
            f"No {split} row carries a recorded cue (every {CUE_SPANS} is []). Explain another "
            "split (--split test or anti_test) or a build with a higher strength."
        )
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    chosen = np.sort(rng.choice(carrying, size=min(rows, len(carrying)), replace=False))
    two_sided = len(carrying) == len(frame)
    picked: pd.DataFrame = frame.iloc[chosen]
    return CueRows(
        row_ids=picked["row_id"].tolist(),
        inputs=model_inputs(picked),
        spans=[spans[i] for i in chosen.tolist()],
        groups=picked[SHORTCUT].astype(str).tolist() if two_sided else [CUE] * len(picked),
        part=SECOND if column == TEXT_PAIR else FIRST,
        available=len(carrying),
    )
