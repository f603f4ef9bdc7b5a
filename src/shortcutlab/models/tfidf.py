"""TF-IDF + logistic regression: the classic bag-of-n-grams baseline (scikit-learn).

The TF-IDF parameters and their vectorizer are shared with ``tfidf-svm`` (models/tfidf_svm.py).
Paired inputs get one TF-IDF space per part plus overlap features (models/pair_features.py);
single texts go through the plain vectorizer exactly as before pairs existed.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, is_paired, split_inputs
from shortcutlab.models.base import (
    TextClassifier,
    check_fitted_kind,
    check_sample_weight,
    check_training_data,
    no_words,
)
from shortcutlab.models.heads import SklearnHead
from shortcutlab.models.pair_features import PairFeatures
from shortcutlab.models.text_view import TextView, pipeline_views
from shortcutlab.params import check_bool, check_positive_float, check_positive_int

#: Constructor parameters every TF-IDF model has, passed unchanged to ``TfidfVectorizer``.
TFIDF_PARAMETERS = ("ngram_range", "sublinear_tf", "min_df", "max_features", "lowercase")


class TfidfLogReg(TextClassifier):
    """Word n-gram TF-IDF features (sublinear tf) and a multinomial logistic regression.

    The defaults match the reference figures of the GoEmotions Shortcut Maze data (word 1-2-grams,
    sublinear tf, C=10). ``overlap_features`` (default true) adds, for paired inputs, the six
    overlap features of models/pair_features.py to the two TF-IDF spaces; false leaves them out.

    Examples:
        >>> model = TfidfLogReg().fit(["good", "great", "bad", "awful"], np.array([1, 1, 0, 0]), n_classes=2)
        >>> model.predict(["good", "awful"]).tolist()
        [1, 0]

    Args:
        ngram_range: Smallest and largest word n-gram length, e.g. [1, 2].
        sublinear_tf: Whether term counts are replaced by 1 + log(count).
        min_df: Terms in fewer training documents are left out.
        max_features: The most frequent terms kept (default: all).
        lowercase: Whether texts are lowercased before tokenising.
        C: Inverse regularisation strength of the logistic regression.
        max_iter: Solver iterations, at most.
        class_weight: None, or balanced to weigh labels by inverse frequency.
        overlap_features: Whether paired inputs get the six overlap features.
        seed: Random state passed to the logistic regression.
    """

    name = "tfidf-logreg"

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
        overlap_features: bool = True,
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
        self.overlap_features = overlap_features
        self.seed = seed

    def check(self, n_classes: int | None = None) -> None:
        check_positive_float(self.name, "C", self.C)
        check_positive_int(self.name, "max_iter", self.max_iter)
        check_bool(self.name, "overlap_features", self.overlap_features)

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline

        labels = check_training_data(texts, labels, n_classes)
        self.check(n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        classifier = LogisticRegression(
            C=self.C, max_iter=self.max_iter, class_weight=self.class_weight, random_state=self.seed
        )
        self.paired_ = is_paired(texts)
        self.head_ = SklearnHead(make_pipeline(tfidf_features(self, texts), classifier), n_classes)
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

    def features(self, inputs: Sequence[TextInput]) -> Any:
        """The logistic regression's input, a scipy sparse matrix: the TF-IDF vectors, or for
        pairs [TF-IDF(x1) | TF-IDF(x2) | overlap] (models/pair_features.py)."""
        check_fitted_kind(self.name, self.paired_, inputs)
        return self.head_.transform(list(inputs))

    def last_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """(W, b) with softmax(features(x) @ W.T + b) == predict_proba(x) (models/base.py
        :class:`~shortcutlab.models.base.LastLayerModel`)."""
        return self.head_.last_layer()


def tfidf_vectorizer(model: Any) -> Any:
    """A ``TfidfVectorizer`` configured from ``model``'s :data:`TFIDF_PARAMETERS`."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    options = {name: getattr(model, name) for name in TFIDF_PARAMETERS}
    options["ngram_range"] = tuple(options["ngram_range"])  # YAML and JSON give lists
    return TfidfVectorizer(**options)


def tfidf_features(model: Any, inputs: Sequence[TextInput]) -> Any:
    """The feature step for ``inputs``: the plain vectorizer for single texts, or a
    :class:`PairFeatures` (a TF-IDF space per part, plus overlap features unless the model's
    ``overlap_features`` is false) for pairs."""
    vectorizer = tfidf_vectorizer(model)
    if not is_paired(inputs):
        return vectorizer
    return PairFeatures(vectorizer, overlap=getattr(model, "overlap_features", True))


@contextlib.contextmanager
def vocabulary_refused(model: Any, inputs: Sequence[TextInput]) -> Iterator[None]:
    """Around fitting ``model``'s TF-IDF on ``inputs``: scikit-learn's "empty vocabulary" (no
    training text has a term its tokenizer keeps) as a one-line DataError naming the part."""
    try:
        yield
    except ValueError as exc:
        if not str(exc).startswith("empty vocabulary"):
            raise
        vectorizer = tfidf_vectorizer(model)
        terms = vectorizer.build_analyzer()
        firsts, seconds = split_inputs(inputs)
        part = "text" if seconds is None or not any(map(terms, firsts)) else "text_pair"
        low = vectorizer.ngram_range[0]
        kept = "a word of two or more letters or digits"
        if low > 1:
            kept = f"{low} words in a row, each of two or more letters or digits"
        raise no_words(model.name, kept, part) from exc


def one_blas_thread():  # type: ignore[no-untyped-def]
    """lbfgs on sparse TF-IDF does small dense BLAS calls, where extra threads only add contention
    (measured: 2.8x slower with OpenBLAS's default threads on 2 cores; bench/demo_wall.py)."""
    return _blas_controller().limit(limits=1, user_api="blas")


@functools.cache
def _blas_controller():  # type: ignore[no-untyped-def]
    """One scan of the process's BLAS libraries: ``threadpool_limits`` scans them again on every
    call (about 4 ms per prediction batch; under cProfile 2.4 of the 35 s of a 20-row
    ``explain``). The BLAS that scikit-learn's solvers use is numpy's and scipy's, loaded before
    the first fit."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()
