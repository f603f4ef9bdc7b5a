"""Training objectives: what the torch backends (``bow-mlp``, ``transformer``) backpropagate instead
of the mean cross-entropy, so a mitigation can change the loss without its own training loop.

A backend given an objective (``model.set_objective(objective)`` before ``fit``) computes the
per-row cross-entropy of each batch and backpropagates ``objective.loss(...)``. Validation loss
(the best-epoch choice) stays the plain mean cross-entropy. Sample weights reach the same place
through :class:`RowWeights`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from shortcutlab.errors import ConfigError

if TYPE_CHECKING:
    import torch


class TrainingObjective(Protocol):
    """The loss a torch backend backpropagates.

    ``needs_hidden_states``: the transformer then runs its forward pass with
    ``output_hidden_states=True`` so ``outputs.hidden_states`` is there.
    ``start(model, n_rows)`` runs once, before the first step (``n_rows`` training rows).
    ``loss(losses, index, ...)`` gets the batch's per-row cross-entropy (``reduction="none"``),
    the rows' positions in the training inputs (to look up their groups or weights), the model,
    its inputs (transformer: the padded batch; bow-mlp: ``{"ids", "offsets"}``) and its forward
    output (a Hugging Face ``ModelOutput``; bow-mlp: the logits), and returns the scalar to
    backpropagate.
    """

    needs_hidden_states: bool

    def start(self, model: torch.nn.Module, n_rows: int) -> None: ...

    def loss(
        self,
        losses: torch.Tensor,
        index: torch.Tensor,
        *,
        model: torch.nn.Module,
        inputs: Mapping[str, torch.Tensor] | None,
        outputs: Any,
    ) -> torch.Tensor: ...


class RowWeights:
    """Sample weights as an objective: the batch mean of w·ℓ.

    The weights come scaled to mean 1 over the training rows (models/base.py
    ``check_sample_weight``), so a batch's mean of w·ℓ is an unbiased estimate of the whole
    split's Σwℓ/Σw. Dividing each batch by its own Σw instead would rescale every batch to the
    same total weight, undoing the weights between batches, and divide by zero on a batch of
    zero-weight rows.
    """

    needs_hidden_states = False

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = weights

    def start(self, model: torch.nn.Module, n_rows: int) -> None:
        import torch

        device = next(model.parameters()).device
        self._weights = torch.as_tensor(self.weights, dtype=torch.float32, device=device)

    def loss(self, losses: torch.Tensor, index: torch.Tensor, **_: Any) -> torch.Tensor:
        return (self._weights[index] * losses).mean()


def check_objective(owner: str, objective: Any) -> None:
    """Refuse something that is not a :class:`TrainingObjective` (or None)."""
    if objective is None:
        return
    missing = [name for name in ("start", "loss") if not callable(getattr(objective, name, None))]
    if not isinstance(getattr(objective, "needs_hidden_states", None), bool):
        missing.append("needs_hidden_states")
    if missing:
        raise ConfigError(
            f"The training objective given to {owner} lacks {', '.join(missing)}; an objective "
            "has needs_hidden_states (a bool), start(model, n_rows) and loss(losses, index, *, "
            "model, inputs, outputs) (models/objectives.py)."
        )


def training_objective(objective: Any, weights: np.ndarray | None) -> Any:
    """The objective a fit uses: the one set on the model, sample weights as :class:`RowWeights`,
    or None for the plain mean cross-entropy (``check_sample_weight`` refuses both at once)."""
    if objective is not None:
        return objective
    return None if weights is None else RowWeights(weights)


def objective_loss(
    objective: Any,
    logits: torch.Tensor,
    targets: torch.Tensor,
    index: torch.Tensor,
    *,
    model: torch.nn.Module,
    inputs: Mapping[str, torch.Tensor] | None,
    outputs: Any,
) -> torch.Tensor:
    """The scalar a training step backpropagates: the mean cross-entropy without an objective
    (exactly the old computation), else the objective's loss over the per-row cross-entropy."""
    import torch.nn.functional as F

    if objective is None:
        return F.cross_entropy(logits, targets)
    losses = F.cross_entropy(logits, targets, reduction="none")
    loss = objective.loss(losses, index, model=model, inputs=inputs, outputs=outputs)
    if loss.dim() != 0:
        raise ConfigError(
            f"A training objective's loss must return one number to backpropagate; "
            f"{type(objective).__name__}.loss returned a tensor of shape {tuple(loss.shape)}."
        )
    return loss
