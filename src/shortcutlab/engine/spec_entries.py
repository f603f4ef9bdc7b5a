"""The parts of an experiment spec that every grid family shares: dataset and model entries.

Each parser checks its entry up front and names its place in the file on an error; file entries
are fingerprinted by content, so a changed data file gives a new spec hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.data.options import InputOptions
from shortcutlab.engine.dataset_entry import (
    column_name,
    dataset_labels,
    file_dataset_name,
    group_split,
)
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.errors import ConfigError, InputFileError
from shortcutlab.names import spec_name
from shortcutlab.params import (
    PATH_LIMIT,
    as_list,
    check_keys,
    choice,
    is_finite_number,
    natural,
    non_empty_string,
    quoted,
    refuse,
    spec_key,
    unique,
)
from shortcutlab.yaml_reading import read_yaml_file

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
    "split_by",
    "test_size",
)
BUILTIN_DATA_KEYS = ("name", "builtin", "train_size", "test_size", "levels", "seed")
BUILTINS = ("reviews",)
MODEL_ENGINE_KEYS = ("name", "id", "resources")
RESOURCE_KEYS = ("cpus", "gpus")
#: The most CPUs or GPUs one cell may ask for: a cell pins its thread count through a C int.
MAX_RESOURCES = 1024
#: The most rows of each generated split: the built-in corpus is held in memory.
MAX_BUILTIN_ROWS = 10_000_000


#: A file entry's keys that say how its tables are read -> the :class:`InputOptions` field each sets.
READING_KEYS = {
    "text": "text_col",
    "label": "label_col",
    "text_pair": "text_pair_col",
    "encoding": "encoding",
    "on_empty": "on_empty",
}


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset of the grid: files (``train``/``test``, read with ``inputs``) or a built-in
    generated corpus."""

    name: str
    builtin: str | None = None
    train: str | None = None
    test: str | None = None
    inputs: InputOptions = field(default_factory=InputOptions)
    labels: tuple[Any, ...] | None = None
    distractors: dict[str, dict[str, str]] = field(default_factory=dict)
    generator: dict[str, int] = field(default_factory=dict)
    fingerprint: str = ""
    base_dir: str = "."
    #: A column to split ``train`` by (each value on one side), and the test side's share.
    split_by: str | None = None
    test_size: float | None = None

    def resolve(self, written: str) -> str:
        """A data path as written in the spec, resolved against the spec's folder."""
        path_part, sep, split = written.partition("::")
        path = Path(path_part) if Path(path_part).is_absolute() else Path(self.base_dir) / path_part
        return f"{path}{sep}{split}"

    def resolved(self) -> dict[str, Any]:
        if self.builtin:
            return {"name": self.name, "builtin": self.builtin, **self.generator}
        # The split keys only when set: the specs stored before them keep their hashes.
        split = {"split_by": self.split_by, "test_size": self.test_size} if self.split_by else {}
        return {
            "name": self.name,
            "train": self.train,
            "test": self.test,
            **split,
            "text": self.inputs.text_col,
            "label": self.inputs.label_col,
            "text_pair": self.inputs.text_pair_col,
            "labels": list(self.labels) if self.labels else None,
            "encoding": self.inputs.encoding,
            "on_empty": self.inputs.on_empty,
            "distractors": self.distractors or None,
            "sha256": self.fingerprint,
        }


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


