"""``jtt``: Just Train Twice (Liu et al. 2021, "Just Train Twice: Improving Group Robustness
without Training Group Information", Algorithm 1).

An identification model is trained with ERM for T epochs (``first_epochs``); the training rows it
misclassifies get their loss upweighted by λ_up (``upweight``) and a new model is trained from
scratch on the reweighted rows. No group label is read. Defaults are the paper's text settings
(MultiNLI and CivilComments, its appendix table of hyper-parameters): T = 2, λ_up = 6.

Backends trained in epochs (bow-mlp, transformer) train the identification model for T epochs
and keep the last one (no early stopping, as in the paper); the others have no epochs, so their
plain fit identifies the errors (if it fits every training row, JTT warns and equals erm).
Every backend that learns from rows takes sample weights, so upweighting never needs row
duplication.
"""

from __future__ import annotations

import warnings

import numpy as np

from shortcutlab.errors import ShortcutlabWarning
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend, misclassified
from shortcutlab.models import MODELS
from shortcutlab.models.base import SAMPLE_WEIGHT_MODELS
from shortcutlab.params import check_positive_float, check_positive_int


class Jtt(Mitigation):
    """Upweights the rows an ERM model gets wrong and trains again."""

    name = "jtt"
    backends = SAMPLE_WEIGHT_MODELS

    def __init__(self, first_epochs: int = 2, upweight: float = 6.0) -> None:
        self.first_epochs = first_epochs
        self.upweight = upweight

    def check_params(self) -> None:
        check_positive_int(self.name, "first_epochs", self.first_epochs)
        check_positive_float(self.name, "upweight", self.upweight)

    def fit(self, context: MitigationContext) -> Predictor:
        errors = self.error_set(context)
        if not errors.any():
            warnings.warn(
                f"jtt: the identification model gets all {len(errors)} training rows right, so "
                "there is nothing to upweight and the second fit is erm's. A backend trained in "
                "epochs (a small first_epochs) or a more regularised one (a smaller C) makes errors.",
                ShortcutlabWarning,
                stacklevel=2,
            )
        weights = np.where(errors, float(self.upweight), 1.0)
        return fit_backend(context, sample_weight=weights)

    def error_set(self, context: MitigationContext) -> np.ndarray:
        """The training rows the identification model misclassifies (a boolean mask)."""
        if MODELS.get(context.model).trains_in_epochs:
            identifier = fit_backend(context, validation=False, epochs=self.first_epochs)
        else:
            identifier = fit_backend(context)
        try:
            return misclassified(identifier, context.train)
        finally:
            identifier.close()
