"""``dfr``: Deep Feature Reweighting (Kirichenko et al. 2022, "Last Layer Re-Training is
Sufficient for Robustness to Spurious Correlations", section 5, DFR^Val_Tr).

The backend is trained with ERM; its last layer is then refitted on the held-out (validation)
rows with their groups: features standardised on those rows, ``n_subsamples`` group-balanced
subsamples (every group cut to the smallest group's size), an L1-penalised logistic regression on
each, and the coefficients averaged. ``C=None`` picks C as the paper does, from its grid
(1, 0.7, 0.3, 0.1, 0.07, 0.03, 0.01) by the worst-group accuracy on one half of the held-out rows
of a head fitted on a balanced subsample of the other half; the paper averages 20 refits.

The paper solves the L1 problem with liblinear, one-vs-rest; scikit-learn >= 1.8 refuses
liblinear for three or more labels, so the refits here are multinomial (saga) with the same
penalty, whose softmax is exactly the predictor's form. Sparse (TF-IDF) features are scaled but
not centred, so they stay sparse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shortcutlab.mitigations.balancing import (
    balanced_rows,
    require_group_sizes,
    require_groups,
    require_labels_covered,
    stratified_split,
)
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend, held_out_rows
from shortcutlab.mitigations.last_layer import (
    LastLayerPredictor,
    feature_standardisation,
    head_logits,
    standardised_head,
)
from shortcutlab.mitigations.linear_head import Head
from shortcutlab.models.heads import linear_classifier_layer
from shortcutlab.params import check_positive_float, check_positive_int, require

#: The paper's grid of inverse L1 strengths (its code's C_OPTIONS).
C_GRID = (1.0, 0.7, 0.3, 0.1, 0.07, 0.03, 0.01)


class Dfr(Mitigation):
    """Refits the last layer on group-balanced held-out rows (L1 logistic regression, averaged).

    Args:
        C: Inverse L1 strength (default: tuned on the paper's grid by worst-group accuracy).
        n_subsamples: Group-balanced subsamples whose refitted heads are averaged.
        min_group: Held-out rows every group needs, at least (an integer >= 2).
        max_iter: saga solver iterations per refit, at most.
    """

    name = "dfr"

    def __init__(
        self,
        C: float | None = None,
        n_subsamples: int = 20,
        min_group: int = 2,
        max_iter: int = 1000,
    ) -> None:
        self.C = C
        self.n_subsamples = n_subsamples
        self.min_group = min_group
        self.max_iter = max_iter

    def check_params(self) -> None:
        if self.C is not None:
            check_positive_float(self.name, "C", self.C)
        check_positive_int(self.name, "n_subsamples", self.n_subsamples)
        require(
            isinstance(self.min_group, int)
            and not isinstance(self.min_group, bool)
            and self.min_group >= 2,
            self.name,
            "min_group",
            "an integer >= 2 (tuning C splits every group in two halves)",
            self.min_group,
        )
        check_positive_int(self.name, "max_iter", self.max_iter)

    def fit(self, context: MitigationContext) -> Predictor:
        held_out = held_out_rows(context, self.name)
        groups = require_groups(held_out, self.name, "held-out")
        require_labels_covered(
            context.train.labels, held_out.labels, context.label_values, method=self.name
        )
        require_group_sizes(
            groups, context.group_names, minimum=self.min_group, method=self.name, split="held-out"
        )
        model = fit_backend(context)
        raw = model.features(held_out.inputs)
        labels = held_out.labels
        rng = np.random.default_rng(np.random.SeedSequence(context.seed))
        c = self.C if self.C is not None else self.tuned_c(raw, labels, groups, rng, context)
        mean, scale = feature_standardisation(raw)
        features = _standardised(raw, mean, scale)
        heads = [
            self._l1_head(features[rows], labels[rows], c, rng, context.n_classes)
            for rows in (balanced_rows(groups, rng) for _ in range(self.n_subsamples))
        ]
        averaged = (np.mean([h[0] for h in heads], axis=0), np.mean([h[1] for h in heads], axis=0))
        return LastLayerPredictor(model, standardised_head(averaged, mean, scale))

    def tuned_c(
        self,
        raw: Any,
        labels: np.ndarray,
        groups: np.ndarray,
        rng: np.random.Generator,
        context: MitigationContext,
    ) -> float:
        """The grid's C with the best worst-group accuracy on one half of the held-out rows,
        for a head fitted on a balanced subsample of the other half (ties: the larger C).

        ``raw`` are the unstandardised features: the fitting half plays the part all held-out
        rows play in the final fit, so the standardisation comes from it alone and the scored
        half stays unseen until it is scored."""
        fit_half, score_half = stratified_split(groups, 0.5, rng)
        mean, scale = feature_standardisation(raw[fit_half])
        fitting = _standardised(raw[fit_half], mean, scale)
        scored = _standardised(raw[score_half], mean, scale)
        rows = balanced_rows(groups[fit_half], rng)
        fit_labels = labels[fit_half][rows]
        best, best_score = C_GRID[0], -1.0
        for c in C_GRID:
            head = self._l1_head(fitting[rows], fit_labels, c, rng, context.n_classes)
            predicted = head_logits(scored, head).argmax(axis=1)
            correct = predicted == labels[score_half]
            score = min(correct[groups[score_half] == g].mean() for g in np.unique(groups))
            if score > best_score:
                best, best_score = c, score
        return best

    def _l1_head(
        self, features: Any, labels: np.ndarray, c: float, rng: np.random.Generator, n_classes: int
    ) -> Head:
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        from sklearn.linear_model import LogisticRegression

        seed = int(rng.integers(2**31 - 1))
        classifier = LogisticRegression(
            C=c, l1_ratio=1.0, solver="saga", max_iter=self.max_iter, random_state=seed
        )
        with warnings.catch_warnings():
            # saga stops at max_iter on near-separable subsamples; the averaged head is what counts.
            warnings.simplefilter("ignore", ConvergenceWarning)
            classifier.fit(features, labels)
        return linear_classifier_layer(classifier, n_classes)


def _standardised(features: Any, mean: np.ndarray, scale: np.ndarray) -> Any:
    if hasattr(features, "tocsr"):
        return features.tocsr().multiply(1.0 / scale).tocsr()
    return (np.asarray(features, dtype=np.float64) - mean) / scale
