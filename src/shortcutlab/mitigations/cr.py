"""``cr``: causal rationalization (Zhang et al. 2023, "Towards Trustworthy Explanation: On
Causal Rationalization", ICML), one of the Shortcut Maze's robust models (section 3.3).

A selector keeps a sparse set of tokens and a predictor reads only them (sufficiency); the
causal regulariser rewards rationales whose every token is necessary: it adds
-``causal_weight`` times the mean, over ``n_counterfactuals`` kept tokens drawn per row, of
P(y | kept tokens) - P(y | kept tokens without that one), the paper's identified lower bound
of each token's probability of necessity and sufficiency. A token kept only because it is
correlated with a necessary one (the paper's "spuriousness") changes nothing when dropped, so it
is not rewarded. Selector keys and the rationale output: see rationale_base.
"""

from __future__ import annotations

from typing import Any

from shortcutlab.mitigations.rationale_base import RationaleMitigation
from shortcutlab.params import check_non_negative_float, check_positive_int


class CR(RationaleMitigation):
    """Causal rationalization: rewards rationales whose every kept token is necessary.

    The selector's options are described on :class:`RationaleMitigation`.

    Args:
        causal_weight: Weight of the causal (necessity) reward.
        n_counterfactuals: Kept tokens dropped per row to measure necessity.
    """

    name = "cr"

    def __init__(
        self,
        rate: float = 0.2,
        sparsity_weight: float = 1.0,
        continuity_weight: float = 0.1,
        temperature: float = 1.0,
        causal_weight: float = 1.0,
        n_counterfactuals: int = 2,
    ) -> None:
        super().__init__(rate, sparsity_weight, continuity_weight, temperature)
        self.causal_weight = causal_weight
        self.n_counterfactuals = n_counterfactuals

    def check_params(self) -> None:
        super().check_params()
        check_non_negative_float(self.name, "causal_weight", self.causal_weight)
        check_positive_int(self.name, "n_counterfactuals", self.n_counterfactuals)

    def objective(self) -> Any:
        from shortcutlab.mitigations.rationale_objectives import CRObjective

        return CRObjective(self.selector_penalties(), self.causal_weight, self.n_counterfactuals)
