"""A softmax-linear head trained in torch on fixed features: the trainable part of the last-layer
methods (AFR, LLR) and of GroupDRO on the linear-probe backends (tfidf-logreg, sentence-encoder).

It reads dense arrays or scipy sparse matrices (TF-IDF), weighs rows' losses, runs a training
objective (models/objectives.py) instead of the mean loss when given one, and adds an ℓ2 decay
towards zero (``decay``, the weights only, as scikit-learn's C does) and an ℓ2 pull towards an
anchor head (``pull``, weights and biases, AFR's regulariser).

Full batch (``batch_size=None``) runs L-BFGS on the convex weighted loss, deterministic and to
convergence; minibatches run Adam over ``epochs`` seeded shuffles (needed by online objectives
such as GroupDRO's, whose group weights move with each batch). Computation is float64 on the CPU:
heads are small, and the same seed then gives the same bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.params import check_non_negative_float

Head = tuple[np.ndarray, np.ndarray]  # (W, b): shapes (n_classes, d) and (n_classes,)


@dataclass(frozen=True)
class HeadTraining:
    """How a head is optimised: ``epochs`` passes of Adam at ``lr`` over ``batch_size`` rows, or,
    with ``batch_size=None``, L-BFGS for at most ``epochs`` iterations."""

    epochs: int = 100
    lr: float = 0.01
    batch_size: int | None = None


def decay_for_c(c: float, n_rows: int) -> float:
    """The ``decay`` whose mean-loss objective has scikit-learn's minimiser for ``C``:
    0.5·‖W‖² + C·Σℓ, divided by C·n."""
    return 1.0 / (2.0 * c * n_rows)


def train_head(
    features: Any,
    labels: np.ndarray,
    n_classes: int,
    *,
    training: HeadTraining,
    seed: int,
    sample_weight: np.ndarray | None = None,
    objective: Any = None,
    init: Head | None = None,
    anchor: Head | None = None,
    pull: float = 0.0,
    decay: float = 0.0,
) -> Head:
    """Train softmax(features @ W.T + b) on ``labels`` and return (W, b) for all ``n_classes``.

    Labels with no training row and no finite bias in ``init`` are left out of the softmax (bias
    -inf), as a backend leaves out labels its training split lacks.
    """
    import torch

    check_non_negative_float("the linear head", "pull", pull)
    check_non_negative_float("the linear head", "decay", decay)
    if objective is not None and training.batch_size is None:
        raise ConfigError(
            "A training objective updates its state on every batch; train the head with "
            "minibatches (a batch_size), not full-batch L-BFGS."
        )
    n_rows, n_features = features.shape
    columns = _trained_columns(labels, n_classes, init)
    targets = torch.as_tensor(np.searchsorted(columns, labels), dtype=torch.long)
    linear = torch.nn.Linear(n_features, len(columns), dtype=torch.float64)
    start = _restricted(init, columns, n_features)
    with torch.no_grad():
        linear.weight.copy_(torch.as_tensor(start[0]))
        linear.bias.copy_(torch.as_tensor(start[1]))
    anchored = None if anchor is None else _restricted(anchor, columns, n_features)
    anchor_tensors = None if anchored is None else tuple(torch.as_tensor(a) for a in anchored)
    weights = torch.as_tensor(
        np.ones(n_rows) if sample_weight is None else sample_weight, dtype=torch.float64
    )
    matrix = _as_tensor(features)

    def penalty() -> Any:
        total = decay * linear.weight.pow(2).sum()
        if pull and anchor_tensors is not None:
            total = total + pull * (
                (linear.weight - anchor_tensors[0]).pow(2).sum()
                + (linear.bias - anchor_tensors[1]).pow(2).sum()
            )
        return total

    def batch_loss(index: Any) -> Any:
        block = _rows(matrix, index, features)
        product = (
            torch.sparse.mm(block, linear.weight.T) if block.is_sparse else block @ linear.weight.T
        )
        logits = product + linear.bias
        losses = torch.nn.functional.cross_entropy(logits, targets[index], reduction="none")
        if objective is not None:
            data = objective.loss(losses, index, model=linear, inputs=None, outputs=logits)
        else:
            row_weights = weights[index]
            data = (row_weights * losses).sum() / row_weights.sum()
        return data + penalty()

    with one_torch_thread():
        if training.batch_size is None:
            _full_batch(linear, batch_loss, n_rows, training)
        else:
            if objective is not None:
                objective.start(linear, n_rows)
            _minibatches(linear, batch_loss, n_rows, training, seed)
    return _expanded(linear, columns, n_classes)


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """Run torch on one intra-op thread for the block, then restore the caller's setting.

    A head's tensors are small, and OpenMP workers only contend: on the shared 2-core machine, a
    pow over 80,000 floats took 8.4 ms with torch's two threads and 0.18 ms with one, and GroupDRO's
    TF-IDF head trained 5x faster."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def _trained_columns(labels: np.ndarray, n_classes: int, init: Head | None) -> np.ndarray:
    trained = set(np.unique(labels).tolist())
    if init is not None:
        trained |= set(np.flatnonzero(np.isfinite(init[1])).tolist())
    return np.array(sorted(trained), dtype=np.int64)


