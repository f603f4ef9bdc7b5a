"""TF-IDF + logistic regression: the classic bag-of-n-grams baseline (scikit-learn)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.models.base import TextClassifier, check_training_data, expand_columns


class TfidfLogReg(TextClassifier):
    """Word n-gram TF-IDF features (sublinear tf) and a multinomial logistic regression.

    The defaults match the reference figures of the GoEmotions Shortcut Maze data (word 1-2-grams,
    sublinear tf, C=10).

    Examples:
        >>> model = TfidfLogReg().fit(["good", "great", "bad", "awful"], np.array([1, 1, 0, 0]), n_classes=2)
        >>> model.predict(["good", "awful"]).tolist()
        [1, 0]
    """

    name = "tfidf-logreg"
    uses_seed = False  # lbfgs is deterministic: every seed gives the same model

    def __init__(
        self,
        ngram_range: tuple[int, int] = (1, 2),
        sublinear_tf: bool = True,
        min_df: int = 1,
        max_features: int | None = None,
        lowercase: bool = True,
        C: float = 10.0,
        max_iter: int = 1000,
        class_weight: str | None = None,
        seed: int = 0,
    ) -> None:
        self.ngram_range = ngram_range
        self.sublinear_tf = sublinear_tf
        self.min_df = min_df
        self.max_features = max_features
        self.lowercase = lowercase
        self.C = C
        self.max_iter = max_iter
        self.class_weight = class_weight
        self.seed = seed

    def fit(self, texts, labels, *, n_classes, validation=None):  # type: ignore[no-untyped-def]
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline

        labels = check_training_data(texts, labels, n_classes)
        if not (isinstance(self.C, int | float) and self.C > 0):
            raise ConfigError(
                f"The 'C' parameter of tfidf-logreg must be a positive number. Got {self.C!r} instead."
            )
        self.n_classes_ = n_classes
        self.pipeline_ = make_pipeline(
            TfidfVectorizer(
                ngram_range=tuple(self.ngram_range),
                sublinear_tf=self.sublinear_tf,
                min_df=self.min_df,
                max_features=self.max_features,
                lowercase=self.lowercase,
            ),
            LogisticRegression(
                C=self.C,
                max_iter=self.max_iter,
                class_weight=self.class_weight,
                random_state=self.seed,
            ),
        )
        if len(np.unique(labels)) < 2:
            self.constant_ = np.bincount(labels, minlength=n_classes) / len(labels)
            return self
        self.constant_ = None
        with _one_blas_thread():
            self.pipeline_.fit(list(texts), labels)
        return self

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        if self.constant_ is not None:
            return np.tile(self.constant_, (len(texts), 1))
        with _one_blas_thread():
            probabilities = self.pipeline_.predict_proba(list(texts))
        return expand_columns(probabilities, self.pipeline_.classes_, self.n_classes_)


def _one_blas_thread():  # type: ignore[no-untyped-def]
    """lbfgs on sparse TF-IDF does small dense BLAS calls, where extra threads only add contention
    (measured: 2.8x slower with OpenBLAS's default threads on 2 cores; bench/demo_wall.py)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")
