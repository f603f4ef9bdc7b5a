"""What a fine-tuned ``transformer`` represents: the input of its final classification layer (for
last-layer methods such as DFR, LLR, AFR) and pooled last-layer token states (``embed``).

The classification layer is found, not named: the last ``Linear`` with one output per label
outside the base model (BERT ``classifier``, RoBERTa ``classifier.out_proj``, Llama ``score``,
under LoRA the trained copy peft keeps). Its input is captured with a forward pre-hook, so every
architecture's own head (pooler, dense + tanh, dropout) runs unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import torch

from shortcutlab.errors import ConfigError
from shortcutlab.models.transformer_training import Padder, forward_batches
from shortcutlab.params import quoted

POOLINGS = ("cls", "mean")


def classification_layer(model: Any) -> torch.nn.Linear:
    """The ``Linear`` that makes the logits of a sequence-classification ``model``."""
    network = model.get_base_model() if hasattr(model, "get_base_model") else model
    prefix = network.base_model_prefix
    candidates = [
        module
        for name, module in network.named_modules()
        if isinstance(module, torch.nn.Linear)
        and module.out_features == network.config.num_labels
        and name.split(".")[0] != prefix
        and "original_module" not in name.split(".")  # peft's frozen copy of a saved module
    ]
    if not candidates:
        raise ConfigError(
            f"The transformer model ({type(network).__name__}) has no linear classification layer "
            f"with {network.config.num_labels} outputs, so it exposes no last layer."
        )
    return candidates[-1]


def last_layer_input(
    model: Any, rows: Sequence[Any], batch_size: int, padder: Padder, precision: str
) -> np.ndarray:
    """float32 (n, d): what :func:`classification_layer` reads for each row.

    A decoder classifier applies the layer to every token and keeps one token's logits: the
    rightmost token that is not padding (transformers' rule, e.g. ``LlamaForSequenceClassification``);
    the same token's input is kept here.
    """
    layer = classification_layer(model)
    pad_id = model.config.pad_token_id

    def read(inputs: dict, _: Any) -> torch.Tensor:
        hidden = captured.pop()
        if hidden.dim() == 3:
            ids = inputs["input_ids"]
            if pad_id is None:
                last = torch.full((len(ids),), ids.shape[1] - 1, device=ids.device)
            else:
                positions = torch.arange(ids.shape[1], device=ids.device)
                last = (positions * (ids != pad_id)).argmax(-1)
            hidden = hidden[torch.arange(len(ids), device=ids.device), last]
        return hidden.float()

    with captured_inputs(layer) as captured:
        batches = forward_batches(model, rows, batch_size, padder, precision, read)
    return _in_row_order(batches, len(rows), layer.in_features)


def pooled_states(
    model: Any, rows: Sequence[Any], batch_size: int, padder: Padder, precision: str, pooling: str
) -> np.ndarray:
    """float32 (n, hidden): the last layer's token states pooled per row, the first real token's
    (``"cls"``: BERT's [CLS], before any pooler) or the mean over real tokens (``"mean"``)."""
    if pooling not in POOLINGS:
        raise ConfigError(
            f"The 'pooling' parameter of transformer embed must be one of {', '.join(POOLINGS)}. "
            f"Got {quoted(pooling)} instead."
        )

    def read(inputs: dict, outputs: Any) -> torch.Tensor:
        states = outputs.hidden_states[-1].float()
        mask = inputs["attention_mask"]
        if pooling == "cls":  # the first real token, wherever the padding side puts it
            return states[torch.arange(len(mask), device=mask.device), mask.argmax(-1)]
        weights = mask.unsqueeze(-1).to(states.dtype)
        return (states * weights).sum(1) / weights.sum(1).clamp(min=1)

    batches = forward_batches(model, rows, batch_size, padder, precision, read, hidden_states=True)
    width = batches[0][1].shape[1] if batches else model.config.hidden_size
    return _in_row_order(batches, len(rows), width)


@contextlib.contextmanager
def captured_inputs(module: torch.nn.Module) -> Iterator[list[torch.Tensor]]:
    """A list that receives ``module``'s first positional input at each forward call."""
    captured: list[torch.Tensor] = []
    handle = module.register_forward_pre_hook(lambda _, args: captured.append(args[0]))
    try:
        yield captured
    finally:
        handle.remove()


def _in_row_order(
    batches: list[tuple[np.ndarray, torch.Tensor]], n_rows: int, width: int
) -> np.ndarray:
    matrix = np.zeros((n_rows, width), dtype=np.float32)
    for batch, values in batches:
        matrix[batch] = values.cpu().numpy()
    return matrix
