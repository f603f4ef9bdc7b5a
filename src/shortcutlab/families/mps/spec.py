"""MPS grid specs (``family: mps``): datasets x attributes x models x seeds, as dataclasses.

An MPS cell (paper 002, section 2.2) builds Imbalanced / Balanced / test splits around one
attribute of a pool of labelled rows and fits the model on each training split. Every key is
checked up front, as for Maze specs; attribute options are checked against the ``attributes``
registry, build options (``mps:``) by type here and against the data by the builder.

Examples:
    >>> spec = parse_mps_spec({"family": "mps", "data": {"builtin": "reviews"},
    ...     "attributes": ["negation", {"name": "question"}], "models": ["tfidf-svm"], "seeds": [0]})
    >>> [a.label for a in spec.attributes], spec.cross_test
    (['negation', 'question'], True)
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.attributes import ATTRIBUTES, make_attribute
from shortcutlab.engine.mitigation_spec import (
    MITIGATION_KEYS,
    MitigationSettings,
    MitigationSpec,
    check_mitigation_plan,
    check_no_epoch_averaging,
    parse_mitigation_settings,
)
from shortcutlab.engine.replicates import VARY
from shortcutlab.engine.spec_entries import (
    MODEL_ENGINE_KEYS,
    DatasetSpec,
    ModelSpec,
    existing_path,
    file_digest,
    named_entry,
    parse_datasets,
    parse_models,
    parse_seeds,
)
from shortcutlab.engine.spec_identity import canonical_hash, component_record, option_label
from shortcutlab.engine.tracking import TRACKING_KEY, TrackingTarget, spec_tracking
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.groups import MPS_GROUP
from shortcutlab.names import spec_name
from shortcutlab.params import (
    as_list,
    boolean,
    bootstrap,
    check_keys,
    choice,
    natural,
    refuse,
    spec_key,
    unique,
    val_size,
)

MPS_TOP_KEYS = (
    "family",
    "name",
    "data",
    "datasets",
    "attributes",
    "mps",
    "models",
    "seeds",
    "vary",
    "build_seed",
    "bootstrap",
    "cross_test",
    "min_group_size",
    TRACKING_KEY,
    *MITIGATION_KEYS,
)
BUILD_KEYS = (
    "dominance",
    "size",
    "test_size",
    "validation_size",
    "top_values",
    "values",
    "dominant",
    "dominant_labels",
    "label_mix",
)
#: Not a constructor parameter: the paper averages the metrics of the last epochs (section 3).
AVERAGE_LAST_EPOCHS = "average_last_epochs"
FILE_SUFFIXES = (".yaml", ".yml", ".txt", ".csv", ".tsv", ".json", ".jsonl")
#: Traditional (label, value) groups with fewer test rows are reported but not used (A.5.2).
MIN_GROUP_SIZE = 10


@dataclass(frozen=True)
class AttributeSpec:
    """An attribute annotator of the grid: registry ``name`` and its options."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    files_sha256: str = ""  # contents of the files an option names (category lists), when any
    base_dir: str = "."
    id: str | None = None  # a short name for tables, as models have

    @property
    def label(self) -> str:
        """The ``id``, else ``negation`` or, with options, ``frequent-words[k=6]``: unique within a
        spec. Operational options (cache folders, batch sizes, ...) are left out."""
        return self.id or option_label(
            self.name, self.options, ATTRIBUTES.capabilities(self.name)["operational"]
        )

    @classmethod
    def from_resolved(cls, entry: Mapping[str, Any]) -> AttributeSpec:
        """The entry of a stored (resolved) spec back as a spec (its label is what its cells were
        recorded under)."""
        options = {k: v for k, v in entry.items() if k not in ("name", "files_sha256", "id")}
        return cls(entry["name"], options, entry.get("files_sha256", ""), id=entry.get("id"))

    def resolved(self) -> dict[str, Any]:
        record = component_record(self.name, self.options, self.files_sha256)
        return record | ({"id": self.id} if self.id else {})

    def constructor_options(self) -> dict[str, Any]:
        """``options`` with relative file paths resolved against the spec's folder."""
        return {
            key: str(Path(self.base_dir) / value)
            if _names_file(value, Path(self.base_dir))
            else value
            for key, value in self.options.items()
        }


@dataclass(frozen=True)
class MpsModelSpec(ModelSpec):
    """A model of an MPS grid; ``average_last_epochs`` averages the metrics of its last N epochs."""

    average_last_epochs: int | None = None

    def resolved(self) -> dict[str, Any]:
        extra = {AVERAGE_LAST_EPOCHS: self.average_last_epochs} if self.average_last_epochs else {}
        return {**super().resolved(), **extra}


