"""Mitigation methods: how a model is trained (and its last layer refit) to rely less on shortcuts.

A mitigation wraps any backend of :mod:`shortcutlab.models` that it supports: ``erm`` is the plain
fit; the others reweight, subsample, change the loss or refit the last layer. Grids cross them with
models (``mitigations: [erm, reweight, {name: jtt, upweight: 20}]``). ``MITIGATIONS``
(mitigations/registry.py) holds one line per method with what it needs (groups, held-out rows,
the backends it can train); adding a method is one module and one line there.

It imports ``models``, ``shortcuts`` (the CAT swap of ``cat-augment``), ``data`` and the bottom
layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor, TrainingRows
from shortcutlab.mitigations.registry import MITIGATIONS, supported_models
from shortcutlab.torch_runtime import require_torch


def make_mitigation(name: str, params: Mapping[str, Any] | None = None) -> Mitigation:
    """Instantiate mitigation ``name``; ``params`` map 1:1 onto its constructor (unknown keys are
    errors). A method that needs torch is refused, naming the extra, where torch is missing."""
    if MITIGATIONS.capabilities(name)["torch"]:
        require_torch(f"The {name} mitigation")
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
    "supported_models",
]
