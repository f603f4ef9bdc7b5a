"""A robustness grid's spec: datasets (train and test files, or a built-in corpus) × models ×
perturbation classes × seeds. A cell is one class of one build (dataset, seed) under one model;
the cells of one build and model share one fit.

Examples:
    >>> spec = parse_robustness_spec(
    ...     {"family": "robustness", "data": {"builtin": "reviews"}, "models": ["majority"],
    ...      "perturbations": ["case-upper"], "seeds": [0]},
    ...     source="spec.yaml", base_dir=Path("."))
    >>> spec.perturbations, spec.bootstrap
    ({'case-upper': {}}, 1000)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.engine.spec_entries import (
    DatasetSpec,
    ModelSpec,
    parse_datasets,
    parse_models,
    parse_seeds,
)
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.engine.tracking import TRACKING_KEY, spec_tracking
from shortcutlab.errors import ConfigError
from shortcutlab.families.robustness.build import parse_perturbations
from shortcutlab.params import check_keys, quoted

FAMILY_NAME = "robustness"
KEYS = (
    "family",
    "name",
    "data",
    "datasets",
    "models",
    "perturbations",
    "seeds",
    "bootstrap",
    TRACKING_KEY,
)


@dataclass(frozen=True)
class RobustnessSpec:
    name: str
    datasets: list[DatasetSpec]
    models: list[ModelSpec]
    perturbations: dict[str, dict[str, Any]]
    seeds: list[int]
    bootstrap: int = 1000
    tracking: Any = field(default=None, compare=False)
    family = FAMILY_NAME

    def resolved(self) -> dict[str, Any]:
        return {
            "family": FAMILY_NAME,
            "name": self.name,
            "datasets": [d.resolved() for d in self.datasets],
            "models": [m.resolved() for m in self.models],
            "perturbations": self.perturbations,
            "seeds": self.seeds,
            "bootstrap": self.bootstrap,
        }

    def fingerprint(self) -> str:
        return canonical_hash(self.resolved())


def parse_robustness_spec(raw: Mapping[str, Any], *, source: str, base_dir: Path) -> RobustnessSpec:
    """The spec of a robustness grid (``family: robustness``), its keys checked."""
    check_keys(raw, KEYS, source)
    entries = raw.get("perturbations")
    if entries is None:
        raise ConfigError(f"{source} needs 'perturbations': a list of perturbation classes.")
    if isinstance(entries, list):  # [name, {name: params}, ...]
        merged: dict[str, Any] = {}
        for entry in entries:
            pairs = entry.items() if isinstance(entry, Mapping) else [(entry, {})]
            for name, params in pairs:
                if name in merged:
                    raise ConfigError(f"{source}: perturbations names {quoted(name)} twice.")
                merged[str(name)] = params
        entries = merged
    bootstrap = raw.get("bootstrap", 1000)
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 100:
        raise ConfigError(
            f"The 'bootstrap' key in {source} must be an integer >= 100. Got {quoted(bootstrap)} "
            "instead."
        )
    return RobustnessSpec(
        name=str(raw.get("name", "robustness")),
        datasets=parse_datasets(raw, source, base_dir),
        models=parse_models(raw, source, base_dir),
        perturbations=parse_perturbations(entries),
        seeds=parse_seeds(raw, source),
        bootstrap=bootstrap,
        tracking=spec_tracking(raw, source),
    )
