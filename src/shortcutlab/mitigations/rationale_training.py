"""Fitting a rationale model (a2r, cr) and the predictor it returns.

The loop is the backends' own (rationale_settings): shuffled batches drawn from a generator
seeded with the backend's seed, AdamW, and the epoch with the lowest validation loss kept. The
validation loss is the rationale predictor's cross-entropy with the deterministic mask, i.e.
the model exactly as it will predict. Gumbel noise and counterfactual draws come from a CPU
generator of their own, so a fit is reproducible on any device.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from shortcutlab.data.pairs import TextInput, is_paired
from shortcutlab.errors import DataError
from shortcutlab.mitigations.base import MitigationContext
from shortcutlab.mitigations.rationale_masks import TokenRow, collate, kept_mask, rationale_spans
from shortcutlab.mitigations.rationale_settings import TrainingSettings, rationale_settings
from shortcutlab.models.torch_utils import seeded
from shortcutlab.models.transformer_training import autocast, parameter_groups
from shortcutlab.torch_runtime import length_batches


def fit_rationale_model(
    context: MitigationContext, objective: Any, mitigation: str
) -> RationalePredictor:
    """Train a selector and predictor on ``context.train`` under ``objective``."""
    model, backend_class, settings = rationale_settings(context, mitigation)
    texts = list(context.train.inputs)
    backend = backend_class(model, texts)
    train = backend.encode(texts), context.train.labels
    validation = None
    if context.validation is not None and len(context.validation):
        validation = backend.encode(context.validation.inputs), context.validation.labels
    with seeded(settings.seed, settings.device):  # initial weights and dropout
        network = backend.network(context.n_classes, objective.reads_full_input)
        network.to(settings.device)
        mask_absent_labels(network, context.train.labels, context.n_classes)
        history = _train(network, backend.pad_id, train, validation, objective, settings)
    return RationalePredictor(backend, network, settings, context.n_classes, history)


def mask_absent_labels(network: Any, labels: np.ndarray, n_classes: int) -> None:
    """Give labels without a training row a logit of -inf in every class head, in training and
    prediction, so their probability is exactly 0 as with every other backend (the heads have a
    column per benchmark label)."""
    absent = torch.as_tensor(np.bincount(labels, minlength=n_classes) == 0)
    if not absent.any():
        return

    def masked(module: Any, inputs: Any, logits: torch.Tensor) -> torch.Tensor:
        return logits.masked_fill(absent.to(logits.device), float("-inf"))

    for head in (network.rationale_head, network.full_input_head):
        if head is not None:
            head.register_forward_hook(masked)


def _train(
    network: Any,
    pad_id: int,
    train: tuple[list[TokenRow], np.ndarray],
    validation: tuple[list[TokenRow], np.ndarray] | None,
    objective: Any,
    s: TrainingSettings,
) -> list[dict]:
    rows, labels = train
    targets = torch.as_tensor(labels, dtype=torch.long, device=s.device)
    # Two independent streams: the batch order, and the Gumbel noise / counterfactual draws.
    order_seed, noise_seed = (
        int(child.generate_state(1)[0]) for child in np.random.SeedSequence(s.seed).spawn(2)
    )
    order_generator = torch.Generator().manual_seed(order_seed)
    noise_generator = torch.Generator().manual_seed(noise_seed)

    def uniform(shape: tuple[int, ...]) -> torch.Tensor:
        return torch.rand(shape, generator=noise_generator).to(s.device)

    optimizer = torch.optim.AdamW(parameter_groups(network, s.weight_decay), lr=s.lr)
    total_steps = s.epochs * math.ceil(len(rows) / s.batch_size)
    warmup = round(s.warmup_ratio * total_steps)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: _rate_factor(step, warmup, total_steps, s.decay)
    )
    history: list[dict] = []
    best_loss, best_state, stale = math.inf, None, 0
    for epoch in range(1, s.epochs + 1):
        network.train()
        total = 0.0
        for batch_rows in torch.randperm(len(rows), generator=order_generator).split(s.batch_size):
            index = batch_rows.tolist()
            batch = collate([rows[i] for i in index], pad_id, s.device)
            with autocast(s.precision, s.device):
                loss = objective(network, batch, targets[index], uniform)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if s.max_grad_norm is not None:
                torch.nn.utils.clip_grad_norm_(network.parameters(), s.max_grad_norm)
            optimizer.step()
            scheduler.step()
            total += float(loss.detach()) * len(index)
        record: dict[str, Any] = {"epoch": epoch, "train_loss": total / len(rows)}
        if validation is not None and s.keep_best:
            record["val_loss"] = _validation_loss(network, pad_id, validation, s)
            if record["val_loss"] < best_loss:
                best_loss, stale = record["val_loss"], 0
                best_state = {
                    k: v.detach().to("cpu", copy=True) for k, v in network.state_dict().items()
                }
            else:
                stale += 1
        history.append(record)
        if s.patience is not None and stale >= s.patience:
            break
    if best_state is not None:
        network.load_state_dict(best_state)
    return history


def _rate_factor(step: int, warmup: int, total: int, decay: bool) -> float:
    """The transformer backend's linear warm-up then linear decay to 0; constant otherwise."""
    if step < warmup:
        return step / max(1, warmup)
    if not decay:
        return 1.0
    return max(0.0, (total - step) / max(1, total - warmup))


