"""``shortcutlab check`` with each kind of model the docs name: a saved scikit-learn pipeline
(refitted on the suite's data), a Hugging Face folder through ``transformer``, and an endpoint
through the LLM backends (a local OpenAI-compatible server, spoken to over HTTP)."""

from __future__ import annotations

import io
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline

from shortcutlab import build_maze_benchmark, generate_corpus
from tests.cli.refusals import invoke

UPPERCASE = "  - {id: uppercase, robustness: {perturbation: case-upper}, min_pass_rate: 0.9}\n"


@pytest.fixture
def suite_data(tmp_path: Path) -> dict[str, pd.DataFrame]:
    corpus = generate_corpus(train_size=400, test_size=200, seed=0)
    for role in ("train", "test"):
        corpus[role].to_csv(tmp_path / f"{role}.csv", index=False)
    return corpus


def write_suite(folder: Path, requirements: str) -> Path:
    path = folder / "suite.yaml"
    path.write_text(
        "data: {train: train.csv, test: test.csv}\nrequirements:\n" + requirements, "utf-8"
    )
    return path


def figures(output: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(output)).set_index("id")


def test_a_saved_pipeline_is_refitted_and_its_delta_is_the_one_fitted_by_hand(
    tmp_path, suite_data, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    pipe = make_pipeline(TfidfVectorizer(), MultinomialNB())
    joblib.dump(pipe, tmp_path / "pipe.joblib")
    suite = write_suite(
        tmp_path,
        "  - {id: cue, maze: {shortcut: single-term, strength: 1.0}, max_delta: 0.9}\n" + UPPERCASE,
    )
    result = invoke("check", suite, "--model", "pipe.joblib", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert "(check passed, pipe.joblib," in result.stderr, result.stderr
    printed = figures(result.stdout)
    # By hand: the same build (the suite's seed 0), the pipeline fitted on its training rows.
    bench = build_maze_benchmark(
        suite_data["train"], suite_data["test"], shortcut="single-term", strength=1.0, seed=0
    )
    fitted = clone(pipe).fit(bench["train"]["text"], bench["train"]["label"])
    accuracy = {
        split: np.mean(fitted.predict(bench[split]["text"]) == bench[split]["label"].to_numpy())
        for split in ("test", "anti_test")
    }
    assert printed.loc["cue", "figure"] == pytest.approx(accuracy["test"] - accuracy["anti_test"])
    assert printed.loc["uppercase", "figure"] == 1.0  # TfidfVectorizer lowercases


def test_a_hugging_face_folder_is_fine_tuned_on_the_suites_data(tmp_path, suite_data):
    pytest.importorskip("transformers")
    from shortcutlab.models.tiny import build_tiny_bert

    tiny = build_tiny_bert(tmp_path / "tiny-bert", suite_data["train"]["text"])
    suite = write_suite(tmp_path, UPPERCASE)
    result = invoke(
        "check", suite, "--model", "transformer", "-p", f"path={tiny}", "-p", "epochs=1",
        "-p", "batch_size=32", "--format", "csv",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "(check passed, transformer," in result.stderr
    # The folder's own tokenizer lowercases (BertNormalizer), so upper case changes no input.
    assert figures(result.stdout).loc["uppercase", "figure"] == 1.0


def test_an_endpoint_is_asked_over_http_through_the_llm_backends(tmp_path, suite_data):
    from shortcutlab.serving.backends import ClassifierAnswers, project_backend
    from shortcutlab.serving.server import ChatServer

    suite = write_suite(tmp_path, UPPERCASE)
    with ChatServer(project_backend(ClassifierAnswers.from_table(suite_data["train"]))) as server:
        client = (
            f"client={{name: openai-chat, base_url: '{server.url}', model: shortcutlab-test, "
            "api_key_env: null}"
        )
        result = invoke("check", suite, "--model", "llm-prompt", "-p", client)
        asked = server.stats.requests
    assert result.exit_code == 0, result.output
    assert "1 of 1 requirement passes (check passed, llm-prompt" in result.stdout
    rows = (suite_data["test"]["text"].str.upper() != suite_data["test"]["text"]).sum()
    assert asked >= 2 * rows  # every changed row, before and after, was asked of the server
