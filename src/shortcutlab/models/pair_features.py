"""Features of a (first, second) text pair for the linear TF-IDF models (``tfidf-logreg``, ``tfidf-svm``).

Design (issue 9, section 1):

- Two TF-IDF spaces, one per part, fitted separately with the model's TF-IDF parameters: the word
  "not" in a hypothesis and "not" in a premise are different features, so a linear model can weigh
  the hypothesis' words on their own (the partial-input signal of CAT section 3.1) and the premise's
  words on their own.
- Dense overlap features that relate the parts, which no per-part bag of words can express (a linear
  model over two separate bags cannot see whether a word occurs in *both*):
  share of x2 words found in x1, share of x1 words found in x2, Jaccard of the two word sets, share
  of x2 word bigrams found in x1, signed length difference (len2 - len1) / (len1 + len2), and
  log(1 + number of distinct x2 words absent from x1). Words are the model's unigram analyzer
  (same lowercasing and token pattern as its TF-IDF).
- ``overlap=False`` leaves the dense block out: two TF-IDF spaces only. With it a model "finds"
  lexical overlap by construction (HANS-style sets score E near 100 %, not-E near 0 %); without
  it the same sets show what the two bags of words learned on their own (bench/hans_overlap.py).
- The dense block is appended times :data:`OVERLAP_WEIGHT` (0.25). Unlike TF-IDF columns these
  are nonzero in every row, and at full scale they slowed lbfgs' convergence: on 7,000 MNLI pairs
  237 iterations (86 s) against 110 (29 s) scaled; the model's weights absorb the scale.

Examples:
    >>> from sklearn.feature_extraction.text import TfidfVectorizer
    >>> features = PairFeatures(TfidfVectorizer()).fit([("a cat sat on the mat", "the cat sat")])
    >>> [round(float(v), 2) for v in features.overlap([("a cat sat on the mat", "the cat sat")])[0]]
    [1.0, 0.6, 0.6, 0.5, -0.25, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, split_inputs
from shortcutlab.errors import DataError

#: Names of the dense overlap columns, in order (appended after the two TF-IDF blocks).
OVERLAP_FEATURES = (
    "x2_words_in_x1",
    "x1_words_in_x2",
    "word_jaccard",
    "x2_bigrams_in_x1",
    "length_difference",
    "log_x2_words_absent_from_x1",
)
OVERLAP_WEIGHT = 0.25


class PairFeatures:
    """A scikit-learn pipeline step from (first, second) tuples to [TF-IDF(x1) | TF-IDF(x2) | overlap]
    (the overlap block only with ``overlap``).

    ``vectorizer`` is an unfitted ``TfidfVectorizer``; it is cloned once per part. (A plain class,
    not a ``BaseEstimator``, so importing this module does not import scikit-learn.)
    """

    def __init__(self, vectorizer: Any, overlap: bool = True) -> None:
        self.vectorizer = vectorizer
        self.with_overlap = overlap

    def fit_transform(self, inputs: Sequence[TextInput], labels: Any = None) -> Any:
        return self.fit(inputs).transform(inputs)

    def fit(self, inputs: Sequence[TextInput], labels: Any = None) -> PairFeatures:
        from sklearn.base import clone

        firsts, seconds = _parts(inputs)
        self.first_vectorizer_ = clone(self.vectorizer).fit(firsts)
        self.second_vectorizer_ = clone(self.vectorizer).fit(seconds)
        return self

    def transform(self, inputs: Sequence[TextInput]) -> Any:
        from scipy import sparse

        firsts, seconds = _parts(inputs)
        blocks = [
            self.first_vectorizer_.transform(firsts),
            self.second_vectorizer_.transform(seconds),
        ]
        if self.with_overlap:
            blocks.append(sparse.csr_matrix(self.overlap(inputs) * OVERLAP_WEIGHT))
        return sparse.hstack(blocks, format="csr")

    def overlap(self, inputs: Sequence[TextInput]) -> np.ndarray:
        """The dense overlap block, shape (n, len(OVERLAP_FEATURES))."""
        words = _word_analyzer(self.vectorizer)
        firsts, seconds = _parts(inputs)
        rows = [
            _overlap_row(words(first), words(second))
            for first, second in zip(firsts, seconds, strict=True)
        ]
        return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(OVERLAP_FEATURES))


def _parts(inputs: Sequence[TextInput]) -> tuple[list[str], list[str]]:
    firsts, seconds = split_inputs(inputs)
    if seconds is None:
        raise DataError(
            "This model was fitted on paired inputs (text and text_pair) but got single texts; "
            "give every row a text_pair."
        )
    return firsts, seconds


def _word_analyzer(vectorizer: Any) -> Callable[[str], list[str]]:
    """Unigram words with the vectorizer's own preprocessing and token pattern."""
    from sklearn.base import clone

    return clone(vectorizer).set_params(ngram_range=(1, 1)).build_analyzer()  # type: ignore[no-any-return]


def _overlap_row(first: list[str], second: list[str]) -> list[float]:
    first_words, second_words = set(first), set(second)
    first_bigrams, second_bigrams = _bigrams(first), _bigrams(second)
    shared = first_words & second_words
    union = first_words | second_words
    total_length = len(first) + len(second)
    return [
        _share(len(shared), len(second_words)),
        _share(len(shared), len(first_words)),
        _share(len(shared), len(union)),
        _share(len(first_bigrams & second_bigrams), len(second_bigrams)),
        _share(len(second) - len(first), total_length),
        math.log1p(len(second_words - first_words)),
    ]


def _bigrams(words: list[str]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:], strict=False))


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0
