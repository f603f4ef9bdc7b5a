"""load_predictor: a registered model fitted on the training rows, or a saved scikit-learn
estimator whose classes are matched to the data's labels by value."""

from __future__ import annotations

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError, UnknownComponentError
from shortcutlab.families.audit.reliance.predictor import Predictor, load_predictor
from shortcutlab.families.audit.scan.inputs import AuditInputs

TEXTS = ["a good film", "good acting", "really good", "a bad film", "bad acting", "really bad"] * 5
GOLD = ["pos", "pos", "pos", "neg", "neg", "neg"] * 5


def table(labels: tuple[str, ...] = ("pos", "neg"), pairs: list[str] | None = None) -> AuditInputs:
    space = LabelSpace(labels)
    return AuditInputs(np.arange(len(TEXTS)), TEXTS, space.ranks(GOLD), space, pairs)


def saved(tmp_path, estimator, name: str = "model.joblib") -> str:
    path = tmp_path / name
    joblib.dump(estimator, path)
    return str(path)


def test_a_registered_model_is_fitted_on_the_training_rows():
    predictor = load_predictor("tfidf-logreg", None, train=table(), seed=0)
    assert isinstance(predictor, Predictor)
    probabilities = predictor.predict_proba(["good good", "bad bad"])
    assert probabilities.shape == (2, 2)
    assert probabilities.argmax(axis=1).tolist() == [0, 1]  # rank 0 is "pos" in this label space


def test_a_saved_pipeline_round_trips_with_its_columns_in_the_label_order(tmp_path):
    pipeline = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(TEXTS, GOLD)
    assert pipeline.classes_.tolist() == ["neg", "pos"]  # sklearn sorts; the data says pos first
    predictor = load_predictor(saved(tmp_path, pipeline), None, train=table(), seed=0)
    given = predictor.predict_proba(["good good", "bad bad"])
    expected = pipeline.predict_proba(["good good", "bad bad"])[:, ::-1]
    np.testing.assert_allclose(given, expected)
    assert predictor.name == "model.joblib"


def test_a_saved_pipeline_reads_pairs_as_a_data_frame(tmp_path):
    seconds = ["yes"] * 15 + ["no"] * 15
    gold = ["pos"] * 15 + ["neg"] * 15
    features = ColumnTransformer([("pair", CountVectorizer(), "text_pair")])
    frame = pd.DataFrame({"text": TEXTS, "text_pair": seconds})
    pipeline = make_pipeline(features, LogisticRegression()).fit(frame, gold)
    space = LabelSpace(("pos", "neg"))
    train = AuditInputs(np.arange(30), TEXTS, space.ranks(gold), space, seconds)
    predictor = load_predictor(saved(tmp_path, pipeline), None, train=train, seed=0)
    probabilities = predictor.predict_proba([("x", "yes"), ("x", "no")])
    assert probabilities.argmax(axis=1).tolist() == [0, 1]


def test_an_unfitted_saved_pipeline_is_fitted_on_the_training_rows(tmp_path):
    path = saved(tmp_path, make_pipeline(TfidfVectorizer(), LogisticRegression()))
    predictor = load_predictor(path, None, train=table(), seed=0)
    by_hand = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(TEXTS, GOLD)
    given = predictor.predict_proba(["good good", "bad bad"])
    np.testing.assert_allclose(given, by_hand.predict_proba(["good good", "bad bad"])[:, ::-1])


def test_a_missing_file_names_the_fix(tmp_path):
    with pytest.raises(
        ConfigError, match=r"There is no saved model at .*nothing\.joblib; give the path"
    ):
        load_predictor(str(tmp_path / "nothing.joblib"), None, train=table(), seed=0)


def test_an_unreadable_file_is_a_config_error(tmp_path):
    path = tmp_path / "broken.pkl"
    path.write_bytes(b"not a pickle")
    with pytest.raises(ConfigError, match="Could not read the saved model"):
        load_predictor(str(path), None, train=table(), seed=0)


def test_an_estimator_without_probabilities_is_refused(tmp_path):
    path = saved(tmp_path, make_pipeline(TfidfVectorizer(), LinearSVC()).fit(TEXTS, GOLD))
    with pytest.raises(ConfigError, match="has no predict_proba"):
        load_predictor(path, None, train=table(), seed=0)


def test_classes_that_do_not_match_the_labels_are_data_errors(tmp_path):
    pipeline = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(TEXTS, GOLD)
    path = saved(tmp_path, pipeline)
    with pytest.raises(DataError, match="lack the data's label.s. maybe"):
        load_predictor(path, None, train=table(("pos", "neg", "maybe")), seed=0)
    other = saved(
        tmp_path,
        make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(
            TEXTS, [g.upper() for g in GOLD]
        ),
        "upper.joblib",
    )
    with pytest.raises(
        DataError, match="classes_ has labels NEG, POS that are not in the label set"
    ):
        load_predictor(other, None, train=table(), seed=0)


def test_parameters_apply_only_to_registered_models(tmp_path):
    path = saved(tmp_path, make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(TEXTS, GOLD))
    with pytest.raises(
        ConfigError, match="apply to a registered model, not to the saved estimator"
    ):
        load_predictor(path, {"C": 1.0}, train=table(), seed=0)


def test_an_unknown_model_name_lists_the_registered_ones():
    with pytest.raises(UnknownComponentError, match="tfidf-logreg"):
        load_predictor("tfidf-logreq", None, train=table(), seed=0)
