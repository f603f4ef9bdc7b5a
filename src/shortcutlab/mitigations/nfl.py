"""``nfl-co`` and ``nfl-cp``: the "doN't Forget your Language" losses (Chew et al. 2023,
"Understanding and Mitigating Spurious Correlations in Text Classification with Neighborhood
Analysis", section 5), which the MPS paper evaluates (its Table 3).

Fine-tuning pulls unrelated tokens together around a spurious one; both losses keep the
fine-tuned encoder near the pretrained one:
- NFL-CO (constrained outputs) adds ``strength`` × the mean over rows of (1 − the mean cosine
  similarity, over the row's non-padding tokens, between the last hidden states of the model being
  fine-tuned and of a frozen copy of the pretrained model).
- NFL-CP (constrained parameters) adds ``strength`` × Σ‖W − W_pretrained‖² over the encoder's
  Linear and Embedding weights (``model.base_model``; the classification head is free).
``strength`` = 1 is the authors' code default (its ``reg_factor``). Transformer only: the losses
read a pretrained encoder's token states and weights, which the other backends do not have.
"""

from __future__ import annotations

import copy
from typing import Any

from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.params import check_non_negative_float


class ConstrainedOutputs:
    """NFL-CO: mean loss + strength × (1 − token cosine similarity to the frozen pretrained model)."""

    needs_hidden_states = True

    def __init__(self, strength: float) -> None:
        self.strength = strength

    def start(self, model: Any, n_rows: int) -> None:
        self.pretrained = copy.deepcopy(model).eval()
        for parameter in self.pretrained.parameters():
            parameter.requires_grad_(False)

    def loss(self, losses: Any, index: Any, *, model: Any, inputs: Any, outputs: Any) -> Any:
        import torch
        import torch.nn.functional as F

        hidden = outputs.hidden_states[-1].float()
        with torch.no_grad():
            reference = self.pretrained(**inputs, output_hidden_states=True).hidden_states[-1]
        mask = inputs["attention_mask"].to(hidden.dtype)
        similarity = F.cosine_similarity(hidden, reference.float(), dim=-1)
        per_row = (similarity * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1)
        return losses.mean() + self.strength * (1 - per_row).mean()


class ConstrainedParameters:
    """NFL-CP: mean loss + strength × squared distance of the encoder's weights to the pretrained ones."""

    needs_hidden_states = False

    def __init__(self, strength: float) -> None:
        self.strength = strength

    def start(self, model: Any, n_rows: int) -> None:
        import torch

        encoder = getattr(model, "base_model", model)
        self.anchors = [
            (module.weight, module.weight.detach().clone())
            for module in encoder.modules()
            if isinstance(module, torch.nn.Linear | torch.nn.Embedding)
            and module.weight.requires_grad
        ]

    def loss(self, losses: Any, index: Any, *, model: Any, inputs: Any, outputs: Any) -> Any:
        distance = sum((weight - anchor).pow(2).sum() for weight, anchor in self.anchors)
        return losses.mean() + self.strength * distance


class _Nfl(Mitigation):
    """What nfl-co and nfl-cp share: a transformer fine-tuned under a constraint.

    Args:
        strength: Weight of the constraint added to the loss (the authors' reg_factor).
    """

    def __init__(self, strength: float = 1.0) -> None:
        self.strength = strength

    def check_params(self) -> None:
        check_non_negative_float(self.name, "strength", self.strength)

    def objective(self) -> Any:
        raise NotImplementedError

    def fit(self, context: MitigationContext) -> Predictor:
        return fit_backend(context, objective=self.objective())


class NflCo(_Nfl):
    """Fine-tuning with the NFL-CO output constraint."""

    name = "nfl-co"

    def objective(self) -> Any:
        return ConstrainedOutputs(self.strength)


class NflCp(_Nfl):
    """Fine-tuning with the NFL-CP parameter constraint."""

    name = "nfl-cp"

    def objective(self) -> Any:
        return ConstrainedParameters(self.strength)
