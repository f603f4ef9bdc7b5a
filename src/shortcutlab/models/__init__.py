"""Model adapters with one narrow contract (fit, predict_proba); heavy backends load lazily.

``MODELS`` (models/registry.py) holds one line per backend with its capabilities; adding a model
is one module and one line there (or a ``MODELS.add`` of its own).

It imports ``data``, ``llm`` and the bottom layer, never ``shortcuts`` (the two are independent
component libraries); torch and transformers load only inside the backends that need them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.models.base import TextClassifier
from shortcutlab.models.registry import MODELS
from shortcutlab.torch_runtime import require_torch


def model_options(name: str) -> list[str]:
    return MODELS.parameters(name)


def make_model(
    model: Any, params: Mapping[str, Any] | None = None, *, seed: int | None = None
) -> TextClassifier:
    """Instantiate ``model``: a registered name whose ``params`` map 1:1 onto its constructor
    (unknown keys are errors), or anything :func:`~shortcutlab.models.adapters.resolve_model`
    takes (a saved estimator's path, an estimator, an object or class with fit and
    predict_proba, a fitted predict_proba function).

    ``seed`` overrides the model's own ``seed`` parameter when it has one. A model that needs torch
    is refused, naming the extra to install, where torch is missing. A registered class that is
    no :class:`TextClassifier` (a plain class with fit and predict_proba) runs as an unregistered
    one does, under its registered name.
    """
    from shortcutlab.models.adapters import ObjectModel, resolve_model

    name, params = resolve_model(model, params)
    if MODELS.capabilities(name)["torch"]:
        require_torch(f"The {name} model")
    params = dict(params or {})
    if seed is not None and "seed" in MODELS.parameters(name):
        params["seed"] = seed
    made = MODELS.create(name, params)
    if isinstance(made, TextClassifier):
        return made
    adapted = ObjectModel(model=made, seed=0 if seed is None else seed)
    adapted.name = name  # its registered capabilities and its name in messages
    return adapted


__all__ = ["MODELS", "TextClassifier", "make_model", "model_options"]