def _restricted(head: Head | None, columns: np.ndarray, n_features: int) -> Head:
    """``head``'s rows for ``columns`` (zeros where absent or not finite)."""
    if head is None:
        return np.zeros((len(columns), n_features)), np.zeros(len(columns))
    weights, bias = np.asarray(head[0], dtype=np.float64), np.asarray(head[1], dtype=np.float64)
    bias = bias[columns]
    return weights[columns], np.where(np.isfinite(bias), bias, 0.0)


def _expanded(linear: Any, columns: np.ndarray, n_classes: int) -> Head:
    weights = np.zeros((n_classes, linear.weight.shape[1]))
    bias = np.full(n_classes, -np.inf)
    weights[columns] = linear.weight.detach().numpy()
    bias[columns] = linear.bias.detach().numpy()
    return weights, bias


def _as_tensor(features: Any) -> Any:
    import torch

    if hasattr(features, "tocsr"):  # scipy sparse: rows are sliced in scipy, then converted
        return features.tocsr()
    return torch.as_tensor(np.asarray(features, dtype=np.float64))


def _rows(matrix: Any, index: Any, features: Any) -> Any:
    import torch

    if not hasattr(features, "tocsr"):
        return matrix[index]
    block = matrix[index.numpy()]
    block.sum_duplicates()  # canonical CSR: sorted column indices, no repeats
    block = block.tocoo()  # row-major and without repeats: coalesced
    indices = torch.as_tensor(np.vstack([block.row, block.col]), dtype=torch.long)
    values = torch.as_tensor(block.data, dtype=torch.float64)
    return torch.sparse_coo_tensor(
        indices, values, block.shape, is_coalesced=True, check_invariants=False
    )


def _full_batch(linear: Any, batch_loss: Any, n_rows: int, training: HeadTraining) -> None:
    import torch

    everything = torch.arange(n_rows)
    optimizer = torch.optim.LBFGS(
        linear.parameters(),
        lr=1.0,
        max_iter=training.epochs,
        tolerance_grad=1e-9,
        tolerance_change=1e-12,
        history_size=20,
        line_search_fn="strong_wolfe",
    )

    def closure() -> Any:
        optimizer.zero_grad()
        loss = batch_loss(everything)
        loss.backward()
        return loss

    optimizer.step(closure)


def _minibatches(
    linear: Any, batch_loss: Any, n_rows: int, training: HeadTraining, seed: int
) -> None:
    import torch

    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(linear.parameters(), lr=training.lr)
    for _ in range(training.epochs):
        for index in torch.randperm(n_rows, generator=generator).split(training.batch_size):
            optimizer.zero_grad()
            batch_loss(index).backward()
            optimizer.step()
