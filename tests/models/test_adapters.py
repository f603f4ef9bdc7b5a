"""The model as the user holds it (models/adapters.py): a scikit-learn estimator or its saved
file, a plain class or object with fit/predict_proba, a fitted predict_proba function, each run
by evaluate, grids and the audit without registration."""

from __future__ import annotations

import json

import joblib
import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline

from shortcutlab.corpus import generate_corpus
from shortcutlab.errors import ConfigError
from shortcutlab.families import load_results, run_experiment
from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.evaluate import evaluate_benchmark
from shortcutlab.models import MODELS
from shortcutlab.models.adapters import model_label, resolve_model
from tests.cli.refusals import assert_refused, invoke
from tests.models.duck_model import WordCountModel
from tests.registration import registered_for

FITS: list[object] = []  # what the counting estimators below saw, in fit order


class CountedNB(MultinomialNB):
    """MultinomialNB that notes each fit: it has no random_state, so seeds share one fit."""

    def fit(self, X, y, sample_weight=None):  # type: ignore[no-untyped-def]
        FITS.append("nb")
        return super().fit(X, y, sample_weight=sample_weight)


class CountedLogReg(LogisticRegression):
    """LogisticRegression that notes the random_state of each fit."""

    def fit(self, X, y, sample_weight=None):  # type: ignore[no-untyped-def]
        FITS.append(self.random_state)
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.fixture(scope="module")
def bench():
    corpus = generate_corpus(train_size=300, test_size=200, seed=0)
    return build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="single-term", strength=0.8, seed=0
    )


