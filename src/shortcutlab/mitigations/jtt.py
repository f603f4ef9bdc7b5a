"""``jtt``: Just Train Twice (Liu et al. 2021, "Just Train Twice: Improving Group Robustness
without Training Group Information", Algorithm 1).

An identification model is trained with ERM for T epochs (``first_epochs``); the training rows it
misclassifies get their loss upweighted by λ_up (``upweight``) and a new model is trained from
scratch on the reweighted rows. No group label is read. Defaults are the paper's text settings
(MultiNLI and CivilComments, its appendix table of hyper-parameters): T = 2, λ_up = 6.

Backends trained in epochs (bow-mlp, transformer) train the identification model for T epochs
and keep the last one (no early stopping, as in the paper); the others have no epochs, so their
plain fit identifies the errors (if it fits every training row, JTT warns and equals erm).
``first_params`` overrides the identification model's parameters only (e.g. ``{C: 0.1}`` for a
TF-IDF model that separates its training rows): the paper tunes the identifier's ℓ2 penalty apart
from the final model's (its section 4 and appendix hyper-parameter tables).
Every backend that learns from rows takes sample weights, so upweighting never needs row
duplication.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError, ShortcutlabWarning
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend, misclassified
from shortcutlab.models import MODELS, make_model
from shortcutlab.params import check_positive_float, check_positive_int, quoted


class Jtt(Mitigation):
    """Upweights the rows an ERM model gets wrong and trains again.

    Args:
        first_epochs: Epochs of the identification model (backends trained in epochs).
        upweight: Loss weight of the rows the identification model gets wrong.
        first_params: Model parameters for the identification fit only, e.g. {C: 0.1}.
    """

    name = "jtt"

    def __init__(
        self,
        first_epochs: int = 2,
        upweight: float = 6.0,
        first_params: dict[str, Any] | None = None,
    ) -> None:
        self.first_epochs = first_epochs
        self.upweight = upweight
        self.first_params = first_params

    def check_params(self) -> None:
        check_positive_int(self.name, "first_epochs", self.first_epochs)
        check_positive_float(self.name, "upweight", self.upweight)
        if self.first_params is not None and not isinstance(self.first_params, dict):
            raise ConfigError(
                f"The jtt 'first_params' parameter must be a mapping of model parameters, e.g. "
                f"{{C: 0.1}}. Got {quoted(self.first_params)} instead."
            )

    def check_backend(self, model: str, params: Mapping[str, Any] | None = None) -> None:
        """Also refuses ``first_params`` the backend would refuse on top of ``params``."""
        super().check_backend(model, params)
        if params is not None and self.first_params:
            make_model(model, {**params, **self.first_params}).check()

    def fit(self, context: MitigationContext) -> Predictor:
        errors = self.error_set(context)
        if not errors.any():
            warnings.warn(
                f"jtt: the identification model gets all {len(errors)} training rows right, so "
                "there is nothing to upweight and the second fit is erm's. A backend trained in "
                "epochs (a small first_epochs) or a more regularised identifier "
                "(first_params: {C: 0.1}) makes errors.",
                ShortcutlabWarning,
                stacklevel=2,
            )
        weights = np.where(errors, float(self.upweight), 1.0)
        return fit_backend(context, sample_weight=weights)

    def error_set(self, context: MitigationContext) -> np.ndarray:
        """The training rows the identification model misclassifies (a boolean mask)."""
        overrides = dict(self.first_params or {})
        if MODELS.capabilities(context.model)["epochs"]:
            overrides.setdefault("epochs", self.first_epochs)
            identifier = fit_backend(context, validation=False, **overrides)
        else:
            identifier = fit_backend(context, **overrides)
        try:
            return misclassified(identifier, context.train)
        finally:
            identifier.close()
