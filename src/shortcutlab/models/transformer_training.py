"""The fine-tuning loop of the ``transformer`` backend, written out instead of ``transformers.Trainer``.

It keeps only what a classification fine-tune needs (pre-tokenised splits, dynamic padding, AdamW,
linear warm-up/decay, gradient accumulation, autocast, per-epoch validation loss), which makes it
cheaper per step than Trainer (bench/transformer_throughput.py) and leaves global state alone.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from shortcutlab.models.objectives import objective_loss
from shortcutlab.torch_runtime import length_batches

#: Trainer's default max_grad_norm; BERT-style fine-tuning is tuned with clipping at 1.
MAX_GRAD_NORM = 1.0


@dataclass(frozen=True)
class PairRow:
    """The pair encoding of one (first, second) input: token ids and their segment ids."""

    ids: list[int]
    token_types: list[int]

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class Batches:
    """A pre-tokenised split: token id lists (or :class:`PairRow`) and their target positions
    among the training labels."""

    rows: list[Any]
    targets: np.ndarray


@dataclass
class LoopSettings:
    epochs: int
    lr: float
    batch_size: int
    eval_batch_size: int
    weight_decay: float
    warmup_ratio: float
    grad_accum: int
    select_by: str
    precision: str
    device: str


class Padder:
    """Pads token id lists to the longest row of a batch, on the tokenizer's padding side."""

    def __init__(self, pad_id: int, left: bool, device: str) -> None:
        self.pad_id, self.left, self.device = pad_id, left, device

    def __call__(self, rows: Sequence[Any]) -> dict[str, torch.Tensor]:
        width = max(len(row) for row in rows)
        ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        segments = isinstance(rows[0], PairRow)
        types = np.zeros((len(rows), width), dtype=np.int64)
        for i, row in enumerate(rows):
            span = slice(width - len(row), width) if self.left else slice(0, len(row))
            ids[i, span] = row.ids if segments else row
            mask[i, span] = 1
            if segments:
                types[i, span] = row.token_types
        arrays = {"input_ids": ids, "attention_mask": mask}
        if segments:
            arrays["token_type_ids"] = types
        non_blocking = self.device.startswith("cuda")
        return {
            name: torch.from_numpy(array).to(self.device, non_blocking=non_blocking)
            for name, array in arrays.items()
        }


def autocast(precision: str, device: str) -> contextlib.AbstractContextManager:
    if precision == "fp32":
        return contextlib.nullcontext()
    dtype = torch.bfloat16 if precision == "bf16" else torch.float16
    return torch.autocast(device_type=torch.device(device).type, dtype=dtype)


def model_outputs(model: Any, inputs: dict, precision: str, hidden_states: bool = False) -> Any:
    """The model's forward output (a ``ModelOutput``), with every layer's hidden states if asked."""
    extra = {"output_hidden_states": True} if hidden_states else {}
    with autocast(precision, str(inputs["input_ids"].device)):
        return model(**inputs, **extra)


def class_logits(outputs: Any, columns: torch.Tensor | None) -> Any:
    """The fp32 logits of ``outputs`` for the training labels only (``columns``; None means all)."""
    logits = outputs.logits.float()
    return logits if columns is None else logits.index_select(1, columns)


