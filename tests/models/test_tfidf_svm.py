"""tfidf-svm: calibrated LinearSVC probabilities on the shared TF-IDF features."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import MODELS, make_model
from shortcutlab.models.tfidf import TFIDF_PARAMETERS

TEXTS = ["great love it", "awful broke", "okay fine", "love great", "broke awful", "fine okay"] * 4
LABELS = np.array([2, 0, 1, 2, 0, 1] * 4)


def test_calibrated_probabilities_have_the_right_shape_and_learn():
    model = make_model("tfidf-svm").fit(TEXTS, LABELS, n_classes=4)
    proba = model.predict_proba(["love it", "broke", "okay"])
    assert proba.shape == (3, 4)
    assert np.allclose(proba.sum(axis=1), 1)
    assert np.all((proba >= 0) & (proba <= 1))
    assert proba.argmax(axis=1).tolist() == [2, 0, 1]
    assert 0 < proba[0, 2] < 1  # calibrated, not a hard 0/1 vote


@pytest.mark.parametrize("calibration", ["sigmoid", "isotonic"])
def test_a_label_with_fewer_rows_than_folds_still_fits(calibration):
    texts, labels = [*TEXTS, "rare words here"], np.append(LABELS, 3)
    proba = make_model("tfidf-svm", {"calibration": calibration}).fit(texts, labels, n_classes=4)
    assert np.allclose(proba.predict_proba(["rare words"]).sum(axis=1), 1)


def test_shares_the_tfidf_parameters_with_tfidf_logreg():
    assert set(TFIDF_PARAMETERS) <= set(MODELS.parameters("tfidf-svm"))
    assert set(TFIDF_PARAMETERS) <= set(MODELS.parameters("tfidf-logreg"))
    model = make_model("tfidf-svm", {"ngram_range": [1, 1]}).fit(TEXTS, LABELS, n_classes=3)
    vectorizer = model.head_.estimator.steps[0][1]
    assert vectorizer.ngram_range == (1, 1) and all(" " not in t for t in vectorizer.vocabulary_)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"C": 0}, "The 'C' parameter of tfidf-svm must be a positive float. Got 0 instead."),
        ({"cv": 1}, "The 'cv' parameter of tfidf-svm must be an integer >= 2. Got 1 instead."),
        ({"calibration": "platt"}, "must be one of 'sigmoid', 'isotonic'. Got 'platt' instead."),
    ],
)
def test_bad_parameters_are_config_errors(params, message):
    with pytest.raises(ConfigError, match=message):
        make_model("tfidf-svm", params).check(3)
