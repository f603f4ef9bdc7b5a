"""``afr``: Automatic Feature Reweighting (Qiu et al. 2023, "Simple and Fast Group Robustness by
Automatic Feature Reweighting", section 4).

Stage 1 trains the backend with ERM on ``erm_fraction`` of the training rows (a seeded split,
stratified by label). Stage 2 retrains only its last layer on the other rows: row i weighs
exp(-γ·p̂_i), p̂_i the ERM model's probability of the row's true label, normalised so that every
label carries the same total weight, and the head minimises the weighted cross-entropy plus
``reg``·‖(W, b) − (W_erm, b_erm)‖², starting from the ERM head (full-batch L-BFGS, as the paper's
full-batch training of the last layer). Rows the ERM model already fits well, mostly those that
follow the shortcut, count little. No group label is read.

The paper tunes γ and the regulariser per dataset on the worst-group accuracy of group-labelled
validation rows, which this method does not read, so the defaults are fixed choices, not the
paper's: γ = 4 and reg = 0.01 (at 0.1 the pull kept TF-IDF heads at the ERM solution on the
planted-cue test data: unit-norm sparse rows give the weighted loss small gradients per weight).
``erm_fraction`` = 0.8 is the paper's split.
"""

from __future__ import annotations

import numpy as np

from shortcutlab.mitigations.balancing import stratified_split
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.mitigations.last_layer import head_logits, refit_near_erm, softmax
from shortcutlab.params import check_non_negative_float, check_positive_int, require


class Afr(Mitigation):
    """ERM on part of the rows, then a last layer refit on the rest with confidence-based weights.

    Args:
        gamma: Row weight is exp(-gamma * the ERM model's true-label probability).
        reg: Pull of the refit head towards the ERM head (squared distance).
        erm_fraction: Share of training rows for the ERM stage, in (0, 1).
        max_iter: L-BFGS iterations of the last-layer refit, at most.
    """

    name = "afr"

    def __init__(
        self, gamma: float = 4.0, reg: float = 0.01, erm_fraction: float = 0.8, max_iter: int = 500
    ) -> None:
        self.gamma = gamma
        self.reg = reg
        self.erm_fraction = erm_fraction
        self.max_iter = max_iter

    def check_params(self) -> None:
        check_non_negative_float(self.name, "gamma", self.gamma)
        check_non_negative_float(self.name, "reg", self.reg)
        require(
            isinstance(self.erm_fraction, int | float)
            and not isinstance(self.erm_fraction, bool)
            and 0 < self.erm_fraction < 1,
            self.name,
            "erm_fraction",
            "a float in (0, 1)",
            self.erm_fraction,
        )
        check_positive_int(self.name, "max_iter", self.max_iter)

    def fit(self, context: MitigationContext) -> Predictor:
        rng = np.random.default_rng(np.random.SeedSequence(context.seed))
        erm_rows, reweighting_rows = stratified_split(context.train.labels, self.erm_fraction, rng)
        model = fit_backend(context, context.train.take(erm_rows))
        rows = context.train.take(reweighting_rows)
        features = model.features(rows.inputs)
        probabilities = softmax(head_logits(features, model.last_layer()))
        return refit_near_erm(
            model,
            features,
            rows.labels,
            n_classes=context.n_classes,
            sample_weight=self.row_weights(probabilities, rows.labels),
            reg=self.reg,
            max_iter=self.max_iter,
            seed=context.seed,
        )

    def row_weights(self, probabilities: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """exp(-γ·p̂_y) per row, normalised to the same total per label (summing to 1)."""
        true_probability = probabilities[np.arange(len(labels)), labels]
        weights = np.exp(-self.gamma * true_probability)
        present = np.unique(labels)
        for label in present:
            rows = labels == label
            weights[rows] /= weights[rows].sum() * len(present)
        return weights