def parse_dataset(entry: Any, where: str, base: Path, *, test_required: bool = True) -> DatasetSpec:
    """A ``data`` entry: files (``train`` and ``test``; ``test`` optional where not required) or a
    built-in generated corpus."""
    if not isinstance(entry, dict):
        raise ConfigError(
            f"{where} must be a mapping with 'train' and 'test' (or 'builtin'). Got {quoted(entry)}."
        )
    if "builtin" in entry:
        check_keys(entry, BUILTIN_DATA_KEYS, where)
        builtin = choice(entry["builtin"], BUILTINS, f"{where}: builtin")
        generator = {
            size: natural(
                entry.get(size, default), f"{where}: {size}", minimum=10, maximum=MAX_BUILTIN_ROWS
            )
            for size, default in (("train_size", 4000), ("test_size", 2000))
        } | {
            "levels": natural(entry.get("levels", 5), f"{where}: levels"),
            "seed": natural(entry.get("seed", 0), f"{where}: seed"),
        }
        if generator["levels"] not in (4, 5):
            raise ConfigError(f"{where}: levels must be 4 or 5. Got {generator['levels']}.")
        return DatasetSpec(
            name=spec_name(entry.get("name", builtin), f"{where}: name"),
            builtin=builtin,
            generator=generator,
            fingerprint=canonical_hash(generator),
        )
    check_keys(entry, FILE_DATA_KEYS, where)
    split_by, test_size = group_split(entry, where)
    test_required = test_required and split_by is None
    for key in ("train", "test") if test_required else ("train",):
        if key not in entry:
            raise ConfigError(
                f"{where} has no '{key}' file. Give both 'train' and 'test' (or 'train' and "
                "split_by: COLUMN), or 'builtin: reviews'."
                if test_required
                else f"{where} has no 'train' file (the pool). Give 'train' (and optionally "
                "'test'), or 'builtin: reviews'."
            )
    files = {
        key: existing_path(entry[key], base, f"{where}: {key}")
        for key in ("train", "test")
        if key in entry
    }
    distractors: dict[str, dict[str, str]] = {}
    resolved_distractors: list[Path] = []
    given_distractors = entry.get("distractors") or {}
    if not isinstance(given_distractors, dict):
        raise refuse(
            spec_key(f"{where}: distractors"), "a mapping of aspect: path", given_distractors
        )
    for aspect, paths in given_distractors.items():
        paths = {"train": paths} if isinstance(paths, str) else paths
        if not isinstance(paths, dict):
            raise ConfigError(
                f"{where}: distractors.{aspect} must be a path or a mapping with 'train' (and 'test')."
            )
        check_keys(paths, ("train", "test"), f"{where}: distractors.{aspect}")
        for role, written in paths.items():
            resolved_distractors.append(
                existing_path(written, base, f"{where}: distractors.{aspect}.{role}")
            )
        distractors[str(aspect)] = {role: str(written) for role, written in paths.items()}
    digest = hashlib.sha256()
    for path in [*files.values(), *resolved_distractors]:
        digest.update(file_digest(path).encode())
    labels = dataset_labels(entry.get("labels"), f"{where}: labels")
    return DatasetSpec(
        name=file_dataset_name(entry, where, base),
        train=str(entry["train"]),
        test=str(entry["test"]) if "test" in entry else None,
        inputs=_reading_options(entry, where),
        labels=labels,
        distractors=distractors,
        fingerprint=digest.hexdigest(),
        base_dir=str(base),
        split_by=split_by,
        test_size=test_size,
    )


def _reading_options(entry: Mapping[str, Any], where: str) -> InputOptions:
    """How a file entry's tables are read (the defaults of :class:`InputOptions` where a key is
    not given)."""
    given = {name: entry[key] for key, name in READING_KEYS.items() if key in entry}
    for key, name in READING_KEYS.items():
        if name in ("text_col", "label_col", "text_pair_col") and given.get(name) is not None:
            given[name] = column_name(given[name], f"{where}: {key}")
    if "encoding" in given:
        given["encoding"] = non_empty_string(given["encoding"], f"{where}: encoding")
    if "on_empty" in given:
        given["on_empty"] = choice(given["on_empty"], ("drop", "error"), f"{where}: on_empty")
    return InputOptions(**given)


def file_digest(path: Path) -> str:
    if path.is_dir():
        digest = hashlib.sha256()
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(str(file.relative_to(path)).encode())
            digest.update(file.read_bytes())
        return digest.hexdigest()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def existing_path(value: Any, base: Path, where: str) -> Path:
    written = non_empty_string(value, where)
    path_part = written.split("::")[0]
    path = Path(path_part) if Path(path_part).is_absolute() else base / path_part
    if not path.exists():
        raise InputFileError(
            f"{where} names {quoted(written)}, which does not exist (looked for {quoted(str(path), PATH_LIMIT)})."
        )
    return path


def named_entry(entry: Any, where: str, registry: Any, shape: str) -> tuple[dict[str, Any], str]:
    """A spec entry as a mapping with a registered ``name`` (a bare string is shorthand for the name)."""
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict) or "name" not in entry:
        raise ConfigError(f"{where} must be {shape}. Got {quoted(entry)}.")
    name = non_empty_string(entry["name"], f"{where}: name")
    if name not in registry:
        raise ConfigError(f"{where}: {registry.unknown_message(name)}")
    return entry, name


