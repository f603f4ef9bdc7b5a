"""``llr``: last-layer retraining on held-out rows chosen without group labels (LaBonte et al.
2023, "Towards Last-layer Retraining for Group Robustness with Fewer Annotations", SELF).

The backend is trained with ERM; held-out (validation) rows are then chosen by how the model
behaves on them, never by their groups, and its last layer is refitted on them with class-balanced
weights, starting from the ERM head and pulled towards it by ``reg``·‖(W, b) − (W_erm, b_erm)‖²,
minimised to convergence (full-batch L-BFGS). The paper fine-tunes the ERM head for a fixed
number of epochs; the pull plays that part here: a few hundred chosen rows are often separable,
and an unpulled refit would then drift without bound. reg = 0.01 is as AFR's.

``selection``:
- ``"disagreement"`` (the paper's SELF, its best variant): the ``n_points`` rows on which an
  early-stopped model and the final one disagree most (KL divergence of the final model's
  predicted distribution from the early-stopped one's). The early-stopped model is the backend
  trained for ``early_epochs`` epochs, so this needs a backend trained in epochs (bow-mlp,
  transformer).
- ``"misclassified"`` (the paper's misclassification variant): the rows the ERM model gets
  wrong plus as many correctly classified ones drawn at random (seeded), so the refit still sees
  rows the shortcut predicts well. Works on every backend with features.

``n_points=None`` takes the misclassified selection's size (twice the held-out errors). The
default selection is ``misclassified`` because it works on every backend with features, including
the linear probes, which have no early-stopped variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.mitigations.balancing import class_balanced_weights
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend, held_out_rows
from shortcutlab.mitigations.last_layer import refit_near_erm
from shortcutlab.models import MODELS
from shortcutlab.models.base import TextClassifier
from shortcutlab.params import check_non_negative_float, check_one_of, check_positive_int

SELECTIONS = ("disagreement", "misclassified")


class Llr(Mitigation):
    """Refits the ERM model's last layer on held-out rows it gets wrong (or disagrees on).

    Args:
        selection: How held-out rows are chosen: misclassified or disagreement.
        n_points: Held-out rows chosen (default: twice the held-out errors).
        early_epochs: Epochs of the early-stopped model that disagreement compares with.
        reg: Pull of the refit head towards the ERM head (squared distance).
        max_iter: L-BFGS iterations of the last-layer refit, at most.
    """

    name = "llr"

    def __init__(
        self,
        selection: str = "misclassified",
        n_points: int | None = None,
        early_epochs: int = 1,
        reg: float = 0.01,
        max_iter: int = 500,
    ) -> None:
        self.selection = selection
        self.n_points = n_points
        self.early_epochs = early_epochs
        self.reg = reg
        self.max_iter = max_iter

    def check_params(self) -> None:
        check_one_of(self.name, "selection", self.selection, SELECTIONS)
        if self.n_points is not None:
            check_positive_int(self.name, "n_points", self.n_points)
        check_positive_int(self.name, "early_epochs", self.early_epochs)
        check_non_negative_float(self.name, "reg", self.reg)
        check_positive_int(self.name, "max_iter", self.max_iter)

    def check_backend(self, model: str, params: Mapping[str, Any] | None = None) -> None:
        super().check_backend(model, params)
        if self.selection == "disagreement" and not MODELS.capabilities(model)["epochs"]:
            epoch_models = [m for m in self.backends() if m in MODELS.having("epochs")]
            raise ConfigError(
                f"llr with selection 'disagreement' compares the model with an early-stopped one, "
                f"but {model} is not trained in epochs. Use selection: misclassified, or a model "
                f"trained in epochs: {', '.join(epoch_models) or 'none'}."
            )

    def fit(self, context: MitigationContext) -> Predictor:
        self.check_backend(context.model, context.params)
        held_out = held_out_rows(context, self.name)
        model = fit_backend(context)
        probabilities = model.predict_proba(held_out.inputs)
        rng = np.random.default_rng(np.random.SeedSequence(context.seed))
        chosen = self.chosen_rows(context, model, probabilities, held_out.labels, rng)
        rows = held_out.take(chosen)
        return refit_near_erm(
            model,
            model.features(rows.inputs),
            rows.labels,
            n_classes=context.n_classes,
            sample_weight=class_balanced_weights(rows.labels),
            reg=self.reg,
            max_iter=self.max_iter,
            seed=context.seed,
        )

    def chosen_rows(
        self,
        context: MitigationContext,
        model: TextClassifier,
        probabilities: np.ndarray,
        labels: np.ndarray,
        rng: np.random.Generator,
    ) -> np.ndarray:
        """Sorted positions of the held-out rows the head is refitted on."""
        wrong = probabilities.argmax(axis=1) != labels
        if not wrong.any():
            raise DataError(
                "llr found no held-out row the ERM model gets wrong, so it has nothing to refit "
                f"on (all {len(labels)} are right); use erm, or a larger validation split."
            )
        budget = self.n_points if self.n_points is not None else 2 * int(wrong.sum())
        budget = min(budget, len(labels))
        if self.selection == "misclassified":
            loss = -np.log(probabilities[np.arange(len(labels)), labels] + 1e-12)
            by_loss = np.argsort(-loss, kind="stable")
            errors = by_loss[wrong[by_loss]][: budget - budget // 2]  # the worst errors first
            right = np.flatnonzero(~wrong)
            extra = rng.choice(right, size=min(budget - len(errors), len(right)), replace=False)
            return np.sort(np.concatenate([errors, extra]))
        early = fit_backend(context, validation=False, epochs=self.early_epochs)
        try:
            early_probabilities = early.predict_proba(context.validation.inputs)
        finally:
            early.close()
        divergence = _kl(early_probabilities, probabilities)
        return np.sort(np.argsort(-divergence, kind="stable")[:budget])


def _kl(reference: np.ndarray, other: np.ndarray) -> np.ndarray:
    """KL(reference ‖ other) per row (the paper's disagreement score)."""
    eps = 1e-12
    return np.sum(reference * (np.log(reference + eps) - np.log(other + eps)), axis=1)
