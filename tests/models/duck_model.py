"""A model as a practitioner writes one for a one-off: a plain class with ``fit`` and
``predict_proba``, no base class and no registration (models/adapters.py runs it)."""

from __future__ import annotations

from collections import Counter

import numpy as np


class WordCountModel:
    """Per-label word counts: a text's score for a label is how often the label's training rows
    used its words (plus ``smoothing``); labels the training rows lacked get probability 0."""

    def __init__(self, smoothing: float = 1.0) -> None:
        self.smoothing = smoothing

    def fit(self, texts, labels, *, n_classes):  # type: ignore[no-untyped-def]
        self.counts_ = [Counter() for _ in range(n_classes)]
        for text, label in zip(texts, labels, strict=True):
            self.counts_[label].update(text.split())
        self.seen_ = np.bincount(labels, minlength=n_classes) > 0
        return self

    def predict_proba(self, texts):  # type: ignore[no-untyped-def]
        scores = np.array(
            [[sum(c[w] for w in t.split()) + self.smoothing for c in self.counts_] for t in texts]
        ).reshape(len(texts), len(self.counts_))
        scores = scores * self.seen_
        return scores / scores.sum(axis=1, keepdims=True)
