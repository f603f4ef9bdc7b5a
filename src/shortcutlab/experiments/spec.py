"""Experiment specs: a YAML grid (datasets x shortcuts x strengths x models x seeds) as dataclasses.

Every key is checked up front; an unknown key or value names its place in the file, the close
matches and the allowed values. The resolved spec (defaults filled in) is stored with the results,
and its hash tells whether a run folder belongs to this spec.

Examples:
    >>> spec = parse_spec({"data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
    ...                    "shortcuts": ["single-term"], "strengths": [1.0], "models": [{"name": "majority"}]})
    >>> [d.name for d in spec.datasets], spec.seeds
    (['reviews'], [0, 1, 2, 3, 4])
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from shortcutlab.errors import ConfigError, InputFileError
from shortcutlab.experiments.replicates import VARY
from shortcutlab.experiments.spec_values import (
    as_list,
    bootstrap,
    check_keys,
    choice,
    natural,
    unique,
    unit_interval,
    val_size,
)
from shortcutlab.shortcuts.schedule import SAMPLING, STRENGTH_MODES

TOP_KEYS = (
    "name",
    "data",
    "datasets",
    "shortcuts",
    "strengths",
    "strength_mode",
    "test_strength",
    "sampling",
    "val_size",
    "build_seed",
    "vary",
    "models",
    "seeds",
    "bootstrap",
)
FILE_DATA_KEYS = (
    "name",
    "train",
    "test",
    "text",
    "label",
    "text_pair",
    "labels",
    "encoding",
    "on_empty",
    "distractors",
)
BUILTIN_DATA_KEYS = ("name", "builtin", "train_size", "test_size", "levels", "seed")
BUILTINS = ("reviews",)
MODEL_ENGINE_KEYS = ("name", "id", "resources")
RESOURCE_KEYS = ("cpus", "gpus")


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset of the grid: files (``train``/``test``) or a built-in generated corpus."""

    name: str
    builtin: str | None = None
    train: str | None = None
    test: str | None = None
    text: str = "text"
    label: str = "label"
    text_pair: str | None = None
    labels: tuple[Any, ...] | None = None
    encoding: str = "utf-8"
    on_empty: str = "drop"
    distractors: dict[str, dict[str, str]] = field(default_factory=dict)
    generator: dict[str, int] = field(default_factory=dict)
    fingerprint: str = ""
    base_dir: str = "."

    def resolve(self, written: str) -> str:
        """A data path as written in the spec, resolved against the spec's folder."""
        path_part, sep, split = written.partition("::")
        path = Path(path_part) if Path(path_part).is_absolute() else Path(self.base_dir) / path_part
        return f"{path}{sep}{split}"

    def resolved(self) -> dict[str, Any]:
        if self.builtin:
            return {"name": self.name, "builtin": self.builtin, **self.generator}
        return {
            "name": self.name,
            "train": self.train,
            "test": self.test,
            "text": self.text,
            "label": self.label,
            "text_pair": self.text_pair,
            "labels": list(self.labels) if self.labels else None,
            "encoding": self.encoding,
            "on_empty": self.on_empty,
            "distractors": self.distractors or None,
            "sha256": self.fingerprint,
        }


@dataclass(frozen=True)
class ShortcutSpec:
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    files_sha256: str = ""  # contents of the files an option names (style rewrites), when any
    base_dir: str = "."

    def resolved(self) -> dict[str, Any]:
        return {
            "name": self.name,
            **self.options,
            **({"files_sha256": self.files_sha256} if self.files_sha256 else {}),
        }

    def constructor_options(self) -> dict[str, Any]:
        """``options`` with the rewrite files' relative paths resolved against the spec's folder."""
        options = dict(self.options)
        if isinstance(options.get("rewrites"), dict):
            options["rewrites"] = _map_paths(
                options["rewrites"], lambda path: str(_resolved_path(path, Path(self.base_dir)))
            )
        return options


@dataclass(frozen=True)
class ModelSpec:
    """A model configuration: registry ``name``, constructor ``params``, resource requests."""

    id: str
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    cpus: float = 1.0
    gpus: float = 0.0
    base_dir: str = "."

    def constructor_params(self) -> dict[str, Any]:
        """``params`` with a relative local ``path`` resolved against the spec's folder."""
        params = dict(self.params)
        path = params.get("path")
        if (
            isinstance(path, str)
            and not Path(path).is_absolute()
            and (Path(self.base_dir) / path).exists()
        ):
            params["path"] = str(Path(self.base_dir) / path)
        return params

    def resolved(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            **self.params,
            "resources": {"cpus": self.cpus, "gpus": self.gpus},
        }


