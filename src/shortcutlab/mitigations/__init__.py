"""Mitigation methods: how a model is trained (and its last layer refit) to rely less on shortcuts.

A mitigation wraps any backend of :mod:`shortcutlab.models` that it supports: ``erm`` is the plain
fit; the others reweight, subsample, change the loss or refit the last layer. Grids cross them with
models (``mitigations: [erm, reweight, {name: jtt, upweight: 20}]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor, TrainingRows
from shortcutlab.registry import Registry

MITIGATIONS: Registry[type[Mitigation]] = Registry("mitigation")
MITIGATIONS.add("erm", "shortcutlab.mitigations.erm:Erm")
MITIGATIONS.add("reweight", "shortcutlab.mitigations.reweight:Reweight")
MITIGATIONS.add("downsample", "shortcutlab.mitigations.downsample:Downsample")
MITIGATIONS.add("groupdro", "shortcutlab.mitigations.groupdro:GroupDro")
MITIGATIONS.add("jtt", "shortcutlab.mitigations.jtt:Jtt")
MITIGATIONS.add("dfr", "shortcutlab.mitigations.dfr:Dfr")
MITIGATIONS.add("afr", "shortcutlab.mitigations.afr:Afr")
MITIGATIONS.add("llr", "shortcutlab.mitigations.llr:Llr")
MITIGATIONS.add("nfl-co", "shortcutlab.mitigations.nfl:NflCo")
MITIGATIONS.add("nfl-cp", "shortcutlab.mitigations.nfl:NflCp")
MITIGATIONS.add("cat-augment", "shortcutlab.mitigations.cat_augment:CatAugment")
# Rationalization models (Shortcut Maze section 3.3), last in order.
MITIGATIONS.add("a2r", "shortcutlab.mitigations.a2r:A2R")
MITIGATIONS.add("cr", "shortcutlab.mitigations.cr:CR")


def make_mitigation(name: str, params: Mapping[str, Any] | None = None) -> Mitigation:
    """Instantiate mitigation ``name``; ``params`` map 1:1 onto its constructor (unknown keys are errors)."""
    mitigation = MITIGATIONS.create(name, params)
    mitigation.check_params()
    return mitigation


__all__ = [
    "MITIGATIONS",
    "Mitigation",
    "MitigationContext",
    "Predictor",
    "TrainingRows",
    "make_mitigation",
]
