"""What the rationale models read of their backend's parameters, and what they refuse.

The model entry of a grid (``{name: bow-mlp, epochs: 20}``) is shared by every mitigation it is
crossed with, so a2r and cr train with the backend's own recipe: bow-mlp's vocabulary, sizes,
AdamW at a constant rate, early stopping on the validation loss with ``patience``; the
transformer's checkpoint, ``max_length``, AdamW with linear warm-up/decay, gradient clipping at
1, mixed precision on CUDA and ``select_by``. Weight decay spares biases and normalisation
weights on both (the transformer backend's groups). ``reinit_head`` changes nothing (the heads
are always new: the encoder is loaded without its head). Parameters they cannot honour are
refused rather than ignored.

``RATIONALE_BACKENDS`` has one line per kind of network a model declares (its ``network``
capability, models/registry.py): the backend class that tokenises and builds the rationale
network (imported lazily: it needs torch), and the parameters it refuses (``refused``: the
parameter, the only value it honours, and why).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shortcutlab.data.pairs import is_paired
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.base import MitigationContext
from shortcutlab.models import MODELS
from shortcutlab.params import quoted
from shortcutlab.registry import Registry
from shortcutlab.torch_runtime import resolve_device


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


RATIONALE_BACKENDS: Registry[Any] = Registry("rationale network", capabilities={"refused": ()})
RATIONALE_BACKENDS.add("bag-of-words", "shortcutlab.mitigations.rationale_bow:BowBackend")
RATIONALE_BACKENDS.add(
    "encoder",
    "shortcutlab.mitigations.rationale_transformer:EncoderBackend",
    refused=(
        ("lora", None, "it fine-tunes two encoders in full"),
        ("grad_accum", 1, "it steps once per batch"),
    ),
)


def network_kind(model: str) -> str:
    """The kind of network ``model`` trains (its registry line's ``network``)."""
    return str(MODELS.capabilities(model)["network"])


def rationale_settings(
    context: MitigationContext, mitigation: str
) -> tuple[Any, type[Any], TrainingSettings]:
    """The checked backend model (its parameters), the rationale backend class for its network
    and the training settings taken from it."""
    if is_paired(context.train.inputs):
        raise ConfigError(
            f"The {mitigation} mitigation selects a rationale inside one text, but the data has "
            "paired inputs (text and text_pair). Use it on single-text data, or use erm."
        )
    model = context.new_model()
    model.check()
    refuse_unsupported(mitigation, model)
    backend = RATIONALE_BACKENDS.get(network_kind(context.model))
    return (
        model,
        backend,
        backend.training_settings(model, resolve_device(model.device, model.name)),
    )


def refuse_unsupported(mitigation: str, model: Any) -> None:
    """Refuse the parameters a rationale model cannot honour on ``model``'s network (``model``:
    an unfitted backend instance, so its defaults are filled in)."""
    kind = network_kind(model.name)
    for parameter, honoured, why in RATIONALE_BACKENDS.capabilities(kind)["refused"]:
        value = getattr(model, parameter)
        if value != honoured:
            raise ConfigError(
                f"The {mitigation} mitigation does not support the {model.name} {quoted(parameter)} "
                f"parameter ({why}). Got {quoted(value)}; remove it from this model's parameters."
            )
