"""Re-draw a benchmark with another build seed (``vary: data``/``both``), each build made once.

A saved benchmark is re-drawn from the inputs and arguments its manifest records; the inputs must
still hash to the recorded sha256, or the re-draw would not be the same benchmark design. Re-drawn
builds of a saved benchmark are kept in ``BENCHMARK/redraws/seed-N`` and reused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.existing_splits import EXISTING_SPLITS
from shortcutlab.data.loading import TEXT, LoadedTable, load_table
from shortcutlab.data.options import InputOptions
from shortcutlab.errors import ConfigError, DataError, InputFileError, knob
from shortcutlab.families.maze import FAMILY
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.distractors import distractor_from_files, distractors_from_columns
from shortcutlab.shortcuts import SHORTCUTS, make_shortcut

Rebuild = Callable[[int], Benchmark]
REDRAWS = "redraws"


class Builds:
    """The benchmark of each build seed: ``base`` for its own seed, every other one re-drawn once."""

    def __init__(self, base: Benchmark, rebuild: Rebuild | None = None) -> None:
        self.base = base
        self._rebuild = rebuild
        self._built: dict[int, Benchmark] = {base_seed(base): base}

    def get(self, seed: int) -> Benchmark:
        if seed not in self._built:
            self._built[seed] = self._cached(seed) or self._draw(seed)
        return self._built[seed]

    def _folder(self, seed: int) -> Path | None:
        return self.base.path / REDRAWS / f"seed-{seed}" if self.base.path else None

    def _cached(self, seed: int) -> Benchmark | None:
        folder = self._folder(seed)
        if folder is None or not (folder / MANIFEST).exists():
            return None
        cached = Benchmark.load(folder)
        return (
            cached if _design(cached) == _design(self.base) and base_seed(cached) == seed else None
        )

    def _draw(self, seed: int) -> Benchmark:
        if self._rebuild is None:
            self._rebuild = redraw_from_manifest(self.base)
        benchmark = self._rebuild(seed)
        folder = self._folder(seed)
        if folder is not None:
            benchmark.save(
                folder, fmt=self.base.manifest["arguments"].get("format", "csv"), overwrite=True
            )
        return benchmark


def check_manifest(benchmark: Benchmark) -> None:
    """Refuse a Maze benchmark folder whose manifest lacks what evaluating it reports (the
    shortcut, its strength, the build seed): before the fit, not after it."""
    where = f"'{benchmark.path / MANIFEST}'" if benchmark.path is not None else "The manifest"
    arguments = benchmark.manifest.get("arguments")
    if not isinstance(arguments, dict):
        raise DataError(
            f"{where} has no 'arguments' object (the build's options); rebuild the benchmark "
            "with 'shortcutlab build maze'."
        )
    wanted = {
        "arguments.shortcut": (arguments.get("shortcut"), "the shortcut type's name", str),
        "arguments.strength": (arguments.get("strength"), "a number in [0, 1]", int | float),
        "seed": (benchmark.manifest.get("seed", 0), "an integer", int),
    }
    # Split files evaluated as they are may not know their shortcut or λ: unknown, shown as —.
    unknown_allowed = benchmark.manifest.get("kind") == EXISTING_SPLITS
    for name, (value, meaning, kind) in wanted.items():
        if value is None and unknown_allowed and name != "seed":
            continue
        if value is None or isinstance(value, bool) or not isinstance(value, kind):
            got = "it is missing" if value is None else f"got {type(value).__name__}"
            raise DataError(
                f"{where} lacks '{name}' ({meaning}; {got}). Rebuild the benchmark with "
                "'shortcutlab build maze', or restore the manifest it wrote."
            )


def check_redrawable(benchmark: Benchmark, vary: str) -> None:
    """Refuse ``vary`` data or both on split files evaluated as they are, even with one seed:
    no seed can re-draw them, so a run that says it varied the data would mislead."""
    if vary != "model" and benchmark.manifest.get("kind") == EXISTING_SPLITS:
        raise ConfigError(
            "Split files evaluated as they are cannot be re-drawn per seed (vary: data or both): "
            "nothing records how they were built. Use vary: model (--vary model)."
        )


def base_seed(benchmark: Benchmark) -> int:
    return int(benchmark.manifest.get("seed", 0))


def redraw_from_manifest(benchmark: Benchmark) -> Rebuild:
    """A function seed -> the same benchmark design built with that seed, from the recorded inputs."""
    manifest = benchmark.manifest
    check_redrawable(benchmark, "data")
    if manifest.get("kind") != FAMILY.manifest_kind or "inputs" not in manifest:
        raise ConfigError(
            f"Re-drawing a benchmark per seed ({_vary()}) needs a Shortcut Maze benchmark whose "
            f"manifest records its inputs. Use {knob('vary', 'model')}, or rebuild it with "
            "'shortcutlab build maze'."
        )
    arguments = manifest["arguments"]
    inputs = InputOptions.from_record(arguments)
    tables = {role: _reload(manifest["inputs"][role], role, inputs) for role in ("train", "test")}
    options = dict(arguments.get("shortcut_options") or {})
    distractors = _distractors(options.pop("distractors", None), inputs)
    if arguments["shortcut"] in SHORTCUTS.having("family", "concept"):
        options["distractors"] = (
            distractors
            if distractors is not None
            else distractors_from_columns(tables["train"], tables["test"])
        )
    injector = make_shortcut(arguments["shortcut"], options)  # shared: each seed reuses its work

    def build(seed: int) -> Benchmark:
        return build_maze_benchmark(
            tables["train"],
            tables["test"],
            shortcut=injector,
            strength=arguments["strength"],
            strength_mode=arguments["strength_mode"],
            test_strength=arguments["test_strength"],
            sampling=arguments["sampling"],
            schedule=arguments.get("schedule"),
            seed=seed,
            val_size=arguments["val_size"],
            labels=arguments.get("labels"),
            inject_on=arguments.get("inject_on", TEXT),
            inputs=inputs,
        )

    return build


def _vary() -> str:
    return f"{knob('vary', 'data')} or {knob('vary', 'both')}"


def _reload(record: dict[str, Any], role: str, inputs: InputOptions) -> LoadedTable:
    path = record.get("path")
    if path is None:
        raise ConfigError(
            f"Re-drawing the benchmark ({_vary()}) needs its {role} input file, but it was "
            f"built from an in-memory table. Build it from files, or pass rebuild= to evaluate_benchmark."
        )
    if not Path(path).exists():
        raise InputFileError(
            f"Re-drawing the benchmark ({_vary()}) needs its {role} input '{path}' "
            f"(recorded in {MANIFEST}), which does not exist here. Run from the folder it was built in."
        )
    table = load_table(path, split=record.get("split"), role=role, **inputs.reading())
    if table.source.sha256 != record.get("sha256"):
        raise DataError(
            f"The {role} input '{path}' has changed since the benchmark was built (its sha256 differs "
            f"from {MANIFEST}), so a re-draw would not be the same benchmark. Restore it or rebuild."
        )
    return table


def _distractors(recorded: dict[str, Any] | None, inputs: InputOptions) -> dict[str, Any] | None:
    """Distractors read from files are read again; column pools come back with the tables."""
    if not recorded or all(
        str(pools["train"]["source"]).startswith("column ") for pools in recorded.values()
    ):
        return None
    rebuilt = {}
    for name, pools in recorded.items():
        rebuilt[name] = distractor_from_files(
            name,
            pools["train"]["source"],
            pools["test"]["source"],
            text_col=inputs.text_col,
            label_col=inputs.label_col,
            encoding=inputs.encoding,
        )
        # The manifest records no hash of distractor files, only their sizes: check those.
        if rebuilt[name].to_json() != pools:
            raise DataError(
                f"The distractor files of '{name}' ({pools['train']['source']}) have changed since "
                f"the benchmark was built (row counts differ from {MANIFEST}). Restore them or rebuild."
            )
    return rebuilt


def _design(benchmark: Benchmark) -> tuple[Any, Any]:
    """Everything that defines a benchmark except its seed (and the file format)."""
    arguments = {
        k: v
        for k, v in benchmark.manifest.get("arguments", {}).items()
        if k not in ("seed", "format")
    }
    return arguments, benchmark.manifest.get("inputs")
