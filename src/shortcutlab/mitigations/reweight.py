"""``reweight``: every training row's loss weighted by 1 / (rows in its group), so each
(label, cue value) group carries the same total weight.

The group-balanced importance weighting that Sagawa et al. (2020, "Distributionally Robust Neural
Networks for Group Shifts", section 5) compare GroupDRO with, and SubpopBench's ReWeight. The
weights have mean 1, so the backend's C or learning rate keeps its meaning.
"""

from __future__ import annotations

import numpy as np

from shortcutlab.mitigations.balancing import group_balanced_weights, require_groups
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend


class Reweight(Mitigation):
    """Group-balanced loss weights on the training rows; backends whose fit takes sample weights."""

    name = "reweight"

    def fit(self, context: MitigationContext) -> Predictor:
        return fit_backend(context, sample_weight=self.training_weights(context))

    def training_weights(self, context: MitigationContext) -> np.ndarray:
        """The loss weight of every training row (what a user's own training would take)."""
        return group_balanced_weights(require_groups(context.train, self.name))
