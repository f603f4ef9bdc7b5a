"""A scikit-learn classifier head that also copes with a training split holding a single label."""

from __future__ import annotations

from typing import Any

import numpy as np

from shortcutlab.models.base import expand_columns, expand_last_layer


class SklearnHead:
    """Fits ``estimator`` on features; with one training label it predicts that label's prior.

    scikit-learn classifiers refuse single-class data, but a small or imbalanced benchmark split may
    have one; the constant answer keeps the (n, n_classes) contract instead of failing a grid cell.
    ``estimator`` may be a ``Pipeline``: its last step is the classifier, the steps before it make
    the classifier's input (:meth:`transform`).
    """

    def __init__(self, estimator: Any, n_classes: int) -> None:
        self.estimator = estimator
        self.n_classes = n_classes
        self.constant: np.ndarray | None = None
        self.n_features = 0  # the classifier's input width, for a constant head's last layer

    def fit(
        self, features: Any, labels: np.ndarray, sample_weight: np.ndarray | None = None
    ) -> SklearnHead:
        if len(np.unique(labels)) < 2:
            if sample_weight is None:
                self.constant = np.bincount(labels, minlength=self.n_classes) / len(labels)
            else:
                counts = np.bincount(labels, weights=sample_weight, minlength=self.n_classes)
                self.constant = counts / counts.sum()
            if _is_pipeline(self.estimator):  # fit the feature steps, so transform() works
                for _, step in self.estimator.steps[:-1]:
                    features = step.fit_transform(features)
            self.n_features = features.shape[1]
        elif sample_weight is None:
            self.estimator.fit(features, labels)
        elif _is_pipeline(self.estimator):
            last = self.estimator.steps[-1][0]
            self.estimator.fit(features, labels, **{f"{last}__sample_weight": sample_weight})
        else:
            self.estimator.fit(features, labels, sample_weight=sample_weight)
        return self

    def predict_proba(self, features: Any, n_rows: int) -> np.ndarray:
        if n_rows == 0:
            return np.zeros((0, self.n_classes))
        if self.constant is not None:
            return np.tile(self.constant, (n_rows, 1))
        probabilities = self.estimator.predict_proba(features)
        return expand_columns(probabilities, self.estimator.classes_, self.n_classes)

    def transform(self, features: Any) -> Any:
        """The classifier's input for ``features``: a pipeline's feature steps applied, or as given."""
        # Step by step: a sliced Pipeline re-validates its steps, which PairFeatures (not a
        # scikit-learn BaseEstimator) would fail.
        for _, step in self.estimator.steps[:-1] if _is_pipeline(self.estimator) else []:
            features = step.transform(features)
        return features

    def last_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """(W, b) of a fitted linear classifier (``coef_``, ``intercept_``), one row per benchmark
        label, such that softmax(transform(x) @ W.T + b) is its predict_proba.

        A constant head has zero weights and the log of its prior as biases.
        """
        if self.constant is not None:
            with np.errstate(divide="ignore"):
                bias = np.log(self.constant)
            return np.zeros((self.n_classes, self.n_features)), bias
        classifier = self.estimator[-1] if _is_pipeline(self.estimator) else self.estimator
        return linear_classifier_layer(classifier, self.n_classes)


def linear_classifier_layer(classifier: Any, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """(W, b) of a fitted scikit-learn linear classifier, one row per label rank in
    [0, n_classes) (labels it never saw: zero weights, bias -inf).

    A binary model stores one row w with P(second class) = sigmoid(x·w + b); softmax over the
    rows (0, w) and biases (0, b) gives exactly that.
    """
    weights = np.asarray(classifier.coef_, dtype=np.float64)
    bias = np.asarray(classifier.intercept_, dtype=np.float64)
    if len(classifier.classes_) == 2 and weights.shape[0] == 1:
        weights = np.vstack([np.zeros_like(weights), weights])
        bias = np.concatenate([[0.0], bias])
    return expand_last_layer(weights, bias, classifier.classes_, n_classes)


def _is_pipeline(estimator: Any) -> bool:
    return hasattr(estimator, "steps")
