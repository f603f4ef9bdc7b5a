"""TF-IDF + a linear SVM with calibrated probabilities (Platt sigmoid or isotonic, scikit-learn).

Paired inputs use the pair features of ``tfidf-logreg`` (models/pair_features.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, is_paired
from shortcutlab.models.base import (
    TextClassifier,
    check_fitted_kind,
    check_sample_weight,
    check_training_data,
)
from shortcutlab.models.heads import SklearnHead
from shortcutlab.models.text_view import TextView, pipeline_views
from shortcutlab.models.tfidf import one_blas_thread, tfidf_features, vocabulary_refused
from shortcutlab.params import (
    check_bool,
    check_one_of,
    check_positive_float,
    check_positive_int,
    require,
)


class TfidfSvm(TextClassifier):
    """The TF-IDF features of ``tfidf-logreg`` and a ``LinearSVC`` inside ``CalibratedClassifierCV``.

    An SVM gives margins, not probabilities; the calibrator fits them on ``cv`` held-out folds so
    metrics that need probabilities stay meaningful. ``overlap_features`` as for ``tfidf-logreg``.

    Examples:
        >>> texts, labels = ["good", "great", "fine", "bad", "awful", "poor"], np.array([1, 1, 1, 0, 0, 0])
        >>> TfidfSvm().fit(texts, labels, n_classes=2).predict_proba(["good"]).shape
        (1, 2)

    Args:
        ngram_range: Smallest and largest word n-gram length, e.g. [1, 2].
        sublinear_tf: Whether term counts are replaced by 1 + log(count).
        min_df: Terms in fewer training documents are left out.
        max_features: The most frequent terms kept (default: all).
        lowercase: Whether texts are lowercased before tokenising.
        C: Inverse regularisation strength of the linear SVM.
        calibration: Probability calibration method: sigmoid or isotonic.
        cv: Calibration folds, an integer >= 2 (fewer for rare labels).
        max_iter: SVM solver iterations, at most.
        class_weight: None, or balanced to weigh labels by inverse frequency.
        overlap_features: Whether paired inputs get the six overlap features.
        seed: Random state passed to the linear SVM.
    """

    name = "tfidf-svm"

    def __init__(
        self,
        ngram_range: tuple[int, int] = (1, 2),
        sublinear_tf: bool = True,
        min_df: int = 1,
        max_features: int | None = None,
        lowercase: bool = True,
        C: float = 1.0,
        calibration: str = "sigmoid",
        cv: int = 3,
        max_iter: int = 2000,
        class_weight: str | None = None,
        overlap_features: bool = True,
        seed: int = 0,
    ) -> None:
        self.ngram_range = ngram_range
        self.sublinear_tf = sublinear_tf
        self.min_df = min_df
        self.max_features = max_features
        self.lowercase = lowercase
        self.C = C
        self.calibration = calibration
        self.cv = cv
        self.max_iter = max_iter
        self.class_weight = class_weight
        self.overlap_features = overlap_features
        self.seed = seed

    def check(self, n_classes: int | None = None) -> None:
        check_positive_float(self.name, "C", self.C)
        check_one_of(self.name, "calibration", self.calibration, ("sigmoid", "isotonic"))
        require(
            isinstance(self.cv, int) and not isinstance(self.cv, bool) and self.cv >= 2,
            self.name,
            "cv",
            "an integer >= 2",
            self.cv,
        )
        check_positive_int(self.name, "max_iter", self.max_iter)
        check_bool(self.name, "overlap_features", self.overlap_features)

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        from sklearn.pipeline import make_pipeline

        labels = check_training_data(texts, labels, n_classes)
        self.check(n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        self.paired_ = is_paired(texts)
        pipeline = make_pipeline(tfidf_features(self, texts), self._calibrated_svm(labels))
        self.head_ = SklearnHead(pipeline, n_classes)
        with one_blas_thread(), vocabulary_refused(self, texts):
            self.head_.fit(list(texts), labels, weights)
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        check_fitted_kind(self.name, self.paired_, texts)
        with one_blas_thread():
            return self.head_.predict_proba(list(texts), len(texts))

    def text_view(self, part: str = "text") -> TextView | None:
        """The fitted TF-IDF vectorizer's view of ``part`` (each part of a pair has its own)."""
        return pipeline_views(self.head_.estimator).get(part)

    def _calibrated_svm(self, labels: np.ndarray) -> Any:
        from sklearn.calibration import CalibratedClassifierCV
        from sklearn.svm import LinearSVC

        svm = LinearSVC(
            C=self.C, max_iter=self.max_iter, class_weight=self.class_weight, random_state=self.seed
        )
        smallest = int(np.unique(labels, return_counts=True)[1].min())
        # Every fold needs every label: use fewer folds for rare labels, and with a single example
        # calibrate on the training rows themselves (optimistic, but better than failing the cell).
        folds: Any = min(self.cv, smallest)
        if folds < 2:
            folds = [(np.arange(len(labels)), np.arange(len(labels)))]
        return CalibratedClassifierCV(svm, method=self.calibration, cv=folds)
