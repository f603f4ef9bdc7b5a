"""The predictor of the last-layer methods (DFR, LLR, AFR) and GroupDRO's linear heads: a fitted
backend's features (its last layer's input) through a new head (W, b), then a softmax.

Backends expose ``features(inputs)`` and ``last_layer()`` (models/base.py ``LastLayerModel``), with
``softmax(features(x) @ W.T + b) == predict_proba(x)`` for their own head, so swapping (W, b) is
all a last-layer method changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.mitigations.linear_head import Head, HeadTraining, train_head
from shortcutlab.models.base import TextClassifier


class LastLayerPredictor:
    """``softmax(model.features(x) @ W.T + b)``; labels with a bias of -inf get probability 0."""

    def __init__(self, model: TextClassifier, head: Head) -> None:
        self.model = model
        self.weights, self.bias = np.asarray(head[0]), np.asarray(head[1])

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray:
        if not len(inputs):
            return np.zeros((0, len(self.bias)))
        return softmax(head_logits(self.model.features(list(inputs)), (self.weights, self.bias)))

    def predict(self, inputs: Sequence[TextInput]) -> np.ndarray:
        return self.predict_proba(inputs).argmax(axis=1)

    def close(self) -> None:
        self.model.close()


def refit_near_erm(
    model: TextClassifier,
    features: Any,
    labels: np.ndarray,
    *,
    n_classes: int,
    sample_weight: np.ndarray,
    reg: float,
    max_iter: int,
    seed: int,
) -> LastLayerPredictor:
    """``model`` with its head refitted on ``features``: weighted cross-entropy plus
    ``reg``·‖(W, b) − (W_erm, b_erm)‖², from the ERM head, by full-batch L-BFGS (AFR, LLR)."""
    erm_head = model.last_layer()
    head = train_head(
        features,
        labels,
        n_classes,
        training=HeadTraining(epochs=max_iter, batch_size=None),
        seed=seed,
        sample_weight=sample_weight,
        init=erm_head,
        anchor=erm_head,
        pull=reg,
    )
    return LastLayerPredictor(model, head)


def head_logits(features: Any, head: Head) -> np.ndarray:
    """``features @ W.T + b`` for dense or scipy sparse features, as a dense float64 array."""
    weights, bias = head
    return np.asarray(features @ np.asarray(weights, dtype=np.float64).T) + bias


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax that treats -inf logits as probability 0."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exponent = np.exp(shifted)
    return exponent / exponent.sum(axis=1, keepdims=True)


def standardised_head(head: Head, mean: np.ndarray, scale: np.ndarray) -> Head:
    """The head on raw features equal to ``head`` on (features - mean) / scale."""
    weights = np.asarray(head[0]) / scale
    return weights, np.asarray(head[1]) - weights @ mean


def feature_standardisation(features: Any) -> tuple[np.ndarray, np.ndarray]:
    """(mean, scale) per feature column; sparse features are only scaled (mean 0), which keeps
    them sparse; a constant column gets scale 1."""
    if hasattr(features, "tocsr"):
        matrix = features.tocsr()
        mean = np.zeros(matrix.shape[1])
        centred_square = np.asarray(matrix.multiply(matrix).mean(axis=0)).ravel()
        column_mean = np.asarray(matrix.mean(axis=0)).ravel()
        variance = centred_square - column_mean**2
    else:
        matrix = np.asarray(features, dtype=np.float64)
        mean = matrix.mean(axis=0)
        variance = matrix.var(axis=0)
    scale = np.sqrt(np.maximum(variance, 0.0))
    return mean, np.where(scale > 1e-12, scale, 1.0)
