"""The streamed vocabulary pass gives CountVectorizer's pruned vocabulary and matrix exactly."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from shortcutlab.families.audit.features import TOKEN_PATTERN
from shortcutlab.families.audit.vocabulary import CHUNK_ROWS, frequent_ngrams

WORDS = ["not", "don't", "isn't", "n't", "a", "b", "é", "日本", "x_1", "9", "can'tx", "word"]


def _texts(rows: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, len(WORDS) + 1)
    texts = []
    for _ in range(rows):
        words = rng.choice(WORDS, size=rng.integers(0, 9), p=weights / weights.sum())
        texts.append(" ".join(words) + rng.choice(["", ".", " !", "'"]))
    return texts


def _sklearn(texts, ngram_max, min_support, max_features=None):
    vectorizer = CountVectorizer(
        token_pattern=TOKEN_PATTERN, lowercase=False, binary=True, ngram_range=(1, ngram_max)
    )
    counts = vectorizer.fit_transform(texts)
    support = counts.getnnz(axis=0)
    frequent = np.flatnonzero(support >= min_support)
    if max_features is not None and len(frequent) > max_features:
        order = np.argsort(-support[frequent], kind="stable")[:max_features]
        frequent = np.sort(frequent[order])
    return vectorizer.get_feature_names_out()[frequent].tolist(), counts[:, frequent].toarray()


@pytest.mark.parametrize(
    ("rows", "ngram_max", "min_support", "max_features"),
    [
        (300, 1, 5, None),
        (300, 2, 5, None),
        (300, 3, 3, None),
        (CHUNK_ROWS + 500, 2, 20, None),  # more than one chunk
        (300, 2, 5, 7),
        (50, 4, 1, None),
    ],
)
def test_the_vocabulary_and_matrix_are_countvectorizers(rows, ngram_max, min_support, max_features):
    texts = _texts(rows, seed=rows + ngram_max)
    names, matrix = frequent_ngrams(
        texts,
        ngram_max=ngram_max,
        min_support=min_support,
        max_features=max_features,
        token_pattern=TOKEN_PATTERN,
    )
    expected_names, expected = _sklearn(texts, ngram_max, min_support, max_features)
    assert names == expected_names
    assert matrix.dtype == np.int32
    np.testing.assert_array_equal(matrix.toarray(), expected)


def test_no_word_reaches_the_support():
    names, matrix = frequent_ngrams(["a b", "c d"], ngram_max=2, min_support=2)
    assert names == [] and matrix.shape == (2, 0)
