"""The streamed vocabulary pass gives CountVectorizer's pruned vocabulary and its counts exactly."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import CountVectorizer

from shortcutlab.families.audit.scan.features import TOKEN_PATTERN
from shortcutlab.families.audit.scan.indicator_counts import row_weights
from shortcutlab.families.audit.scan.vocabulary import CHUNK_ROWS, frequent_ngrams, phrase_presence

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
def test_the_vocabulary_and_counts_are_countvectorizers(rows, ngram_max, min_support, max_features):
    texts = _texts(rows, seed=rows + ngram_max)
    ranks = np.arange(rows) % 3
    names, counts = frequent_ngrams(
        texts,
        ngram_max=ngram_max,
        min_support=min_support,
        max_features=max_features,
        token_pattern=TOKEN_PATTERN,
        ranks=ranks,
        n_classes=3,
    )
    expected_names, expected = _sklearn(texts, ngram_max, min_support, max_features)
    assert names == expected_names
    np.testing.assert_array_equal(counts.support, expected.sum(axis=0))
    np.testing.assert_array_equal(counts.counts, expected.T @ np.eye(3, dtype=np.int64)[ranks])
    # The same rows give the same fingerprint (the scan folds such features into one).
    np.testing.assert_array_equal(counts.prints, expected.T @ row_weights(0, rows))


def test_no_word_reaches_the_support():
    names, counts = frequent_ngrams(["a b", "c d"], ngram_max=2, min_support=2)
    assert names == [] and len(counts.support) == 0


def test_phrases_are_found_as_adjacent_words_of_one_text():
    found = pa.array([["a", "b", "c"], ["b"], ["c", "a"], []], pa.list_(pa.large_string()))
    present = phrase_presence(found, ["a b", "b", "c a", "b c a", "z"])
    assert present.astype(int).tolist() == [
        [1, 1, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
    ]


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from("a b c d".split()), max_size=8), max_size=12),
    phrases=st.lists(
        st.lists(st.sampled_from("a b c d e".split()), min_size=1, max_size=3).map(" ".join),
        min_size=1,
        max_size=8,
    ),
)
def test_phrase_presence_is_adjacent_words_in_order_for_any_phrases(texts, phrases):
    """One- and two-word phrases are found in one pass for all of them, longer ones one at a
    time; each is there exactly where the row's words hold it adjacent (repeats and words the
    rows never use included)."""
    found = phrase_presence(pa.array(texts, type=pa.list_(pa.string())), phrases)
    for i, words in enumerate(texts):
        for j, phrase in enumerate(phrases):
            wanted = phrase.split(" ")
            holds = any(
                words[k : k + len(wanted)] == wanted for k in range(len(words) - len(wanted) + 1)
            )
            assert found[i, j] == holds, (words, phrase)
