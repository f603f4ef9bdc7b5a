"""``a2r``: Attention-to-Rationale (Yu et al. 2021, "Understanding Interlocking Dynamics of
Cooperative Rationalization", NeurIPS), one of the Shortcut Maze's robust models (section 3.3).

A selector keeps a sparse set of tokens and a rationale predictor reads only them; a second,
full-input predictor reads the whole text through the selector's soft attention, and a
Jensen-Shannon divergence ties the two predictors' outputs. The full-input predictor gives the
selector a smooth training signal, so the pair cannot lock into a poor rationale (the
"interlocking" the paper names). Predictions come from the rationale predictor. Selector keys
and the rationale output: see rationale_base.

``divergence_weight``: the weight of the JS divergence (1 in the authors' code).
"""

from __future__ import annotations

from typing import Any

from shortcutlab.mitigations.rationale_base import RationaleMitigation
from shortcutlab.params import check_non_negative_float


class A2R(RationaleMitigation):
    """A2R: a rationale predictor tied to a full-input predictor by a JS divergence.

    The selector's options are described on :class:`RationaleMitigation`.

    Args:
        divergence_weight: Weight of the Jensen-Shannon divergence between the two predictors.
    """

    name = "a2r"

    def __init__(
        self,
        rate: float = 0.2,
        sparsity_weight: float = 1.0,
        continuity_weight: float = 0.1,
        temperature: float = 1.0,
        divergence_weight: float = 1.0,
    ) -> None:
        super().__init__(rate, sparsity_weight, continuity_weight, temperature)
        self.divergence_weight = divergence_weight

    def check_params(self) -> None:
        super().check_params()
        check_non_negative_float(self.name, "divergence_weight", self.divergence_weight)

    def objective(self) -> Any:
        from shortcutlab.mitigations.rationale_objectives import A2RObjective

        return A2RObjective(self.selector_penalties(), self.divergence_weight)