@dataclass(frozen=True)
class ExperimentSpec:
    name: str
    datasets: list[DatasetSpec]
    shortcuts: list[ShortcutSpec]
    strengths: list[float]
    models: list[ModelSpec]
    seeds: list[int] = field(default_factory=lambda: [0, 1, 2, 3, 4])
    strength_mode: str = "mix"
    test_strength: float | str = 1.0  # or "same": the training λ, as the released files
    sampling: str = "exact"
    val_size: float = 0.1
    build_seed: int = 0
    vary: str = "model"
    bootstrap: int = 1000
    base_dir: str = "."

    def resolved(self) -> dict[str, Any]:
        """The spec with every default filled in, as stored with the results."""
        return {
            "name": self.name,
            "datasets": [d.resolved() for d in self.datasets],
            "shortcuts": [s.resolved() for s in self.shortcuts],
            "strengths": self.strengths,
            "strength_mode": self.strength_mode,
            "test_strength": self.test_strength,
            "sampling": self.sampling,
            "val_size": self.val_size,
            "build_seed": self.build_seed,
            "vary": self.vary,
            "models": [m.resolved() for m in self.models],
            "seeds": self.seeds,
            "bootstrap": self.bootstrap,
        }

    def fingerprint(self) -> str:
        return canonical_hash(self.resolved())


