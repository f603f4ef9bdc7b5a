"""A scikit-learn classifier head that also copes with a training split holding a single label."""

from __future__ import annotations

from typing import Any

import numpy as np

from shortcutlab.models.base import expand_columns


class SklearnHead:
    """Fits ``estimator`` on features; with one training label it predicts that label's prior.

    scikit-learn classifiers refuse single-class data, but a small or imbalanced benchmark split may
    have one; the constant answer keeps the (n, n_classes) contract instead of failing a grid cell.
    """

    def __init__(self, estimator: Any, n_classes: int) -> None:
        self.estimator = estimator
        self.n_classes = n_classes
        self.constant: np.ndarray | None = None

    def fit(self, features: Any, labels: np.ndarray) -> SklearnHead:
        if len(np.unique(labels)) < 2:
            self.constant = np.bincount(labels, minlength=self.n_classes) / len(labels)
        else:
            self.estimator.fit(features, labels)
        return self

    def predict_proba(self, features: Any, n_rows: int) -> np.ndarray:
        if n_rows == 0:
            return np.zeros((0, self.n_classes))
        if self.constant is not None:
            return np.tile(self.constant, (n_rows, 1))
        probabilities = self.estimator.predict_proba(features)
        return expand_columns(probabilities, self.estimator.classes_, self.n_classes)
