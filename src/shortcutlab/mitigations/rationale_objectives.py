"""The training losses of the two rationale models, over a network with three parts.

A network (rationale_bow, rationale_transformer) exposes ``selector_logits(batch)`` (one logit per
token), ``predict(batch, mask)`` (the rationale predictor: class logits from the kept tokens
only) and ``attend(batch, weights)`` (A2R's full-input predictor: class logits from every token,
pooled with the selector's soft attention).

- A2R (Yu et al. 2021, "Understanding Interlocking Dynamics of Cooperative Rationalization",
  section 4): CE of the rationale predictor + CE of the full-input predictor + a weight times the
  Jensen-Shannon divergence between the two predictors' outputs, plus the selector's penalties.
  The full-input predictor sees the whole text through the selector's soft attention, so the
  selector gets a smooth signal and cannot lock the rationale predictor into a poor rationale.
- CR (Zhang et al. 2023, "Towards Trustworthy Explanation: On Causal Rationalization", section
  4): CE of the rationale predictor (sufficiency) + the selector's penalties - a weight times the
  estimated lower bound of each kept token's probability of necessity and sufficiency,
  P(y | X ⊙ Z) - P(y | X ⊙ Z with token j dropped), averaged over ``n_counterfactuals`` kept
  tokens drawn at random per row (the paper samples kept tokens instead of flipping every one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import torch
import torch.nn.functional as F

from shortcutlab.mitigations.rationale_masks import (
    TokenBatch,
    attention_weights,
    continuity_penalty,
    js_divergence,
    sample_mask,
    sparsity_penalty,
)

#: Draws U(0, 1) numbers of a shape on the training device from the fit's own generator.
Uniform = Callable[[tuple[int, ...]], torch.Tensor]


@dataclass(frozen=True)
class SelectorPenalties:
    """The selector's sparsity (distance to a target keep rate) and continuity terms."""

    rate: float
    sparsity_weight: float
    continuity_weight: float
    temperature: float

    def sample(self, logits: torch.Tensor, batch: TokenBatch, uniform: Uniform) -> torch.Tensor:
        return sample_mask(logits, batch.selectable, self.temperature, uniform(logits.shape))

    def __call__(self, mask: torch.Tensor, batch: TokenBatch) -> torch.Tensor:
        return self.sparsity_weight * sparsity_penalty(
            mask, batch.selectable, self.rate
        ) + self.continuity_weight * continuity_penalty(mask, batch.selectable)


@dataclass(frozen=True)
class A2RObjective:
    penalties: SelectorPenalties
    divergence_weight: float
    reads_full_input: ClassVar[bool] = True

    def __call__(
        self, network: Any, batch: TokenBatch, targets: torch.Tensor, uniform: Uniform
    ) -> torch.Tensor:
        logits = network.selector_logits(batch)
        mask = self.penalties.sample(logits, batch, uniform)
        rationale = network.predict(batch, mask)
        full_input = network.attend(batch, attention_weights(logits, batch.selectable))
        return (
            F.cross_entropy(rationale, targets)
            + F.cross_entropy(full_input, targets)
            + self.divergence_weight * js_divergence(rationale, full_input)
            + self.penalties(mask, batch)
        )


@dataclass(frozen=True)
class CRObjective:
    penalties: SelectorPenalties
    causal_weight: float
    n_counterfactuals: int
    reads_full_input: ClassVar[bool] = False

    def __call__(
        self, network: Any, batch: TokenBatch, targets: torch.Tensor, uniform: Uniform
    ) -> torch.Tensor:
        mask = self.penalties.sample(network.selector_logits(batch), batch, uniform)
        logits = network.predict(batch, mask)
        loss = F.cross_entropy(logits, targets) + self.penalties(mask, batch)
        if self.causal_weight == 0:
            return loss
        rows = torch.arange(len(targets), device=targets.device)
        kept_probability = torch.softmax(logits, dim=-1)[rows, targets]
        positions, valid = _kept_positions(mask, self.n_counterfactuals, uniform)
        effect = torch.zeros_like(kept_probability)
        for k in range(positions.shape[1]):
            dropped = mask * (1 - F.one_hot(positions[:, k], mask.shape[1]).to(mask.dtype))
            probability = torch.softmax(network.predict(batch, dropped), dim=-1)[rows, targets]
            effect = effect + (kept_probability - probability) * valid[:, k]
        # A row without kept tokens has no counterfactual: its effect counts as zero.
        effect = effect / valid.sum(dim=1).clamp(min=1)
        return loss - self.causal_weight * effect.mean()


def _kept_positions(
    mask: torch.Tensor, count: int, uniform: Uniform
) -> tuple[torch.Tensor, torch.Tensor]:
    """Up to ``count`` distinct kept positions per row, drawn uniformly (the highest random scores
    among the kept tokens), and 0/1 flags saying which of them are real (a row may keep fewer)."""
    kept = mask.detach() > 0.5
    scores = uniform(tuple(mask.shape)).masked_fill(~kept, -1.0)
    top, positions = scores.topk(min(count, mask.shape[1]), dim=1)
    return positions, (top >= 0).to(mask.dtype)