def parameter_groups(model: Any, weight_decay: float) -> list[dict]:
    """AdamW groups: no weight decay on biases and normalisation weights (BERT's recipe)."""
    decay, no_decay = [], []
    for module in model.modules():
        is_norm = "norm" in type(module).__name__.lower()
        for name, parameter in module.named_parameters(recurse=False):
            if parameter.requires_grad:
                (no_decay if is_norm or name.endswith("bias") else decay).append(parameter)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def train(
    model: Any,
    train_split: Batches,
    validation: Batches | None,
    *,
    settings: LoopSettings,
    padder: Padder,
    columns: torch.Tensor | None,
    generator: torch.Generator,
    end_of_epoch: Callable[[int], None] | None = None,
    objective: Any = None,
) -> tuple[list[dict], int]:
    """Fine-tune ``model`` in place; return the per-epoch history and the epoch whose weights it keeps.

    ``end_of_epoch(epoch)`` runs after each epoch, with that epoch's weights in ``model``.
    ``objective`` (models/objectives.py) replaces the mean cross-entropy of each batch; the
    validation loss stays the plain mean cross-entropy.
    """
    from transformers import get_linear_schedule_with_warmup

    s = settings
    n_batches = math.ceil(len(train_split.rows) / s.batch_size)
    total_steps = s.epochs * math.ceil(n_batches / s.grad_accum)
    fused = torch.device(s.device).type in ("cuda", "cpu")
    optimizer = torch.optim.AdamW(parameter_groups(model, s.weight_decay), lr=s.lr, fused=fused)
    scheduler = get_linear_schedule_with_warmup(
        optimizer, round(s.warmup_ratio * total_steps), total_steps
    )
    scaler = torch.amp.GradScaler("cuda") if s.precision == "fp16" else None
    targets = torch.as_tensor(train_split.targets, device=s.device)
    history: list[dict] = []
    best_loss, best_state = math.inf, None
    hidden_states = objective is not None and objective.needs_hidden_states
    if objective is not None:
        objective.start(model, len(train_split.rows))
    for epoch in range(1, s.epochs + 1):
        model.train()
        order = torch.randperm(len(train_split.rows), generator=generator)
        batches = list(order.split(s.batch_size))
        total = torch.zeros((), device=s.device)
        for start in range(0, len(batches), s.grad_accum):
            group = batches[start : start + s.grad_accum]
            for batch in group:
                inputs = padder([train_split.rows[i] for i in batch.tolist()])
                outputs = model_outputs(model, inputs, s.precision, hidden_states)
                index = batch.to(s.device)
                loss = objective_loss(
                    objective,
                    class_logits(outputs, columns),
                    targets[index],
                    index,
                    model=model,
                    inputs=inputs,
                    outputs=outputs,
                )
                total += loss.detach() * len(batch)
                scaled = loss / len(group)
                (scaler.scale(scaled) if scaler else scaled).backward()
            _step(model, optimizer, scheduler, scaler)
        record = {"epoch": epoch, "train_loss": float(total) / len(train_split.rows)}
        if validation is not None and len(validation.rows):
            record["val_loss"] = evaluate_loss(model, validation, s, padder, columns)
            if s.select_by == "val_loss" and record["val_loss"] < best_loss:
                best_loss = record["val_loss"]
                best_state = trainable_snapshot(model)
        history.append(record)
        if end_of_epoch is not None:
            end_of_epoch(epoch)
    if best_state is None:
        return history, s.epochs
    model.load_state_dict(best_state, strict=False)  # only trainable tensors were saved
    return history, min(history, key=lambda record: record["val_loss"])["epoch"]


def trainable_snapshot(model: Any) -> dict[str, torch.Tensor]:
    """CPU copies of the trainable parameters: all of them in a full fine-tune, only the adapters
    and the head under LoRA, so keeping the best epoch costs no second copy of a frozen base."""
    return {
        name: p.detach().to("cpu", copy=True)
        for name, p in model.named_parameters()
        if p.requires_grad
    }


def _step(model: Any, optimizer: Any, scheduler: Any, scaler: Any) -> None:
    if scaler is not None:
        scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
    if scaler is not None:
        scaler.step(optimizer)
        scaler.update()
    else:
        optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)


def predict_batches(
    model: Any,
    rows: Sequence[Any],
    batch_size: int,
    padder: Padder,
    precision: str,
    columns: Any,
) -> list[tuple[np.ndarray, torch.Tensor]]:
    """(row indices, fp32 logits) over batches of similar length; the caller restores the order."""
    return forward_batches(
        model,
        rows,
        batch_size,
        padder,
        precision,
        lambda _, outputs: class_logits(outputs, columns),
    )


def forward_batches(
    model: Any,
    rows: Sequence[Any],
    batch_size: int,
    padder: Padder,
    precision: str,
    read: Callable[[dict, Any], torch.Tensor],
    hidden_states: bool = False,
) -> list[tuple[np.ndarray, torch.Tensor]]:
    """(row indices, ``read(inputs, outputs)``) over batches of similar length, in eval mode
    without gradients; the caller restores the row order."""
    model.eval()
    results = []
    with torch.inference_mode():
        for batch in length_batches([len(row) for row in rows], batch_size):
            inputs = padder([rows[i] for i in batch])
            outputs = model_outputs(model, inputs, precision, hidden_states)
            results.append((batch, read(inputs, outputs)))
    return results


def evaluate_loss(
    model: Any, split: Batches, s: LoopSettings, padder: Padder, columns: Any
) -> float:
    """Mean cross-entropy of ``split`` (summed in fp32 over length-sorted batches)."""
    total = torch.zeros((), device=s.device)
    targets = torch.as_tensor(split.targets, device=s.device)
    for batch, logits in predict_batches(
        model, split.rows, s.eval_batch_size, padder, s.precision, columns
    ):
        index = torch.as_tensor(batch, device=s.device)
        total += F.cross_entropy(logits, targets[index], reduction="sum")
    return float(total) / len(split.rows)
