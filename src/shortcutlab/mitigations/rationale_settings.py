"""What the rationale models read of their backend's parameters, and what they refuse.

The model entry of a grid (``{name: bow-mlp, epochs: 20}``) is shared by every mitigation it is
crossed with, so a2r and cr train with the backend's own recipe: bow-mlp's vocabulary, sizes,
AdamW at a constant rate, early stopping on the validation loss with ``patience``; the
transformer's checkpoint, ``max_length``, AdamW with linear warm-up/decay, gradient clipping at
1, mixed precision on CUDA and ``select_by``. Weight decay spares biases and normalisation
weights on both (the transformer backend's groups). ``reinit_head`` changes nothing (the heads
are always new: the encoder is loaded without its head). Parameters they cannot honour are
refused rather than ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shortcutlab.data.pairs import is_paired
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.base import MitigationContext
from shortcutlab.torch_runtime import resolve_device, resolve_precision

#: Rows per forward pass when predicting (bow-mlp's bags are cheap, as in models/bow_mlp.py).
BOW_PREDICT_BATCH = 1024


@dataclass(frozen=True)
class TrainingSettings:
    epochs: int
    lr: float
    batch_size: int
    eval_batch_size: int
    weight_decay: float
    #: Epochs without a better validation loss before stopping; None never stops early.
    patience: int | None
    warmup_ratio: float
    #: Linear decay of the learning rate to 0 (the transformer recipe); else constant.
    decay: bool
    #: Keep the epoch with the lowest validation loss (when there is a validation split).
    keep_best: bool
    max_grad_norm: float | None
    precision: str
    device: str
    seed: int


def rationale_settings(context: MitigationContext, mitigation: str) -> tuple[Any, TrainingSettings]:
    """The checked backend model (its parameters) and the training settings taken from it."""
    if is_paired(context.train.inputs):
        raise ConfigError(
            f"The {mitigation} mitigation selects a rationale inside one text, but the data has "
            "paired inputs (text and text_pair). Use it on single-text data, or use erm."
        )
    model = context.new_model()
    model.check()
    device = resolve_device(model.device, model.name)
    if context.model == "bow-mlp":
        return model, TrainingSettings(
            epochs=model.epochs,
            lr=model.lr,
            batch_size=model.batch_size,
            eval_batch_size=BOW_PREDICT_BATCH,
            weight_decay=model.weight_decay,
            patience=model.patience,
            warmup_ratio=0.0,
            decay=False,
            keep_best=True,
            max_grad_norm=None,
            precision="fp32",
            device=device,
            seed=model.seed,
        )
    refuse_unsupported(mitigation, model)
    return model, TrainingSettings(
        epochs=model.epochs,
        lr=model.lr,
        batch_size=model.batch_size,
        eval_batch_size=model.eval_batch_size,
        weight_decay=model.weight_decay,
        patience=None,
        warmup_ratio=model.warmup_ratio,
        decay=True,
        keep_best=model.select_by == "val_loss",
        max_grad_norm=1.0,  # the transformer backend's clipping (BERT's recipe)
        precision=resolve_precision(model.precision, model.name, device),
        device=device,
        seed=model.seed,
    )


def refuse_unsupported(mitigation: str, model: Any) -> None:
    """Refuse the transformer parameters a rationale model cannot honour (``model``: an
    unfitted backend instance, so its defaults are filled in)."""
    if model.name != "transformer":
        return
    _refuse(mitigation, "lora", model.lora, None, "it fine-tunes two encoders in full")
    _refuse(mitigation, "grad_accum", model.grad_accum, 1, "it steps once per batch")


def _refuse(mitigation: str, parameter: str, value: Any, default: Any, why: str) -> None:
    if value != default:
        raise ConfigError(
            f"The {mitigation} mitigation does not support the transformer {parameter!r} "
            f"parameter ({why}). Got {value!r}; remove it from this model's parameters."
        )
