"""Token rows, padded batches and the selector's mask for the rationale models (a2r, cr).

The selector gives each token a logit; training draws a hard 0/1 mask with a straight-through
Gumbel-sigmoid (the binary Gumbel-softmax of Jang et al. 2017 that both A2R and CR use: the
forward pass sees exact zeros and ones, the backward pass the relaxed sample's gradient). At
prediction time the mask is deterministic: a token is kept when its keep probability
sigmoid(logit) exceeds 0.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

#: Logit given to positions the selector may not choose, so a softmax over a row without any
#: choosable token stays finite (uniform) instead of NaN.
_NOT_CHOOSABLE = -1e4


@dataclass(frozen=True)
class TokenRow:
    """One text as the network reads it.

    ``ids``: token ids; ``spans[i]``: the half-open character range ``[start, end)`` of token i in
    the text; ``selectable[i]``: False for tokens that are not text (a transformer's [CLS],
    [SEP]), which the predictor always sees and a rationale never contains; ``bigrams[i]``: the
    id of the bigram (token i, token i+1), 0 when it has none (bow-mlp only).
    """

    ids: np.ndarray
    spans: list[tuple[int, int]]
    selectable: np.ndarray
    bigrams: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class TokenBatch:
    """Padded tensors of a batch of rows: ``present`` marks real positions, ``selectable`` the
    positions the selector may keep."""

    ids: torch.Tensor
    present: torch.Tensor
    selectable: torch.Tensor
    bigrams: torch.Tensor | None


def collate(rows: Sequence[TokenRow], pad_id: int, device: str) -> TokenBatch:
    """Right-pad ``rows`` to the longest one."""
    width = max(len(row) for row in rows)
    ids = np.full((len(rows), width), pad_id, dtype=np.int64)
    present = np.zeros((len(rows), width), dtype=bool)
    selectable = np.zeros((len(rows), width), dtype=bool)
    with_bigrams = rows[0].bigrams is not None
    bigrams = np.zeros((len(rows), max(width - 1, 0)), dtype=np.int64)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = row.ids
        present[i, : len(row)] = True
        selectable[i, : len(row)] = row.selectable
        if with_bigrams and len(row) > 1:
            bigrams[i, : len(row) - 1] = row.bigrams
    return TokenBatch(
        torch.from_numpy(ids).to(device),
        torch.from_numpy(present).to(device),
        torch.from_numpy(selectable).to(device),
        torch.from_numpy(bigrams).to(device) if with_bigrams else None,
    )


def sample_mask(
    logits: torch.Tensor, selectable: torch.Tensor, temperature: float, uniform: torch.Tensor
) -> torch.Tensor:
    """Straight-through Gumbel-sigmoid mask: hard 0/1 values, the relaxed sample's gradient.

    ``uniform`` holds U(0, 1) draws of ``logits``' shape (made by the caller's generator, so a
    fit is reproducible); positions that are not selectable are always 0.
    """
    uniform = uniform.clamp(1e-6, 1 - 1e-6)
    relaxed = torch.sigmoid((logits + torch.log(uniform) - torch.log1p(-uniform)) / temperature)
    hard = (relaxed > 0.5).to(relaxed.dtype)
    return (hard + relaxed - relaxed.detach()) * selectable


def kept_mask(logits: torch.Tensor, selectable: torch.Tensor) -> torch.Tensor:
    """The deterministic mask used for prediction and rationales: keep probability above 0.5."""
    return ((logits > 0) & selectable).to(logits.dtype)


def attention_weights(logits: torch.Tensor, selectable: torch.Tensor) -> torch.Tensor:
    """A2R's soft attention: a softmax of the selector's logits over the choosable tokens."""
    return torch.softmax(logits.masked_fill(~selectable, _NOT_CHOOSABLE), dim=-1) * selectable


def sparsity_penalty(mask: torch.Tensor, selectable: torch.Tensor, rate: float) -> torch.Tensor:
    """Mean over rows of |share of the row's tokens kept - rate| (Lei et al. 2016's sparsity,
    as a distance to a target rate the way A2R's code writes it)."""
    lengths = selectable.sum(dim=1).clamp(min=1)
    return ((mask.sum(dim=1) / lengths) - rate).abs().mean()


def continuity_penalty(mask: torch.Tensor, selectable: torch.Tensor) -> torch.Tensor:
    """Mean over rows of the number of keep/drop switches between neighbours, per token."""
    neighbours = selectable[:, 1:] & selectable[:, :-1]
    switches = ((mask[:, 1:] - mask[:, :-1]).abs() * neighbours).sum(dim=1)
    return (switches / selectable.sum(dim=1).clamp(min=1)).mean()


def js_divergence(logits_p: torch.Tensor, logits_q: torch.Tensor) -> torch.Tensor:
    """Mean Jensen-Shannon divergence between two predictors' class distributions (in nats).

    Columns that are -inf in both (labels without training rows) carry no probability and are
    left out: their 0·log 0 terms would otherwise be NaN."""
    kept = ~(torch.isinf(logits_p) & torch.isinf(logits_q)).all(dim=0)
    logits_p, logits_q = logits_p[:, kept], logits_q[:, kept]
    log_p, log_q = F.log_softmax(logits_p, dim=-1), F.log_softmax(logits_q, dim=-1)
    log_m = torch.logsumexp(torch.stack([log_p, log_q]), dim=0) - np.log(2.0)
    kl_pm = F.kl_div(log_m, log_p, log_target=True, reduction="batchmean")
    kl_qm = F.kl_div(log_m, log_q, log_target=True, reduction="batchmean")
    return 0.5 * (kl_pm + kl_qm)


def rationale_spans(row: TokenRow, kept: np.ndarray) -> list[tuple[int, int]]:
    """Character spans of the kept tokens of ``row``; pieces of one word that touch (WordPiece
    "hon" + "##estly") are merged, so ``text[start:end]`` reads as the kept word or word part."""
    spans: list[tuple[int, int]] = []
    for (start, end), keep in zip(row.spans, kept[: len(row)], strict=False):
        if not keep:
            continue
        if spans and spans[-1][1] == start:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans
