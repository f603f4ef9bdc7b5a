"""The ``transformer`` backend of the rationale models: the Hugging Face encoder the backend's
``path`` names, loaded the way the transformer backend loads it (models.hf_loading).

The selector and the predictor are two copies of the encoder (as in CR, whose BERT version has
two, Shortcut Maze Table 7), each fine-tuned. The predictor reads only the kept tokens: the
input embeddings are multiplied by the mask, so a dropped token enters as an empty input (no
content; only its position remains, which tells the length of the text and nothing else), and
the straight-through gradient tells the selector what keeping each dropped token would change
(hiding dropped positions from attention instead would cut that signal, and the selector would
learn only from its own noise). The tokenizer's special tokens ([CLS], [SEP]) are always
visible and never part of a rationale. Class logits come from the mean of the kept and special
positions' last hidden states, which works for encoders and decoders alike. A2R's full-input predictor runs the predictor's encoder on the
whole text and pools its states with the selector's soft attention.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.rationale_masks import TokenBatch, TokenRow
from shortcutlab.mitigations.rationale_settings import TrainingSettings
from shortcutlab.models.hf_loading import ModelSource, model_source
from shortcutlab.torch_runtime import resolve_precision


class EncoderBackend:
    """Tokenises with the checkpoint's fast tokenizer (character offsets) and builds the network."""

    @staticmethod
    def training_settings(model: Any, device: str) -> TrainingSettings:
        """The transformer's recipe: linear warm-up and decay, clipping at 1 (BERT's), mixed
        precision on CUDA, and the epoch ``select_by`` picks."""
        return TrainingSettings(
            epochs=model.epochs,
            lr=model.lr,
            batch_size=model.batch_size,
            eval_batch_size=model.eval_batch_size,
            weight_decay=model.weight_decay,
            patience=None,
            warmup_ratio=model.warmup_ratio,
            decay=True,
            keep_best=model.select_by == "val_loss",
            max_grad_norm=1.0,
            precision=resolve_precision(model.precision, model.name, device),
            device=device,
            seed=model.seed,
        )

    def __init__(self, model: Any, texts: Sequence[str]) -> None:
        """``texts``: the training texts, which the checkpoint's fixed tokenizer does not need."""
        from transformers import AutoTokenizer

        self.source: ModelSource = model_source(model.name, "path", model.path)
        self.tokenizer = self.source.load(AutoTokenizer.from_pretrained)
        if not self.tokenizer.is_fast:
            raise ConfigError(
                f"The rationale models need a fast tokenizer (with character offsets) for "
                f"'{model.path}'; save the checkpoint with a tokenizer.json."
            )
        pad_id = self.tokenizer.pad_token_id
        self.pad_id = int(pad_id if pad_id is not None else self.tokenizer.eos_token_id or 0)
        self.max_length = min(model.max_length, self.tokenizer.model_max_length)

    def encode(self, texts: Sequence[str]) -> list[TokenRow]:
        encoded = self.tokenizer(
            list(texts),
            truncation=True,
            max_length=self.max_length,
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
            return_attention_mask=False,
        )
        rows = []
        for ids, offsets, special in zip(
            encoded["input_ids"],
            encoded["offset_mapping"],
            encoded["special_tokens_mask"],
            strict=True,
        ):
            if not ids:  # a tokenizer without special tokens turns "" into no tokens
                rows.append(TokenRow(np.array([self.pad_id]), [(0, 0)], np.zeros(1, bool)))
                continue
            spans = [(int(start), int(end)) for start, end in offsets]
            selectable = np.array(
                [
                    not is_special and end > start
                    for (start, end), is_special in zip(spans, special, strict=True)
                ]
            )
            rows.append(TokenRow(np.array(ids, dtype=np.int64), spans, selectable))
        return rows

    def network(self, n_classes: int, full_input: bool) -> EncoderRationaleNetwork:
        from transformers import AutoModel

        def load() -> Any:
            return self.source.load(AutoModel.from_pretrained, dtype=torch.float32)

        return EncoderRationaleNetwork(load(), load(), n_classes, full_input)


class EncoderRationaleNetwork(nn.Module):
    """Selector encoder + token head; predictor encoder + rationale head (+ full-input head)."""

    def __init__(
        self, selector: nn.Module, predictor: nn.Module, n_classes: int, full_input: bool
    ) -> None:
        super().__init__()
        hidden = predictor.config.hidden_size
        self.selector_encoder, self.predictor_encoder = selector, predictor
        self.selector_head = nn.Linear(selector.config.hidden_size, 1)
        self.rationale_head = nn.Linear(hidden, n_classes)
        self.full_input_head = nn.Linear(hidden, n_classes) if full_input else None

    def selector_logits(self, batch: TokenBatch) -> torch.Tensor:
        states = self.selector_encoder(
            input_ids=batch.ids, attention_mask=batch.present.long()
        ).last_hidden_state
        return self.selector_head(states).squeeze(-1).float()

    def predict(self, batch: TokenBatch, mask: torch.Tensor) -> torch.Tensor:
        special = (batch.present & ~batch.selectable).to(mask.dtype)
        visible = (mask + special).unsqueeze(-1)
        embeddings = self.predictor_encoder.get_input_embeddings()(batch.ids)
        states = self.predictor_encoder(
            inputs_embeds=embeddings * visible.to(embeddings.dtype),
            attention_mask=batch.present.long(),
        ).last_hidden_state
        weights = visible.to(states.dtype)
        pooled = (states * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1)
        return self.rationale_head(pooled).float()

    def attend(self, batch: TokenBatch, weights: torch.Tensor) -> torch.Tensor:
        states = self.predictor_encoder(
            input_ids=batch.ids, attention_mask=batch.present.long()
        ).last_hidden_state
        pooled = (states * weights.unsqueeze(-1).to(states.dtype)).sum(dim=1)
        return self.full_input_head(pooled).float()  # type: ignore[misc]  # built with full_input