@dataclass(frozen=True)
class MpsSpec:
    """An MPS grid. ``build`` holds the ``mps:`` options given (the builder fills the rest)."""

    name: str
    datasets: list[DatasetSpec]
    attributes: list[AttributeSpec]
    models: list[MpsModelSpec]
    build: dict[str, Any] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=lambda: [0, 1, 2, 3, 4])
    vary: str = "model"
    build_seed: int = 0
    bootstrap: int = 1000
    cross_test: bool = True
    min_group_size: int = MIN_GROUP_SIZE
    base_dir: str = "."
    mitigation: MitigationSettings = field(default_factory=MitigationSettings)
    tracking: TrackingTarget | None = None  # where cells are logged; not part of the identity

    family = "mps"

    @property
    def mitigations(self) -> list[MitigationSpec]:
        return self.mitigation.mitigations

    def resolved(self) -> dict[str, Any]:
        """The spec with every default filled in, as stored with the results."""
        return {
            "family": self.family,
            "name": self.name,
            "datasets": [d.resolved() for d in self.datasets],
            "attributes": [a.resolved() for a in self.attributes],
            "mps": self.build,
            "build_seed": self.build_seed,
            "vary": self.vary,
            "models": [m.resolved() for m in self.models],
            "seeds": self.seeds,
            "bootstrap": self.bootstrap,
            "cross_test": self.cross_test,
            "min_group_size": self.min_group_size,
            **self.mitigation.resolved(),
        }

    def fingerprint(self) -> str:
        return canonical_hash(self.resolved())


def parse_mps_spec(
    raw: Mapping[str, Any], *, source: str = "spec", base_dir: str | Path = "."
) -> MpsSpec:
    """Validate an MPS spec mapping (as read from YAML) into an :class:`MpsSpec`."""
    check_keys(raw, MPS_TOP_KEYS, source)
    base = Path(base_dir)
    for required in ("attributes", "models"):
        if required not in raw:
            raise ConfigError(f"{source} has no '{required}' key; an MPS grid needs it.")
    datasets = parse_datasets(raw, source, base, test_required=False)
    attributes = [
        _attribute(entry, f"{source}: attributes[{i}]", base)
        for i, entry in enumerate(as_list(raw["attributes"], f"{source}: attributes"))
    ]
    unique([a.label for a in attributes], f"{source}: attributes", "entry")
    models = [
        _with_epochs(model, entry, f"{source}: models[{i}]")
        for i, (model, entry) in enumerate(
            zip(
                parse_models(
                    raw, source, base, engine_keys=(*MODEL_ENGINE_KEYS, AVERAGE_LAST_EPOCHS)
                ),
                raw["models"],
                strict=True,
            )
        )
    ]
    cross_test = boolean(raw.get("cross_test", True), f"{source}: cross_test")
    build = _build_options(raw.get("mps") or {}, f"{source}: mps")
    mitigation = parse_mitigation_settings(raw, source)
    check_mitigation_plan(
        mitigation,
        models,
        source,
        group_columns=_group_columns(attributes),
        held_out=None
        if (build.get("validation_size") or 0) > 0
        else "Set validation_size under mps: in the spec (e.g. 0.1).",
    )
    for i, model in enumerate(models):
        try:
            check_no_epoch_averaging(mitigation, bool(model.average_last_epochs))
        except ConfigError as exc:
            raise ConfigError(f"{source}: models[{i}] ({model.id}): {exc}") from exc
    return MpsSpec(
        name=spec_name(raw.get("name", "mps"), f"{source}: name"),
        datasets=datasets,
        attributes=attributes,
        models=models,
        build=build,
        seeds=parse_seeds(raw, source),
        vary=choice(raw.get("vary", "model"), VARY, f"{source}: vary"),
        build_seed=natural(raw.get("build_seed", 0), f"{source}: build_seed"),
        bootstrap=bootstrap(raw.get("bootstrap", 1000), f"{source}: bootstrap"),
        cross_test=cross_test,
        min_group_size=natural(
            raw.get("min_group_size", MIN_GROUP_SIZE), f"{source}: min_group_size", minimum=1
        ),
        base_dir=str(base),
        mitigation=mitigation,
        tracking=spec_tracking(raw, source),
    )