def _validation_loss(
    network: Any, pad_id: int, split: tuple[list[TokenRow], np.ndarray], s: TrainingSettings
) -> float:
    rows, labels = split
    logits, _ = _predict(network, pad_id, rows, s)
    return float(F.cross_entropy(logits, torch.as_tensor(labels, dtype=torch.long)))


def _predict(
    network: Any, pad_id: int, rows: Sequence[TokenRow], s: TrainingSettings
) -> tuple[torch.Tensor, list[np.ndarray]]:
    """fp32 CPU logits and the kept mask of each row, in the rows' order."""
    training = network.training
    network.eval()
    order, chunks, masks = [], [], []
    with torch.inference_mode():
        for batch_rows in length_batches([len(row) for row in rows], s.eval_batch_size):
            batch = collate([rows[i] for i in batch_rows], pad_id, s.device)
            with autocast(s.precision, s.device):
                mask = kept_mask(network.selector_logits(batch).float(), batch.selectable)
                chunks.append(network.predict(batch, mask).float().cpu())
            order.extend(batch_rows.tolist())
            masks.extend(mask.bool().cpu().numpy())
    network.train(training)
    position = np.argsort(order)
    return torch.cat(chunks)[torch.as_tensor(position)], [masks[i] for i in position]


class RationalePredictor:
    """A fitted rationale model: probabilities from the kept tokens only, and the rationales.

    ``rationales(inputs)`` gives, per row, the half-open character spans ``(start, end)`` of the
    kept tokens in the row's text (``text[start:end]``), sorted, touching pieces of a word
    merged; an empty list when the selector kept nothing. ``history_`` records the per-epoch
    losses.
    """

    def __init__(
        self,
        backend: Any,
        network: Any,
        settings: TrainingSettings,
        n_classes: int,
        history: list[dict],
    ) -> None:
        self.backend, self.network, self.settings = backend, network, settings
        self.n_classes = n_classes
        self.history_ = history

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray:
        if not len(inputs):
            return np.zeros((0, self.n_classes))
        logits, _ = _predict(self.network, self.backend.pad_id, self._rows(inputs), self.settings)
        return torch.softmax(logits.double(), dim=-1).numpy()

    def rationales(self, inputs: Sequence[TextInput]) -> list[list[tuple[int, int]]]:
        if not len(inputs):
            return []
        rows = self._rows(inputs)
        _, masks = _predict(self.network, self.backend.pad_id, rows, self.settings)
        return [rationale_spans(row, kept) for row, kept in zip(rows, masks, strict=True)]

    def close(self) -> None:
        """Free the network (the encoders' weights on a GPU)."""
        self.network = None

    def _rows(self, inputs: Sequence[TextInput]) -> list[TokenRow]:
        if is_paired(inputs):
            raise DataError(
                "The rationale model was fitted on single texts but got pairs to predict; "
                "predict on data with one text column."
            )
        return self.backend.encode(list(inputs))
