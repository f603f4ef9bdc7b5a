"""Fitting the context's backend on chosen rows, with optional loss weights or parameter overrides:
the step every method that retrains (reweight, downsample, JTT, AFR, LLR) shares with ``erm``."""

from __future__ import annotations

from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError, knob
from shortcutlab.mitigations.base import MitigationContext, TrainingRows
from shortcutlab.models.base import TextClassifier


def fit_backend(
    context: MitigationContext,
    rows: TrainingRows | None = None,
    *,
    sample_weight: np.ndarray | None = None,
    objective: Any = None,
    validation: bool = True,
    **overrides: Any,
) -> TextClassifier:
    """A fresh backend (``overrides`` replace its parameters) fitted on ``rows`` (default: the
    training rows), with the validation rows for its epoch choice like ``erm`` unless
    ``validation`` is False (then an epoch-trained backend keeps its last epoch)."""
    rows = context.train if rows is None else rows
    model = context.new_model(**overrides)
    if objective is not None:
        model.set_objective(objective)
    extra = {} if sample_weight is None else {"sample_weight": sample_weight}
    try:
        model.fit(
            rows.inputs,
            rows.labels,
            n_classes=context.n_classes,
            validation=context.validation_pair() if validation else None,
            **extra,
        )
    finally:
        if objective is not None:  # the returned model must not keep it (NFL-CO's frozen copy)
            model.set_objective(None)
    return model


def misclassified(model: TextClassifier, rows: TrainingRows) -> np.ndarray:
    """A boolean mask of the rows ``model`` gets wrong."""
    return np.asarray(model.predict(rows.inputs)) != rows.labels


def held_out_rows(context: MitigationContext, method: str) -> TrainingRows:
    """The validation rows a last-layer method refits on; refuses a context without them."""
    if context.validation is None or not len(context.validation):
        raise missing_held_out(method)
    return context.validation


def missing_held_out(method: str) -> ConfigError:
    """The error for a held-out method on a benchmark without a validation split."""
    return ConfigError(
        f"The {method} mitigation refits on held-out rows, but the benchmark has no validation "
        f"split. Rebuild it with {knob('val_size', 0.2)}."
    )