def canonical_hash(payload: Any) -> str:
    return hashlib.sha256(
        json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()


def load_spec(path: str | Path) -> ExperimentSpec:
    """Read and validate a YAML spec; relative data and model paths are relative to the file."""
    path = Path(path)
    if not path.is_file():
        raise InputFileError(f"The spec file '{path}' does not exist. Check the path.")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(
            f"'{path}' is not valid YAML{where}: {getattr(exc, 'problem', exc)}."
        ) from exc
    if not isinstance(raw, dict):
        raise ConfigError(
            f"'{path}' must hold a mapping of keys (name, data, shortcuts, ...). Got {type(raw).__name__}."
        )
    return parse_spec(raw, source=path.name, base_dir=path.parent)


def parse_spec(
    raw: Mapping[str, Any], *, source: str = "spec", base_dir: str | Path = "."
) -> ExperimentSpec:
    """Validate a spec mapping (as read from YAML) into an :class:`ExperimentSpec`."""
    from shortcutlab.models import MODELS
    from shortcutlab.shortcuts import SHORTCUTS

    check_keys(raw, TOP_KEYS, source)
    base = Path(base_dir)
    for required in ("shortcuts", "strengths", "models"):
        if required not in raw:
            raise ConfigError(f"{source} has no '{required}' key; a grid needs it.")
    if ("data" in raw) == ("datasets" in raw):
        raise ConfigError(
            f"{source} needs exactly one of 'data' (one dataset) or 'datasets' (a list)."
        )
    entries = [raw["data"]] if "data" in raw else as_list(raw["datasets"], f"{source}: datasets")
    datasets = [
        _dataset(entry, f"{source}: {'data' if 'data' in raw else f'datasets[{i}]'}", base)
        for i, entry in enumerate(entries)
    ]
    unique([d.name for d in datasets], f"{source}: datasets", "name")

    shortcuts = [
        _shortcut(entry, f"{source}: shortcuts[{i}]", SHORTCUTS, base)
        for i, entry in enumerate(as_list(raw["shortcuts"], f"{source}: shortcuts"))
    ]
    unique([canonical_hash(s.resolved()) for s in shortcuts], f"{source}: shortcuts", "entry")
    models = [
        _model(entry, f"{source}: models[{i}]", MODELS, base)
        for i, entry in enumerate(as_list(raw["models"], f"{source}: models"))
    ]
    unique(
        [m.id for m in models],
        f"{source}: models",
        "id (give two configs of one model distinct 'id's)",
    )
    strengths = [
        unit_interval(v, f"{source}: strengths[{i}]")
        for i, v in enumerate(as_list(raw["strengths"], f"{source}: strengths"))
    ]
    unique(strengths, f"{source}: strengths", "value")
    seeds = [
        natural(v, f"{source}: seeds[{i}]")
        for i, v in enumerate(as_list(raw.get("seeds", [0, 1, 2, 3, 4]), f"{source}: seeds"))
    ]
    unique(seeds, f"{source}: seeds", "value")
    strength_mode = choice(
        raw.get("strength_mode", "mix"), STRENGTH_MODES, f"{source}: strength_mode"
    )
    for shortcut in shortcuts:  # a shortcut refuses split options it cannot honour
        check_split_options = getattr(SHORTCUTS.get(shortcut.name), "check_split_options", None)
        if check_split_options is not None:
            check_split_options(strength_mode=strength_mode, schedule=None)
    return ExperimentSpec(
        name=str(raw.get("name", "experiment")),
        datasets=datasets,
        shortcuts=shortcuts,
        strengths=strengths,
        models=models,
        seeds=seeds,
        strength_mode=strength_mode,
        test_strength=_test_strength(raw.get("test_strength", 1.0), f"{source}: test_strength"),
        sampling=choice(raw.get("sampling", "exact"), SAMPLING, f"{source}: sampling"),
        val_size=val_size(raw.get("val_size", 0.1), f"{source}: val_size"),
        build_seed=natural(raw.get("build_seed", 0), f"{source}: build_seed"),
        vary=choice(raw.get("vary", "model"), VARY, f"{source}: vary"),
        bootstrap=bootstrap(raw.get("bootstrap", 1000), f"{source}: bootstrap"),
        base_dir=str(base),
    )


def _test_strength(value: Any, where: str) -> float | str:
    if value == "same":
        return "same"
    if isinstance(value, str):
        raise ConfigError(f"{where} must be a number in [0, 1] or 'same'. Got {value!r}.")
    return unit_interval(value, where)


def _dataset(entry: Any, where: str, base: Path) -> DatasetSpec:
    if not isinstance(entry, dict):
        raise ConfigError(
            f"{where} must be a mapping with 'train' and 'test' (or 'builtin'). Got {entry!r}."
        )
    if "builtin" in entry:
        check_keys(entry, BUILTIN_DATA_KEYS, where)
        builtin = choice(entry["builtin"], BUILTINS, f"{where}: builtin")
        generator = {
            "train_size": natural(
                entry.get("train_size", 4000), f"{where}: train_size", minimum=10
            ),
            "test_size": natural(entry.get("test_size", 2000), f"{where}: test_size", minimum=10),
            "levels": natural(entry.get("levels", 5), f"{where}: levels"),
            "seed": natural(entry.get("seed", 0), f"{where}: seed"),
        }
        if generator["levels"] not in (4, 5):
            raise ConfigError(f"{where}: levels must be 4 or 5. Got {generator['levels']}.")
        return DatasetSpec(
            name=str(entry.get("name", builtin)),
            builtin=builtin,
            generator=generator,
            fingerprint=canonical_hash(generator),
        )
    check_keys(entry, FILE_DATA_KEYS, where)
    for key in ("train", "test"):
        if key not in entry:
            raise ConfigError(
                f"{where} has no '{key}' file. Give both 'train' and 'test', or 'builtin: reviews'."
            )
    files = {key: _existing(entry[key], base, f"{where}: {key}") for key in ("train", "test")}
    distractors: dict[str, dict[str, str]] = {}
    resolved_distractors: list[Path] = []
    for aspect, paths in (entry.get("distractors") or {}).items():
        paths = {"train": paths} if isinstance(paths, str) else paths
        if not isinstance(paths, dict):
            raise ConfigError(
                f"{where}: distractors.{aspect} must be a path or a mapping with 'train' (and 'test')."
            )
        check_keys(paths, ("train", "test"), f"{where}: distractors.{aspect}")
        for role, written in paths.items():
            resolved_distractors.append(
                _existing(written, base, f"{where}: distractors.{aspect}.{role}")
            )
        distractors[str(aspect)] = {role: str(written) for role, written in paths.items()}
    digest = hashlib.sha256()
    for path in [files["train"], files["test"], *resolved_distractors]:
        digest.update(_file_digest(path).encode())
    labels = entry.get("labels")
    return DatasetSpec(
        name=str(entry.get("name", Path(str(entry["train"])).parent.name or "data")),
        train=str(entry["train"]),
        test=str(entry["test"]),
        text=str(entry.get("text", "text")),
        label=str(entry.get("label", "label")),
        text_pair=entry.get("text_pair"),
        labels=tuple(labels) if labels else None,
        encoding=str(entry.get("encoding", "utf-8")),
        on_empty=choice(entry.get("on_empty", "drop"), ("drop", "error"), f"{where}: on_empty"),
        distractors=distractors,
        fingerprint=digest.hexdigest(),
        base_dir=str(base),
    )


def _file_digest(path: Path) -> str:
    if path.is_dir():
        digest = hashlib.sha256()
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(str(file.relative_to(path)).encode())
            digest.update(file.read_bytes())
        return digest.hexdigest()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _existing(value: Any, base: Path, where: str) -> Path:
    text = str(value)
    path_part = text.split("::")[0]
    path = Path(path_part) if Path(path_part).is_absolute() else base / path_part
    if not path.exists():
        raise InputFileError(f"{where} names '{text}', which does not exist (looked for '{path}').")
    return path


def _named_entry(entry: Any, where: str, registry: Any, shape: str) -> tuple[dict[str, Any], str]:
    """A spec entry as a mapping with a registered ``name`` (a bare string is shorthand for the name)."""
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict) or "name" not in entry:
        raise ConfigError(f"{where} must be {shape}. Got {entry!r}.")
    name = str(entry["name"])
    if name not in registry:
        raise ConfigError(f"{where}: {registry.unknown_message(name)}")
    return entry, name