@pytest.fixture(scope="module")
def bench_folder(bench, tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench") / "maze"
    bench.save(folder)
    return folder


def test_a_pipeline_gives_exactly_the_accuracies_of_fitting_it_by_hand(bench):
    pipe = make_pipeline(TfidfVectorizer(), MultinomialNB())
    result = evaluate_benchmark(bench, model=pipe, seeds=1, bootstrap=100)
    by_hand = make_pipeline(TfidfVectorizer(), MultinomialNB())
    by_hand.fit(bench["train"]["text"].tolist(), bench["train"]["label"])
    splits = result.runs[0]["splits"]
    assert set(splits) >= {"test", "anti_test"}
    for split, scores in splits.items():
        predicted = by_hand.predict(bench[split]["text"].tolist())
        assert scores["accuracy"] == accuracy_score(bench[split]["label"], predicted), split
    assert result.statistics["model"] == "Pipeline(TfidfVectorizer, MultinomialNB)"
    json.dumps(result.to_json())  # what results.json stores is JSON
    assert not hasattr(pipe, "classes_")  # the user's object is cloned, never fitted


def test_a_seed_free_estimator_is_fitted_once_and_a_seeded_one_per_seed(bench):
    FITS.clear()
    evaluate_benchmark(bench, model=make_pipeline(TfidfVectorizer(), CountedNB()), seeds=3)
    assert FITS == ["nb"]
    FITS.clear()
    seeded = make_pipeline(TfidfVectorizer(), CountedLogReg(random_state=99))
    evaluate_benchmark(bench, model=seeded, seeds=3, bootstrap=100)
    assert FITS == [0, 1, 2]


def test_a_plain_class_and_its_object_run_without_registration(bench):
    from_class = evaluate_benchmark(bench, model=WordCountModel, seeds=1, bootstrap=100)
    from_object = evaluate_benchmark(bench, model=WordCountModel(), seeds=1, bootstrap=100)
    assert from_class.runs[0]["splits"] == from_object.runs[0]["splits"]
    assert from_class.statistics["model"] == "WordCountModel"
    labels = bench.labels
    by_hand = WordCountModel().fit(
        bench["train"]["text"].tolist(),
        labels.ranks(bench["train"]["label"]),
        n_classes=len(labels),
    )
    predicted = by_hand.predict_proba(bench["test"]["text"].tolist()).argmax(axis=1)
    expected = accuracy_score(labels.ranks(bench["test"]["label"]), predicted)
    assert from_class.runs[0]["splits"]["test"]["accuracy"] == expected


def test_a_registered_plain_class_runs_by_name_as_it_runs_unregistered(bench):
    with registered_for(MODELS, "word-counts", WordCountModel):
        by_name = evaluate_benchmark(bench, model="word-counts", seeds=2, bootstrap=100)
    direct = evaluate_benchmark(bench, model=WordCountModel, seeds=2, bootstrap=100)
    assert by_name.runs[0]["splits"] == direct.runs[0]["splits"]
    assert by_name.statistics["model"] == "word-counts"
    assert set(by_name.to_pandas()["distinct_fits"]) == {1}  # no seed: fitted once for both


def test_a_function_is_refused_by_evaluate_in_one_line(bench):
    def predict_proba(texts):
        return np.full((len(texts), 5), 0.2)

    with pytest.raises(ConfigError, match="is a predict_proba function, which is already fitted"):
        evaluate_benchmark(bench, model=predict_proba, seeds=1, bootstrap=100)


def test_an_unknown_object_and_the_old_keyword_are_refused_in_one_line(bench):
    with pytest.raises(ConfigError) as info:
        evaluate_benchmark(bench, model=42, seeds=1)
    assert str(info.value).startswith("model=... must be a registered model name (")
    assert str(info.value).endswith("Got int instead.")
    with pytest.raises(ConfigError, match="'model_params' is now 'params'; pass params="):
        evaluate_benchmark(bench, model="majority", model_params={})
    with pytest.raises(ConfigError, match=r"set them on the estimator \(set_params\)"):
        resolve_model(LogisticRegression(), {"C": 1.0})


def test_labels_name_what_the_user_gave():
    assert model_label("tfidf-logreg") == "tfidf-logreg"
    assert model_label("sklearn", {"path": "models/pipe.joblib"}) == "pipe.joblib"
    assert model_label(LogisticRegression()) == "LogisticRegression"
    assert model_label(lambda texts: texts) == "<lambda>"


def test_evaluate_takes_a_saved_pipeline_on_the_command_line(bench_folder, tmp_path):
    path = tmp_path / "pipe.joblib"
    joblib.dump(make_pipeline(TfidfVectorizer(), MultinomialNB()), path)
    result = invoke(
        "evaluate", bench_folder, "--model", path, "--seeds", 1, "--bootstrap", 100, "--out",
        tmp_path / "out",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert saved["model"]["name"] == "pipe.joblib"
    assert saved["model"]["params"]["path"] == str(path)


def test_the_first_line_says_how_many_fits_differed(bench_folder, tmp_path):
    """LogisticRegression takes a random_state, so each seed is a fit, but lbfgs ignores it: the
    fits agree row for row, one measurement, and the first line says so."""
    path = tmp_path / "pipe.joblib"
    joblib.dump(make_pipeline(TfidfVectorizer(), LogisticRegression()), path)
    result = invoke(
        "evaluate", bench_folder, "--model", path, "--seeds", 2, "--bootstrap", 100,
        "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "vary model (2 fits, 1 distinct of 1 build" in result.stdout.splitlines()[0]


def test_a_missing_saved_model_is_refused_in_one_line(bench_folder, tmp_path):
    missing = tmp_path / "notthere.joblib"
    assert_refused(
        tmp_path, f"There is no saved model at {missing}", "evaluate", bench_folder, "--model",
        missing, "--seeds", 1, "--out", tmp_path / "out",
    )  # fmt: skip


def test_a_grid_runs_a_saved_pipeline_named_in_its_spec(tmp_path):
    joblib.dump(make_pipeline(TfidfVectorizer(), LogisticRegression()), tmp_path / "pipe.joblib")
    spec = {
        "name": "sklearn-grid",
        "data": {"builtin": "reviews", "train_size": 300, "test_size": 200},
        "shortcuts": ["single-term"],
        "strengths": [1.0, 0.5],
        "models": [{"name": "sklearn", "id": "pipe", "path": "pipe.joblib"}],
        "seeds": [0],
        "bootstrap": 100,
    }
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    report = run_experiment(tmp_path / "spec.yaml", tmp_path / "run", jobs=2)  # spawned workers
    assert (report.failed, report.done) == (0, 2), report.errors
    table = load_results(tmp_path / "run").to_pandas(wide=True)
    assert table["model"].tolist() == ["pipe", "pipe"]
    assert sorted(table["strength"]) == [0.5, 1.0]


def test_the_audit_measures_a_fitted_pipeline_as_its_saved_file(bench, tmp_path):
    train, test = bench["train"][["text", "label"]], bench["test"][["text", "label"]]
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression())
    pipe.fit(train["text"].tolist(), train["label"])
    joblib.dump(pipe, tmp_path / "pipe.joblib")
    held = audit_dataset(train, test, model=pipe, measure_top=3, top=5)
    saved = audit_dataset(train, test, model=str(tmp_path / "pipe.joblib"), measure_top=3, top=5)
    assert held.table["aligned_accuracy"].notna().any()  # candidates were measured
    pd.testing.assert_frame_equal(held.table, saved.table)


def test_the_audit_accepts_a_fitted_function(bench):
    train, test = bench["train"][["text", "label"]], bench["test"][["text", "label"]]
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression())
    pipe.fit(train["text"].tolist(), train["label"])
    held = audit_dataset(train, test, model=pipe, measure_top=3, top=5)
    by_function = audit_dataset(train, test, model=pipe.predict_proba, measure_top=3, top=5)
    # A function shows no tokenizer, so only whether the pipeline "sees" a term can differ.
    measured = ["aligned_accuracy", "conflicting_accuracy", "reliance_p"]
    assert held.table[measured].notna().any().all()
    pd.testing.assert_frame_equal(held.table[measured], by_function.table[measured])
