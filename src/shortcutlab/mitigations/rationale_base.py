"""What a2r and cr share: a selector that keeps a sparse set of tokens and a predictor that reads
only them (selective rationalization, Lei et al. 2016), on the bow-mlp and transformer backends.

The selector's parameters (keys of both methods):

- ``rate``: the share of a text's tokens the selector aims to keep (the sparsity target).
- ``sparsity_weight``: weight of |share kept - rate|.
- ``continuity_weight``: weight of the number of keep/drop switches between neighbours per token
  (favours contiguous rationales).
- ``temperature``: of the straight-through Gumbel-sigmoid mask (it shapes the gradient only; the
  forward mask is always hard).

The fitted predictor predicts from the kept tokens only and exposes ``rationales(inputs)``: per
row, the character spans ``(start, end)`` (half-open, ``text[start:end]``) of the kept tokens.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.rationale_settings import refuse_unsupported
from shortcutlab.models import make_model
from shortcutlab.params import check_non_negative_float, check_positive_float, require


class RationaleMitigation(Mitigation):
    """Base of the rationale models; subclasses add their regulariser and build the objective.

    Args:
        rate: Share of each text's tokens the selector aims to keep, in (0, 1).
        sparsity_weight: Weight of the gap between the share kept and the rate.
        continuity_weight: Weight of keep/drop switches per token (favours contiguous rationales).
        temperature: Of the straight-through Gumbel-sigmoid mask (shapes gradients only).
    """

    def __init__(
        self, rate: float, sparsity_weight: float, continuity_weight: float, temperature: float
    ) -> None:
        self.rate = rate
        self.sparsity_weight = sparsity_weight
        self.continuity_weight = continuity_weight
        self.temperature = temperature

    def check_params(self) -> None:
        require(
            isinstance(self.rate, int | float)
            and not isinstance(self.rate, bool)
            and 0 < self.rate < 1,
            self.name,
            "rate",
            "a float in (0, 1)",
            self.rate,
        )
        check_non_negative_float(self.name, "sparsity_weight", self.sparsity_weight)
        check_non_negative_float(self.name, "continuity_weight", self.continuity_weight)
        check_positive_float(self.name, "temperature", self.temperature)

    def check_backend(self, model: str, params: Mapping[str, Any] | None = None) -> None:
        """Also refuses the backend parameters the rationale trainer cannot honour (those its
        network kind's entry in ``RATIONALE_BACKENDS`` names, e.g. a transformer's ``lora``)."""
        super().check_backend(model, params)
        if params is not None:
            refuse_unsupported(self.name, make_model(model, params))

    def fit(self, context: MitigationContext) -> Predictor:
        from shortcutlab.mitigations.rationale_training import fit_rationale_model

        self.check_backend(context.model, context.params)
        return fit_rationale_model(context, self.objective(), self.name)

    def selector_penalties(self) -> Any:
        from shortcutlab.mitigations.rationale_objectives import SelectorPenalties

        return SelectorPenalties(
            self.rate, self.sparsity_weight, self.continuity_weight, self.temperature
        )

    @abstractmethod
    def objective(self) -> Any:
        """The training loss (rationale_objectives), called per batch."""
