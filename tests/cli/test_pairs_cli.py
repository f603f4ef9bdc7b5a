"""A paired benchmark end to end through the command line: build (named pair columns found),
evaluate, a grid and its result tables; a model that reads one text is refused before any fit."""

import json

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.models.pair_data import entailed_words_pairs
from tests.models.toy_model import TOY, registered

NAMES = {1: "entailment", 0: "non-entailment"}


def write_pairs(path, n_rows, seed):
    inputs, labels = entailed_words_pairs(n_rows, seed=seed)
    frame = pd.DataFrame(inputs, columns=["premise", "hypothesis"])
    frame["label"] = [NAMES[label] for label in labels]
    frame.to_csv(path, sep="\t", index=False)


@pytest.fixture
def pair_files(tmp_path):
    write_pairs(tmp_path / "train.tsv", 400, seed=0)
    write_pairs(tmp_path / "test.tsv", 200, seed=1)
    return tmp_path


def build(folder, out):
    # strength 0: the injected word carries no label signal, so only the pair relation predicts
    return invoke(
        "build", "maze", "--train", folder / "train.tsv", "--test",
        folder / "test.tsv", "--shortcut", "single-term", "--strength", 0, "--out", out,
    )  # fmt: skip


def test_evaluate_reads_both_parts_of_a_paired_benchmark(pair_files):
    assert build(pair_files, pair_files / "bench").exit_code == 0
    manifest = json.loads((pair_files / "bench" / "manifest.json").read_text())
    found = manifest["inputs"]["train"]["columns_found"]
    assert found == {"text": "premise", "text_pair": "hypothesis"}
    result = invoke("evaluate", pair_files / "bench", "--seeds", 1, "--bootstrap", 100)
    assert result.exit_code == 0, result.output
    record = json.loads(
        (pair_files / "bench" / "results" / "tfidf-logreg" / "results.json").read_text()
    )
    text = json.dumps(record)
    # chance is 0.5 and no single part predicts the label: only a model given both parts gets here
    accuracy = record["runs"][0]["splits"]["original_test"]["accuracy"]
    assert accuracy > 0.8, text[:300]
    assert "Test" in result.stdout and "Anti-Test" in result.stdout


def test_a_grid_over_paired_data_runs_and_its_tables_render(pair_files):
    (pair_files / "spec.yaml").write_text(
        "name: pairs\ndatasets:\n  - {name: nli, train: train.tsv, test: test.tsv, labels: [non-entailment, entailment]}\n"
        "shortcuts: [single-term]\nstrengths: [0.0]\n"
        "models: [{name: tfidf-logreg}, {name: majority}]\nseeds: [0]\nbootstrap: 100\n"
    )
    ran = invoke("run", pair_files / "spec.yaml", "--out", pair_files / "run")
    assert ran.exit_code == 0, ran.output
    tables = invoke("results", pair_files / "run", "--format", "md")
    assert tables.exit_code == 0, tables.output
    rows = {
        line.split("|")[1].strip(): line for line in tables.stdout.splitlines() if "| nli |" in line
    }
    assert set(rows) >= {"tfidf-logreg", "majority"}
    test_accuracy = float(rows["tfidf-logreg"].split("|")[4])
    assert test_accuracy > 0.8


def test_a_one_text_model_on_paired_data_is_refused_before_fitting(pair_files):
    assert build(pair_files, pair_files / "bench").exit_code == 0
    message = (
        f"The {TOY} model reads one text per row, but the data has paired inputs "
        "(text and text_pair). Models that read pairs: bow-mlp, llm-prompt, majority, "
        "sentence-encoder, sklearn, tfidf-logreg, tfidf-svm, transformer."
    )
    (pair_files / "spec.yaml").write_text(
        "name: pairs\ndatasets:\n  - {name: nli, train: train.tsv, test: test.tsv, labels: [non-entailment, entailment]}\n"
        f"shortcuts: [single-term]\nstrengths: [0.0]\nmodels: [{{name: {TOY}}}]\n"
    )
    with registered():
        evaluate = ("evaluate", pair_files / "bench", "--model", TOY, "--seeds", 1)
        assert_refused(pair_files, message, *evaluate)
        assert_refused(
            pair_files, message, "run", pair_files / "spec.yaml", "--out", pair_files / "run"
        )