def parse_model(
    entry: Any,
    where: str,
    registry: Any,
    base: Path,
    *,
    engine_keys: tuple[str, ...] = MODEL_ENGINE_KEYS,
) -> ModelSpec:
    """A ``models`` entry; ``engine_keys`` are the keys that are not constructor parameters."""
    entry, name = named_entry(
        entry, where, registry, "a mapping with 'name' and the model's parameters"
    )
    params = {k: v for k, v in entry.items() if k not in engine_keys}
    allowed = [p for p in registry.parameters(name) if p != "seed"]
    check_keys(params, [*allowed, *engine_keys], f"{where} ({name})")
    resources = entry.get("resources") or {}
    if not isinstance(resources, dict):
        raise ConfigError(
            f"{where}: resources must be a mapping like {{cpus: 2, gpus: 1}}. Got {quoted(resources)}."
        )
    check_keys(resources, RESOURCE_KEYS, f"{where}: resources")
    cpus, gpus = resources.get("cpus", 1), resources.get("gpus", 0)
    for key, value, low in (("cpus", cpus, "(0"), ("gpus", gpus, "[0")):
        in_range = is_finite_number(value) and (value > 0 if key == "cpus" else value >= 0)
        if not (in_range and value <= MAX_RESOURCES):
            raise refuse(
                spec_key(f"{where}: resources: {key}"),
                f"a number in {low}, {MAX_RESOURCES}]",
                value,
            )
    return ModelSpec(
        id=spec_name(entry.get("id", name), f"{where}: id"),
        name=name,
        params=params,
        cpus=float(cpus),
        gpus=float(gpus),
        base_dir=str(base),
    )


def read_spec_file(path: str | Path) -> dict[str, Any]:
    """The mapping of a YAML spec file (a one-line error for a missing file or invalid YAML)."""
    path = Path(path)
    if not path.is_file():
        raise InputFileError(f"The spec file '{path}' does not exist. Check the path.")
    raw = read_yaml_file(path)
    if not isinstance(raw, dict):
        raise ConfigError(
            f"'{path}' must hold a mapping of keys (name, data, shortcuts, ...). Got {type(raw).__name__}."
        )
    return raw


def parse_datasets(
    raw: Mapping[str, Any], source: str, base: Path, *, test_required: bool = True
) -> list[DatasetSpec]:
    """The ``data`` (one) or ``datasets`` (a list) entries, with unique names."""
    if ("data" in raw) == ("datasets" in raw):
        raise ConfigError(
            f"{source} needs exactly one of 'data' (one dataset) or 'datasets' (a list)."
        )
    entries = [raw["data"]] if "data" in raw else as_list(raw["datasets"], f"{source}: datasets")
    datasets = [
        parse_dataset(
            entry,
            f"{source}: {'data' if 'data' in raw else f'datasets[{i}]'}",
            base,
            test_required=test_required,
        )
        for i, entry in enumerate(entries)
    ]
    unique([d.name for d in datasets], f"{source}: datasets", "name")
    return datasets


def parse_models(
    raw: Mapping[str, Any],
    source: str,
    base: Path,
    *,
    engine_keys: tuple[str, ...] = MODEL_ENGINE_KEYS,
) -> list[ModelSpec]:
    """The ``models`` entries, with unique ids."""
    from shortcutlab.models import MODELS

    models = [
        parse_model(entry, f"{source}: models[{i}]", MODELS, base, engine_keys=engine_keys)
        for i, entry in enumerate(as_list(raw["models"], f"{source}: models"))
    ]
    unique(
        [m.id for m in models],
        f"{source}: models",
        "id (give two configs of one model distinct 'id's)",
    )
    return models


def parse_seeds(raw: Mapping[str, Any], source: str) -> list[int]:
    """The ``seeds`` list (default 0..4), unique non-negative integers."""
    seeds = [
        natural(v, f"{source}: seeds[{i}]")
        for i, v in enumerate(as_list(raw.get("seeds", [0, 1, 2, 3, 4]), f"{source}: seeds"))
    ]
    unique(seeds, f"{source}: seeds", "value")
    return seeds
