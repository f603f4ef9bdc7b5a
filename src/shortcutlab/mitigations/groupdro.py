"""``groupdro``: online group distributionally robust optimisation (Sagawa et al. 2020,
"Distributionally Robust Neural Networks for Group Shifts", Algorithm 1).

Each batch's per-group mean losses move the group weights by exponentiated gradient,
q_g ← q_g·exp(η·loss_g), renormalised, and the model takes a step on Σ_g q_g·loss_g. With
``adjustment`` C > 0, C/√n_g (n_g: the group's training rows) is added to each group's loss in the
q update (the paper's group adjustment, section 3.3), so small groups, whose training loss
underestimates their test loss, count more. Defaults are the paper's: η = 0.01, C = 0.

Backends (those with a last layer): a model that takes a training objective (``bow-mlp``,
``transformer``) trains the whole network under this one (the objective hook of
models/objectives.py). The others are linear probes (``tfidf-logreg``, ``sentence-encoder``: the
TF-IDF vocabulary and the sentence encoder learn nothing from labels), so there the linear head
on their frozen features is the whole trainable part: it is trained in torch with the same
objective, ``head_epochs`` passes of Adam at ``head_lr`` over batches of ``head_batch_size``, and
the ℓ2 decay that the backend's C implies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.balancing import require_groups
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.mitigations.last_layer import LastLayerPredictor
from shortcutlab.mitigations.linear_head import HeadTraining, decay_for_c, train_head
from shortcutlab.models import MODELS
from shortcutlab.params import (
    check_non_negative_float,
    check_positive_float,
    check_positive_int,
    quoted,
)


def is_linear_probe(model: str) -> bool:
    """Whether GroupDRO trains only ``model``'s head: a backend with a last layer that takes no
    training objective, whose trainable part is that linear head on frozen features."""
    return not MODELS.capabilities(model)["objective"]


class GroupDroObjective:
    """The GroupDRO loss over per-row losses, for the objective hook and the linear-head trainer."""

    needs_hidden_states = False

    def __init__(self, groups: np.ndarray, step_size: float, adjustment: float) -> None:
        present, compact = np.unique(groups, return_inverse=True)
        self.groups = compact.astype(np.int64)  # codes 0..G-1 over the groups present
        self.counts = np.bincount(self.groups, minlength=len(present)).astype(np.float64)
        self.step_size = step_size
        self.adjustment = adjustment

    def start(self, model: Any, n_rows: int) -> None:
        import torch

        if n_rows != len(self.groups):
            raise ValueError(f"GroupDRO got {len(self.groups)} group codes for {n_rows} rows")
        n_groups = len(self.counts)
        self.weights = torch.full((n_groups,), 1.0 / n_groups, dtype=torch.float64)
        self.bonus = torch.as_tensor(self.adjustment / np.sqrt(self.counts))
        self.codes = torch.as_tensor(self.groups)

    def loss(self, losses: Any, index: Any, *, model: Any, inputs: Any, outputs: Any) -> Any:
        import torch

        codes = self.codes[index.cpu()]
        n_groups = len(self.counts)
        totals = torch.zeros(n_groups, dtype=losses.dtype, device=losses.device)
        totals = totals.index_add(0, codes.to(losses.device), losses)
        sizes = torch.bincount(codes, minlength=n_groups).clamp(min=1).to(losses.device)
        group_losses = totals / sizes
        # Algorithm 1: the exponentiated-gradient step on q uses the (adjusted) losses as data.
        adjusted = group_losses.detach().cpu().double() + self.bonus
        self.weights = self.weights * torch.exp(self.step_size * adjusted)
        self.weights = self.weights / self.weights.sum()
        return (self.weights.to(losses.device, losses.dtype) * group_losses).sum()


class GroupDro(Mitigation):
    """GroupDRO on the training groups: torch backends end to end, linear probes on their head.

    Args:
        step_size: Exponentiated-gradient step of the group weights (eta).
        adjustment: Group adjustment C: C/sqrt(group size) added to each group's loss.
        head_epochs: Linear probes only: passes of Adam over the training rows.
        head_lr: Linear probes only: Adam learning rate of the head.
        head_batch_size: Linear probes only: rows per batch when training the head.
    """

    name = "groupdro"

    def __init__(
        self,
        step_size: float = 0.01,
        adjustment: float = 0.0,
        head_epochs: int = 50,
        head_lr: float = 0.01,
        head_batch_size: int = 32,
    ) -> None:
        self.step_size = step_size
        self.adjustment = adjustment
        self.head_epochs = head_epochs
        self.head_lr = head_lr
        self.head_batch_size = head_batch_size

    def check_params(self) -> None:
        check_positive_float(self.name, "step_size", self.step_size)
        check_non_negative_float(self.name, "adjustment", self.adjustment)
        check_positive_int(self.name, "head_epochs", self.head_epochs)
        check_positive_float(self.name, "head_lr", self.head_lr)
        check_positive_int(self.name, "head_batch_size", self.head_batch_size)

    def check_backend(self, model: str, params: Mapping[str, Any] | None = None) -> None:
        """Also refuses a linear probe's ``class_weight``: the head is trained here under the
        GroupDRO loss, which would silently ignore it."""
        super().check_backend(model, params)
        class_weight = (params or {}).get("class_weight")
        if is_linear_probe(model) and class_weight is not None:
            raise ConfigError(
                f"The groupdro mitigation trains the {model} head under its own group-weighted "
                f"loss and cannot apply class_weight={quoted(class_weight)}; remove class_weight from "
                "this model's parameters (or use reweight)."
            )

    def fit(self, context: MitigationContext) -> Predictor:
        self.check_backend(context.model, context.params)
        groups = require_groups(context.train, self.name)
        objective = GroupDroObjective(groups, self.step_size, self.adjustment)
        if not is_linear_probe(context.model):
            return fit_backend(context, objective=objective)
        probe = fit_backend(context)  # fits the feature step (the TF-IDF vocabulary, the cache)
        train = context.train
        head = train_head(
            probe.features(train.inputs),
            train.labels,
            context.n_classes,
            training=self._head_training(),
            seed=context.seed,
            objective=objective,
            decay=decay_for_c(float(getattr(probe, "C", 1.0)), len(train)),
        )
        return LastLayerPredictor(probe, head)

    def _head_training(self) -> HeadTraining:
        return HeadTraining(self.head_epochs, self.head_lr, self.head_batch_size)
