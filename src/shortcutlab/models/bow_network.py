"""The torch module of ``bow-mlp``; a module of its own so ``bow_mlp`` imports torch lazily and
fitted models still pickle (a class defined inside a function would not)."""

from __future__ import annotations

import torch
from torch import nn


class BagOfWordsNetwork(nn.Module):
    """Mean of token embeddings -> ReLU hidden layer -> one logit per training label."""

    def __init__(
        self, vocab_size: int, embedding_dim: int, hidden_dim: int, n_outputs: int
    ) -> None:
        super().__init__()
        self.bag = nn.EmbeddingBag(max(vocab_size, 1), embedding_dim, mode="mean")
        self.mlp = nn.Sequential(
            nn.Linear(embedding_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, n_outputs)
        )

    def forward(self, ids: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        return self.mlp(self.bag(ids, offsets))
