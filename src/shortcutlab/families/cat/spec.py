"""CAT grid specs (``family: cat``): datasets x models x augmentation x seeds, as dataclasses.

A CAT cell (paper 003) fits a pair model on a dataset's training file, with or without CAT
augmentation (section 6), and measures its counterfactual attentiveness on the test file
(section 3.3) with the partial-input and majority baselines (3.1, 3.2).

Examples:
    >>> parse_cat_spec({"family": "cat", "data": {"builtin": "reviews"}, "models": ["tfidf-logreg"]})
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: spec: dataset 'reviews' has no text_pair column; CAT needs paired inputs. Add text_pair: COLUMN (e.g. hypothesis) to its entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
from shortcutlab.engine.tracking import TRACKING_KEY, TrackingTarget, spec_tracking
from shortcutlab.errors import ConfigError
from shortcutlab.names import spec_name
from shortcutlab.params import (
    as_list,
    boolean,
    check_keys,
    choice,
    natural,
    refuse,
    spec_key,
    unique,
)
from shortcutlab.shortcuts.counterfactuals import REPLACEABLE

CAT_TOP_KEYS = ("family", "name", "data", "datasets", "models", "seeds", "cat", TRACKING_KEY)
CAT_KEYS = ("k", "default_label", "replace", "augment")


@dataclass(frozen=True)
class CatSpec:
    """A CAT grid; ``default_label`` None infers it from each dataset's labels."""

    name: str
    datasets: list[DatasetSpec]
    models: list[ModelSpec]
    seeds: list[int]
    k: int = 5
    default_label: str | None = None
    replace: str = "text"
    augment: list[bool] = (False,)  # type: ignore[assignment] - a list once parsed
    base_dir: str = "."
    tracking: TrackingTarget | None = None  # where cells are logged; not part of the identity

    family = "cat"

    def resolved(self) -> dict[str, Any]:
        """The spec with every default filled in, as stored with the results."""
        return {
            "family": self.family,
            "name": self.name,
            "datasets": [d.resolved() for d in self.datasets],
            "models": [m.resolved() for m in self.models],
            "seeds": self.seeds,
            "cat": {
                "k": self.k,
                "default_label": self.default_label,
                "replace": self.replace,
                "augment": list(self.augment),
            },
        }

    def fingerprint(self) -> str:
        return canonical_hash(self.resolved())


def parse_cat_spec(
    raw: Mapping[str, Any], *, source: str = "spec", base_dir: str | Path = "."
) -> CatSpec:
    """Validate a CAT spec mapping (as read from YAML) into a :class:`CatSpec`."""
    check_keys(raw, CAT_TOP_KEYS, source)
    if "models" not in raw:
        raise ConfigError(f"{source} has no 'models' key; a CAT grid needs it.")
    base = Path(base_dir)
    datasets = parse_datasets(raw, source, base)
    for dataset in datasets:
        if dataset.inputs.text_pair_col is None:
            raise ConfigError(
                f"{source}: dataset '{dataset.name}' has no text_pair column; CAT needs paired "
                "inputs. Add text_pair: COLUMN (e.g. hypothesis) to its entry."
            )
    block = raw.get("cat") or {}
    if not isinstance(block, dict):
        raise refuse(spec_key(f"{source}: cat"), "a mapping of CAT options", block)
    check_keys(block, CAT_KEYS, f"{source}: cat")
    augment = [
        boolean(v, f"{source}: cat: augment[{i}]")
        for i, v in enumerate(as_list(block.get("augment", [False]), f"{source}: cat: augment"))
    ]
    unique(augment, f"{source}: cat: augment", "value")
    default = block.get("default_label")
    return CatSpec(
        name=spec_name(raw.get("name", "cat"), f"{source}: name"),
        datasets=datasets,
        models=parse_models(raw, source, base),
        seeds=parse_seeds(raw, source),
        k=natural(block.get("k", 5), f"{source}: cat: k", minimum=1),
        default_label=None if default is None else str(default),
        replace=choice(block.get("replace", "text"), REPLACEABLE, f"{source}: cat: replace"),
        augment=augment,
        base_dir=str(base),
        tracking=spec_tracking(raw, source),
    )
