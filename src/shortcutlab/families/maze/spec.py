"""Experiment specs: a YAML grid (datasets x shortcuts x strengths x models x seeds) as dataclasses.

Every key is checked up front; an unknown key or value names its place in the file, the close
matches and the allowed values. The resolved spec (defaults filled in) is stored with the results,
and its hash tells whether a run folder belongs to this spec.

Examples:
    >>> spec = parse_maze_spec({"data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
    ...                    "shortcuts": ["single-term"], "strengths": [1.0], "models": [{"name": "majority"}]})
    >>> [d.name for d in spec.datasets], spec.seeds
    (['reviews'], [0, 1, 2, 3, 4])
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.data.loading import SHORTCUT
from shortcutlab.engine.mitigation_spec import (
    MITIGATION_KEYS,
    MitigationSettings,
    MitigationSpec,
    check_mitigation_plan,
    parse_mitigation_settings,
)
from shortcutlab.engine.replicates import VARY
from shortcutlab.engine.spec_entries import (
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
from shortcutlab.names import spec_name
from shortcutlab.params import (
    as_list,
    bootstrap,
    check_keys,
    choice,
    natural,
    quoted,
    refuse,
    spec_key,
    unique,
    unit_interval,
    val_size,
)
from shortcutlab.shortcuts import SHORTCUTS, make_shortcut
from shortcutlab.shortcuts.schedule import SAMPLING, STRENGTH_MODES

__all__ = ["ExperimentSpec", "ShortcutSpec", "parse_maze_spec"]

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
    "family",
    TRACKING_KEY,
    *MITIGATION_KEYS,
)


@dataclass(frozen=True)
class ShortcutSpec:
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    files_sha256: str = ""  # contents of the files an option names (style rewrites), when any
    base_dir: str = "."

    @property
    def label(self) -> str:
        """``single-term`` or, with options, ``single-term[term=frankly]``: unique within a spec.
        Operational options (an LLM rewriter's cache and concurrency) are left out."""
        return option_label(
            self.name, self.options, SHORTCUTS.capabilities(self.name)["operational"]
        )

    @classmethod
    def from_resolved(cls, entry: Mapping[str, Any]) -> ShortcutSpec:
        """The entry of a stored (resolved) spec back as a spec (its label is what its cells were
        recorded under: the files' hash stored beside the options is not an option)."""
        options = {k: v for k, v in entry.items() if k not in ("name", "files_sha256")}
        return cls(entry["name"], options, entry.get("files_sha256", ""))

    def resolved(self) -> dict[str, Any]:
        return component_record(self.name, self.options, self.files_sha256)

    def cue_phrases(self, source: str) -> tuple[str, ...]:
        """The phrases its builds insert and record as the cue (a phrase shortcut's), else ()."""
        try:
            shortcut = make_shortcut(self.name, self.constructor_options())
        except (TypeError, ValueError) as exc:  # options are checked later, one line each
            raise ConfigError(
                f"{source}: the shortcut {quoted(self.label)} cannot be built from its options "
                f"({exc}); fix them as `shortcutlab list` shows its parameters."
            ) from exc
        return shortcut.cue_phrases()

    def constructor_options(self) -> dict[str, Any]:
        """``options`` with the rewrite files' relative paths resolved against the spec's folder."""
        options = dict(self.options)
        if isinstance(options.get("rewrites"), dict):
            options["rewrites"] = _map_paths(
                options["rewrites"], lambda path: str(_resolved_path(path, Path(self.base_dir)))
            )
        return options


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
    mitigation: MitigationSettings = field(default_factory=MitigationSettings)
    tracking: TrackingTarget | None = None  # where cells are logged; not part of the identity

    family = "maze"

    @property
    def mitigations(self) -> list[MitigationSpec]:
        return self.mitigation.mitigations

    def resolved(self) -> dict[str, Any]:
        """The spec with every default filled in, as stored with the results (the mitigation
        keys only where they differ from the defaults, so older specs keep their hash)."""
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
            **self.mitigation.resolved(),
        }

    def fingerprint(self) -> str:
        return canonical_hash(self.resolved())


