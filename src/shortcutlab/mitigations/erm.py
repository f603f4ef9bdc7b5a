"""``erm``: empirical risk minimisation, the backend's own fit (the baseline every method is
compared with)."""

from __future__ import annotations

from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor


class Erm(Mitigation):
    """The plain model: every backend, no groups."""

    name = "erm"

    def fit(self, context: MitigationContext) -> Predictor:
        model = context.new_model()
        model.fit(
            context.train.inputs,
            context.train.labels,
            n_classes=context.n_classes,
            validation=context.validation_pair(),
        )
        return model
