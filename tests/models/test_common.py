"""Common tests over every registered model."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError, UnknownComponentError
from shortcutlab.models import MODELS, make_model

TEXTS = [
    "great product love it",
    "awful broke fast",
    "okay nothing special",
    "love it great",
    "broke awful",
    "fine okay",
] * 5
LABELS = np.array([2, 0, 1, 2, 0, 1] * 5)
EXPECTED_MODELS = {"tfidf-logreg", "majority"}


def test_registry_is_complete():
    assert set(MODELS) == EXPECTED_MODELS


@pytest.mark.parametrize("name", sorted(EXPECTED_MODELS))
def test_probabilities_have_the_benchmark_shape_and_sum_to_one(name):
    model = make_model(name, seed=0).fit(
        TEXTS, LABELS, n_classes=4
    )  # label 3 never seen in training
    proba = model.predict_proba(["love it", "broke", "unseen words"])
    assert proba.shape == (3, 4)
    assert np.allclose(proba.sum(axis=1), 1)
    assert np.all(proba[:, 3] == 0)
    again = (
        make_model(name, seed=0)
        .fit(TEXTS, LABELS, n_classes=4)
        .predict_proba(["love it", "broke", "unseen words"])
    )
    assert np.array_equal(proba, again)


@pytest.mark.parametrize("name", sorted(EXPECTED_MODELS))
def test_fit_rejects_bad_inputs(name):
    with pytest.raises(DataError, match="must match"):
        make_model(name).fit(TEXTS, LABELS[:-1], n_classes=3)
    with pytest.raises(DataError, match=r"labels must be integers in \[0, 2\)"):
        make_model(name).fit(TEXTS, LABELS, n_classes=2)


def test_tfidf_learns_the_words():
    model = make_model("tfidf-logreg").fit(TEXTS, LABELS, n_classes=3)
    assert model.predict(["love it great", "awful broke"]).tolist() == [2, 0]


def test_unknown_model_and_parameter():
    with pytest.raises(
        UnknownComponentError, match="Unknown model 'tfidf'. Did you mean 'tfidf-logreg'"
    ):
        make_model("tfidf")
    with pytest.raises(
        ConfigError, match="has no parameter 'alpha'. Its parameters are: ngram_range"
    ):
        make_model("tfidf-logreg", {"alpha": 1})
    assert make_model("tfidf-logreg", {"C": 1.0}).get_params()["C"] == 1.0