def _shortcut(entry: Any, where: str, registry: Any, base: Path) -> ShortcutSpec:
    entry, name = _named_entry(
        entry, where, registry, "a shortcut name or a mapping with 'name' and its options"
    )
    options = {k: v for k, v in entry.items() if k != "name"}
    check_keys(options, registry.parameters(name), f"{where} ({name})")
    digest = ""
    if isinstance(options.get("rewrites"), dict):
        hashes: list[str] = []

        def existing(path: Any) -> Any:
            hashes.append(_file_digest(_existing(path, base, f"{where}: rewrites")))
            return path

        _map_paths(options["rewrites"], existing)
        digest = hashlib.sha256("".join(hashes).encode()).hexdigest()
    return ShortcutSpec(name=name, options=options, files_sha256=digest, base_dir=str(base))


def _map_paths(rewrites: dict[str, Any], function: Any) -> dict[str, Any]:
    """Apply ``function`` to every path of a ``{style: path | {train: path, test: path}}`` mapping."""
    return {
        style: {role: function(path) for role, path in paths.items()}
        if isinstance(paths, dict)
        else function(paths)
        for style, paths in rewrites.items()
    }


def _resolved_path(value: Any, base: Path) -> Path:
    path = Path(str(value))
    return path if path.is_absolute() else base / path


def _model(entry: Any, where: str, registry: Any, base: Path) -> ModelSpec:
    entry, name = _named_entry(
        entry, where, registry, "a mapping with 'name' and the model's parameters"
    )
    params = {k: v for k, v in entry.items() if k not in MODEL_ENGINE_KEYS}
    allowed = [p for p in registry.parameters(name) if p != "seed"]
    check_keys(params, [*allowed, *MODEL_ENGINE_KEYS], f"{where} ({name})")
    resources = entry.get("resources") or {}
    if not isinstance(resources, dict):
        raise ConfigError(
            f"{where}: resources must be a mapping like {{cpus: 2, gpus: 1}}. Got {resources!r}."
        )
    check_keys(resources, RESOURCE_KEYS, f"{where}: resources")
    cpus, gpus = resources.get("cpus", 1), resources.get("gpus", 0)
    for key, value, minimum in (("cpus", cpus, 1e-9), ("gpus", gpus, 0)):
        if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
            raise ConfigError(
                f"{where}: resources.{key} must be a {'positive' if minimum else 'non-negative'} number. Got {value!r}."
            )
    return ModelSpec(
        id=str(entry.get("id", name)),
        name=name,
        params=params,
        cpus=float(cpus),
        gpus=float(gpus),
        base_dir=str(base),
    )
