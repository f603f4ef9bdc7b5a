"""tfidf-logreg and tfidf-svm on paired inputs: a TF-IDF space per part plus overlap features."""

import numpy as np
import pytest

from shortcutlab.errors import DataError
from shortcutlab.models import make_model
from shortcutlab.models.pair_features import OVERLAP_FEATURES, OVERLAP_WEIGHT
from tests.models.pair_data import entailed_words_pairs

TRAIN, TRAIN_LABELS = entailed_words_pairs(400, seed=0)
TEST, TEST_LABELS = entailed_words_pairs(200, seed=1)


@pytest.mark.parametrize("name", ["tfidf-logreg", "tfidf-svm"])
def test_learns_a_label_that_only_the_pair_relation_predicts(name):
    model = make_model(name).fit(TRAIN, TRAIN_LABELS, n_classes=2)
    proba = model.predict_proba(TEST)
    assert proba.shape == (200, 2) and np.allclose(proba.sum(axis=1), 1)
    # chance is 0.5; with 200 rows, 0.8 is over eight standard errors above it
    assert (proba.argmax(axis=1) == TEST_LABELS).mean() > 0.8
    again = make_model(name).fit(TRAIN, TRAIN_LABELS, n_classes=2).predict_proba(TEST)
    assert np.array_equal(proba, again)


def test_each_part_has_its_own_feature_space_and_overlap_columns_follow():
    model = make_model("tfidf-logreg", {"ngram_range": [1, 1]})
    model.fit([("cat sat", "dog ran"), ("dog ran", "cat sat")], np.array([0, 1]), n_classes=2)
    features = model.head_.estimator.steps[0][1]
    assert sorted(features.first_vectorizer_.vocabulary_) == ["cat", "dog", "ran", "sat"]
    matrix = features.transform([("cat sat", "cat")])
    assert matrix.shape == (1, 4 + 4 + len(OVERLAP_FEATURES))
    # x2's only word is in x1; half of x1's words are in x2; x2 is one word against x1's two
    overlap = matrix.toarray()[0, 8:] / OVERLAP_WEIGHT
    assert overlap.round(3).tolist() == [1.0, 0.5, 0.5, 0.0, -0.333, 0.0]


def test_single_texts_keep_the_plain_vectorizer():
    texts, labels = ["good fine", "bad awful", "fine good", "awful bad"], np.array([1, 0, 1, 0])
    model = make_model("tfidf-logreg").fit(texts, labels, n_classes=2)
    assert type(model.head_.estimator.steps[0][1]).__name__ == "TfidfVectorizer"


def test_predicting_another_input_kind_than_fitted_is_a_data_error():
    model = make_model("tfidf-logreg").fit(TRAIN, TRAIN_LABELS, n_classes=2)
    with pytest.raises(DataError, match="fitted on paired inputs but got single texts"):
        model.predict_proba(["w1 w2"])
    single = make_model("tfidf-logreg").fit(["ab cd", "ef gh"], np.array([0, 1]), n_classes=2)
    with pytest.raises(DataError, match="fitted on single texts but got pairs"):
        single.predict_proba([("ab", "cd")])


@pytest.mark.parametrize("name", ["tfidf-logreg", "tfidf-svm"])
def test_overlap_features_false_reads_two_bags_of_words_only(name):
    model = make_model(name, {"ngram_range": [1, 1], "overlap_features": False})
    model.fit(TRAIN, TRAIN_LABELS, n_classes=2)
    features = model.head_.estimator.steps[0][1]
    widths = [len(v.vocabulary_) for v in (features.first_vectorizer_, features.second_vectorizer_)]
    assert features.transform(TEST[:3]).shape == (3, sum(widths))
    # the label is the pair relation alone: two separate bags cannot see it (chance is 0.5)
    assert (model.predict(TEST) == TEST_LABELS).mean() < 0.7


def test_overlap_features_must_be_true_or_false():
    model = make_model("tfidf-logreg", {"overlap_features": "no"})
    with pytest.raises(ValueError, match="'overlap_features' .* must be true or false. Got 'no'"):
        model.fit(TRAIN, TRAIN_LABELS, n_classes=2)
