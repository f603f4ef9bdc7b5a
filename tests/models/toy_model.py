"""A toy model defined inside the tests: the nearest centroid of bag-of-words counts.

It shows what adding a model takes: one class that follows the ``TextClassifier`` contract and
one registry line declaring its capabilities (one text per row, sample weights, a fit that no
seed changes). :func:`registered` adds the line for a ``with`` block and removes it after, so no
other test sees the toy; the model tests run under it (tests/models/conftest.py), so the common
tests over the registry pick it up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

import numpy as np

from shortcutlab.models import MODELS
from shortcutlab.models.base import (
    TextClassifier,
    check_input_kind,
    check_sample_weight,
    check_training_data,
)
from tests.registration import registered_for

TOY = "toy-centroid"


class NearestCentroid(TextClassifier):
    """Each label's (weighted) mean of unit-length word-count vectors; a text's probabilities are
    its label's (weighted) share times exp(``sharpness`` × cosine similarity to the centroid),
    normalised (0 for labels the training rows lack)."""

    name = TOY

    def __init__(self, sharpness: float = 10.0) -> None:
        self.sharpness = sharpness

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        check_input_kind(self, texts)
        labels = check_training_data(texts, labels, n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        weights = np.ones(len(labels)) if weights is None else weights
        words = sorted({word for text in texts for word in text.lower().split()})
        self.vocabulary_ = {word: index for index, word in enumerate(words)}
        sums = np.zeros((n_classes, len(words)))
        np.add.at(sums, labels, self._unit_counts(texts) * weights[:, None])
        lengths = np.linalg.norm(sums, axis=1, keepdims=True)
        self.centroids_ = sums / np.where(lengths > 0, lengths, 1.0)
        shares = np.bincount(labels, weights=weights, minlength=n_classes)
        with np.errstate(divide="ignore"):
            self.log_prior_ = np.log(shares / shares.sum())  # -inf for absent labels
        return self

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        check_input_kind(self, texts)
        logits = self.sharpness * self._unit_counts(texts) @ self.centroids_.T + self.log_prior_
        exp = np.exp(logits - logits.max(axis=1, keepdims=True))
        return exp / exp.sum(axis=1, keepdims=True)

    def _unit_counts(self, texts: Sequence[str]) -> np.ndarray:
        counts = np.zeros((len(texts), len(self.vocabulary_)))
        for row, text in enumerate(texts):
            for word in text.lower().split():
                if word in self.vocabulary_:
                    counts[row, self.vocabulary_[word]] += 1
        lengths = np.linalg.norm(counts, axis=1, keepdims=True)
        return counts / np.where(lengths > 0, lengths, 1.0)


def registered() -> AbstractContextManager[str]:
    """The toy model registered (its one line) inside a ``with`` block; its name is yielded."""
    return registered_for(MODELS, TOY, NearestCentroid, sample_weight=True, seeded=False)


def with_toy(names: Callable[[], list[str]] = MODELS.names) -> list[str]:
    """``names()`` of the registry while the toy is registered: what a test parametrised over
    the registry runs on (the model tests' autouse fixture registers the toy while they run)."""
    with registered():
        return names()