def _group_columns(attributes: list[AttributeSpec]) -> tuple[str, ...]:
    """Columns every build of the grid carries that name groups: ``group`` (label|value) and the
    attribute's own value column when all attributes share it."""
    columns = {make_attribute(a.name, a.constructor_options()).column for a in attributes}
    return (MPS_GROUP, *sorted(columns)) if len(columns) == 1 else (MPS_GROUP,)


def _attribute(entry: Any, where: str, base: Path) -> AttributeSpec:
    entry, name = named_entry(
        entry, where, ATTRIBUTES, "an attribute name or a mapping with 'name' and its options"
    )
    options = {k: v for k, v in entry.items() if k not in ("name", "id")}
    check_keys(options, ATTRIBUTES.parameters(name), f"{where} ({name})")
    given_id = entry.get("id")
    attribute_id = (
        spec_name(given_id.strip() if isinstance(given_id, str) else given_id, f"{where}: id")
        if "id" in entry
        else None
    )
    files = [
        existing_path(value, base, f"{where}: {key}")
        for key, value in options.items()
        if _names_file(value, base) or (isinstance(value, str) and value.endswith(FILE_SUFFIXES))
    ]
    spec = AttributeSpec(
        name=name,
        options=options,
        files_sha256=canonical_hash([file_digest(path) for path in files]) if files else "",
        base_dir=str(base),
        id=attribute_id,
    )
    try:  # the annotator checks its own option values
        make_attribute(name, spec.constructor_options())
    except ConfigError as exc:
        raise ConfigError(f"{where} ({name}): {exc}") from exc
    return spec


def _names_file(value: Any, base: Path) -> bool:
    return (
        isinstance(value, str)
        and value.endswith(FILE_SUFFIXES)
        and not Path(value).is_absolute()
        and (base / value).is_file()
    )


def _with_epochs(model: ModelSpec, entry: Any, where: str) -> MpsModelSpec:
    """The model with its ``average_last_epochs`` checked: models trained in epochs only, and no
    more epochs than the model trains."""
    from shortcutlab.models import MODELS

    fields = {name: getattr(model, name) for name in ModelSpec.__dataclass_fields__}
    epochs = entry.get(AVERAGE_LAST_EPOCHS) if isinstance(entry, dict) else None
    if epochs is None:
        return MpsModelSpec(**fields)
    natural(epochs, f"{where}: {AVERAGE_LAST_EPOCHS}", minimum=1)
    cls = MODELS.get(model.name)
    if not MODELS.capabilities(model.name)["epochs"]:
        raise ConfigError(
            f"{where}: {AVERAGE_LAST_EPOCHS} applies to models trained in epochs "
            f"({', '.join(MODELS.having('epochs'))}); {model.name} "
            f"has no epochs. Drop the option for this model."
        )
    trained = model.params.get(
        "epochs", inspect.signature(cls.__init__).parameters["epochs"].default
    )
    if isinstance(trained, int) and epochs > trained:
        raise ConfigError(
            f"{where}: {AVERAGE_LAST_EPOCHS} is {epochs} but the model trains {trained} epochs. "
            f"Lower it or raise 'epochs' (the paper trains 10 and averages the last 5)."
        )
    return MpsModelSpec(**fields, average_last_epochs=epochs)


def _build_options(raw: Any, where: str) -> dict[str, Any]:
    """Type checks of the ``mps:`` options; the builder checks them against the data."""
    if not isinstance(raw, dict):
        raise refuse(spec_key(where), "a mapping of build options", raw)
    check_keys(raw, BUILD_KEYS, where)
    options = dict(raw)
    dominance = options.get("dominance")
    if dominance is not None and (
        isinstance(dominance, bool)
        or not isinstance(dominance, int | float)
        or not 0 < dominance <= 1
    ):
        raise refuse(spec_key(f"{where}: dominance"), "a number in (0, 1]", dominance)
    for key in ("size", "top_values", "dominant_labels"):
        if options.get(key) is not None and not (key == "size" and options[key] == "even"):
            natural(options[key], f"{where}: {key}", minimum=1)
    if options.get("label_mix") is not None:
        choice(options["label_mix"], ("paper", "matched"), f"{where}: label_mix")
    for key in ("test_size", "validation_size"):
        if options.get(key) is not None:
            val_size(options[key], f"{where}: {key}")
    if options.get("values") is not None:
        as_list(options["values"], f"{where}: values")
    if options.get("dominant") is not None and not isinstance(options["dominant"], dict):
        raise refuse(
            spec_key(f"{where}: dominant"),
            "a mapping of attribute values to a label or a list of labels, e.g. "
            "{with_negation: pos}",
            options["dominant"],
        )
    return options