def parse_maze_spec(
    raw: Mapping[str, Any], *, source: str = "spec", base_dir: str | Path = "."
) -> ExperimentSpec:
    """Validate a Maze grid spec mapping (as read from YAML)."""
    check_keys(raw, TOP_KEYS, source)
    base = Path(base_dir)
    for required in ("shortcuts", "strengths", "models"):
        if required not in raw:
            raise ConfigError(f"{source} has no '{required}' key; a grid needs it.")
    datasets = parse_datasets(raw, source, base)

    shortcuts = [
        shortcut_entry(entry, f"{source}: shortcuts[{i}]", SHORTCUTS, base)
        for i, entry in enumerate(as_list(raw["shortcuts"], f"{source}: shortcuts"))
    ]
    unique([canonical_hash(s.resolved()) for s in shortcuts], f"{source}: shortcuts", "entry")
    # Results tables group cells by label: entries that differ only in operational options
    # compute the same build, so they would share one.
    unique([s.label for s in shortcuts], f"{source}: shortcuts", "label (the same build)")
    models = parse_models(raw, source, base)
    strengths = [
        unit_interval(v, f"{source}: strengths[{i}]")
        for i, v in enumerate(as_list(raw["strengths"], f"{source}: strengths"))
    ]
    unique(strengths, f"{source}: strengths", "value")
    seeds = parse_seeds(raw, source)
    strength_mode = choice(
        raw.get("strength_mode", "mix"), STRENGTH_MODES, f"{source}: strength_mode"
    )
    for shortcut in shortcuts:  # a shortcut refuses split options it cannot honour
        check_split_options = getattr(SHORTCUTS.get(shortcut.name), "check_split_options", None)
        if check_split_options is not None:
            check_split_options(strength_mode=strength_mode, schedule=None)
    held_out = val_size(raw.get("val_size", 0.1), f"{source}: val_size")
    mitigation = parse_mitigation_settings(raw, source)
    check_mitigation_plan(
        mitigation,
        models,
        source,
        group_columns=(SHORTCUT,),  # a Maze build's columns: row_id, text, label, shortcut
        held_out=None if held_out > 0 else "Set val_size in the spec (e.g. 0.2).",
        cue_phrases=lambda: {s.label: s.cue_phrases(source) for s in shortcuts},
    )
    return ExperimentSpec(
        name=spec_name(raw.get("name", "experiment"), f"{source}: name"),
        datasets=datasets,
        shortcuts=shortcuts,
        strengths=strengths,
        models=models,
        seeds=seeds,
        strength_mode=strength_mode,
        test_strength=_test_strength(raw.get("test_strength", 1.0), f"{source}: test_strength"),
        sampling=choice(raw.get("sampling", "exact"), SAMPLING, f"{source}: sampling"),
        val_size=held_out,
        build_seed=natural(raw.get("build_seed", 0), f"{source}: build_seed"),
        vary=choice(raw.get("vary", "model"), VARY, f"{source}: vary"),
        bootstrap=bootstrap(raw.get("bootstrap", 1000), f"{source}: bootstrap"),
        base_dir=str(base),
        mitigation=mitigation,
        tracking=spec_tracking(raw, source),
    )


def _test_strength(value: Any, where: str) -> float | str:
    if value == "same":
        return "same"
    if isinstance(value, str):
        raise refuse(spec_key(where), "a number in [0, 1] or 'same'", value)
    return unit_interval(value, where)


def shortcut_entry(entry: Any, where: str, registry: Any, base: Path) -> ShortcutSpec:
    """A ``shortcuts`` entry (a name, or a mapping with 'name' and its options), checked."""
    entry, name = named_entry(
        entry, where, registry, "a shortcut name or a mapping with 'name' and its options"
    )
    options = {k: v for k, v in entry.items() if k != "name"}
    check_keys(options, registry.parameters(name), f"{where} ({name})")
    digest = ""
    if isinstance(options.get("rewrites"), dict):
        hashes: list[str] = []

        def existing(path: Any) -> Any:
            hashes.append(file_digest(existing_path(path, base, f"{where}: rewrites")))
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
