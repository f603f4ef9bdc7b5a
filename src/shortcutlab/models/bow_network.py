"""The torch module of ``bow-mlp``; a module of its own so ``bow_mlp`` imports torch lazily and
fitted models still pickle (a class defined inside a function would not)."""

from __future__ import annotations

import torch
from torch import nn


class BagOfWordsNetwork(nn.Module):
    """Mean of token embeddings -> ReLU hidden layer -> one logit per training label.

    ``paired``: the bags come as n first parts then n second parts, and the MLP reads
    [u, v, |u - v|, u * v] of each row's two bags.
    """

    def __init__(
        self,
        vocab_size: int,
        embedding_dim: int,
        hidden_dim: int,
        n_outputs: int,
        *,
        paired: bool = False,
    ) -> None:
        super().__init__()
        self.paired = paired
        self.bag = nn.EmbeddingBag(max(vocab_size, 1), embedding_dim, mode="mean")
        width = embedding_dim * (4 if paired else 1)
        self.mlp = nn.Sequential(
            nn.Linear(width, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, n_outputs)
        )

    def forward(self, ids: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        return self.mlp[-1](self.hidden(ids, offsets))

    def hidden(self, ids: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        """The penultimate activation: the input of the output layer ``mlp[-1]``."""
        bags = self.bag(ids, offsets)
        if self.paired:
            u, v = bags.chunk(2)
            bags = torch.cat([u, v, (u - v).abs(), u * v], dim=-1)
        return self.mlp[1](self.mlp[0](bags))
