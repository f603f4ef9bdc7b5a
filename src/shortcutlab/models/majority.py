"""The majority-class baseline: predicts the training label distribution for every text."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.models.base import TextClassifier, check_sample_weight, check_training_data


class MajorityClass(TextClassifier):
    """Ignores the text; any gap between test and anti-test is then pure label-shift noise.

    Examples:
        >>> MajorityClass().fit(["a", "b", "c"], np.array([0, 1, 1]), n_classes=3).predict(["z"]).tolist()
        [1]

    Args:
        seed: Unused: the prediction is always the training label distribution.
    """

    name = "majority"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        labels = check_training_data(texts, labels, n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        if weights is None:
            self.prior_ = np.bincount(labels, minlength=n_classes) / len(labels)
        else:
            self.prior_ = np.bincount(labels, weights=weights, minlength=n_classes) / weights.sum()
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        return np.tile(self.prior_, (len(texts), 1))
