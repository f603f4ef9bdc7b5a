"""The ``bow-mlp`` backend of the rationale models: bow-mlp's word tokens (with their character
offsets), its vocabulary, sizes and training settings.

bow-mlp has no sequence encoder, so the selector scores each word from its own embedding next
to the mean embedding of its text (its context), and the predictor is bow-mlp's network on a
weighted bag: the mean embedding of the kept words and of the bigrams whose two words are both
kept (a bigram with a dropped word would leak it). Words outside the vocabulary keep their
position (so they can be shown as dropped) and share one "unknown word" embedding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from shortcutlab.mitigations.rationale_masks import TokenBatch, TokenRow
from shortcutlab.mitigations.rationale_settings import TrainingSettings
from shortcutlab.models.bow_mlp import build_vocabulary, tokenize

PAD, UNKNOWN = 0, 1  # ids below the vocabulary's, which starts at 2
#: Rows per forward pass when predicting (bow-mlp's bags are cheap, as in models/bow_mlp.py).
PREDICT_BATCH = 1024


def word_spans(text: str) -> list[tuple[int, int]]:
    """The character span in ``text`` of each word bow-mlp's ``tokenize`` returns.

    ``tokenize`` matches words in the lowercased text; every letter or digit belongs to a word,
    so each word is the next occurrence of itself after the previous one. Lowercasing can
    lengthen a character ("İ" -> "i̇"), so offsets are mapped back through a per-character map
    (a span then covers the whole original character).

    Examples:
        >>> text = "Don't BUY it!"
        >>> [text[s:e] for s, e in word_spans(text)]
        ["Don't", 'BUY', 'it']
    """
    pieces = [character.lower() for character in text]
    lowered = "".join(pieces)
    origin = np.repeat(np.arange(len(text)), [len(piece) for piece in pieces])
    spans, position = [], 0
    for word in tokenize(text, bigrams=False):
        start = lowered.find(word, position)
        position = start + len(word)
        spans.append((int(origin[start]), int(origin[position - 1]) + 1))
    return spans


class BowBackend:
    """Turns texts into token rows over a vocabulary built from the training texts."""

    pad_id = PAD

    @staticmethod
    def training_settings(model: Any, device: str) -> TrainingSettings:
        """bow-mlp's recipe: AdamW at a constant rate, early stopping with ``patience``."""
        return TrainingSettings(
            epochs=model.epochs,
            lr=model.lr,
            batch_size=model.batch_size,
            eval_batch_size=PREDICT_BATCH,
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

    def __init__(self, model: Any, texts: Sequence[str]) -> None:
        self.bigrams = model.bigrams
        self.embedding_dim, self.hidden_dim = model.embedding_dim, model.hidden_dim
        self.vocabulary = build_vocabulary(
            [tokenize(text, model.bigrams) for text in texts], model.min_count, model.max_vocab
        )

    def encode(self, texts: Sequence[str]) -> list[TokenRow]:
        return [self._row(text) for text in texts]

    def network(self, n_classes: int, full_input: bool) -> BowRationaleNetwork:
        return BowRationaleNetwork(
            len(self.vocabulary) + 2, self.embedding_dim, self.hidden_dim, n_classes, full_input
        )

    def _id(self, token: str, missing: int) -> int:
        index = self.vocabulary.get(token)
        return missing if index is None else index + 2

    def _row(self, text: str) -> TokenRow:
        tokens = tokenize(text, self.bigrams)
        spans = word_spans(text)
        words, pairs = tokens[: len(spans)], tokens[len(spans) :]  # tokenize puts bigrams last
        ids = np.array([self._id(word, UNKNOWN) for word in words], dtype=np.int64)
        bigrams = None
        if self.bigrams:  # a bigram outside the vocabulary is left out of the bag, as in bow-mlp
            bigrams = np.array([self._id(pair, PAD) for pair in pairs], dtype=np.int64)
        if not spans:  # a text without words still needs one position; nothing is selectable
            return TokenRow(np.array([PAD]), [(0, 0)], np.zeros(1, bool), bigrams)
        return TokenRow(ids, spans, np.ones(len(spans), dtype=bool), bigrams)


def _mlp(width: int, hidden: int, outputs: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, outputs))


class BowRationaleNetwork(nn.Module):
    """Selector, rationale predictor and (for A2R) full-input predictor over word embeddings.

    The selector has its own embedding table; the two predictors share one and have their own
    MLP heads (A2R shares the predictors' encoder, section 4 of the paper).
    """

    def __init__(
        self, vocab_size: int, embedding_dim: int, hidden_dim: int, n_classes: int, full_input: bool
    ) -> None:
        super().__init__()
        self.selector_embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=PAD)
        self.selector = _mlp(2 * embedding_dim, hidden_dim, 1)
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=PAD)
        self.rationale_head = _mlp(embedding_dim, hidden_dim, n_classes)
        self.full_input_head = _mlp(embedding_dim, hidden_dim, n_classes) if full_input else None

    def selector_logits(self, batch: TokenBatch) -> torch.Tensor:
        embedded = self.selector_embedding(batch.ids)
        weights = batch.present.to(embedded.dtype).unsqueeze(-1)
        context = (embedded * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1)
        features = torch.cat([embedded, context.unsqueeze(1).expand_as(embedded)], dim=-1)
        return self.selector(features).squeeze(-1)

    def predict(self, batch: TokenBatch, mask: torch.Tensor) -> torch.Tensor:
        total = (self.embedding(batch.ids) * mask.unsqueeze(-1)).sum(dim=1)
        count = mask.sum(dim=1)
        if batch.bigrams is not None and batch.bigrams.shape[1]:
            both = mask[:, :-1] * mask[:, 1:] * (batch.bigrams != PAD)
            total = total + (self.embedding(batch.bigrams) * both.unsqueeze(-1)).sum(dim=1)
            count = count + both.sum(dim=1)
        return self.rationale_head(total / count.clamp(min=1).unsqueeze(-1))

    def attend(self, batch: TokenBatch, weights: torch.Tensor) -> torch.Tensor:
        pooled = (self.embedding(batch.ids) * weights.unsqueeze(-1)).sum(dim=1)
        return self.full_input_head(pooled)  # type: ignore[misc]  # built with full_input
