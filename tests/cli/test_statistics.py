"""The command line's statistics: evaluate and results agree, tidy output, vary, refused options."""

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.cli.test_cli import build_args


@pytest.fixture
def files(corpus_files):
    return corpus_files


@pytest.mark.slow
def test_evaluate_and_a_one_cell_grid_print_the_same_delta_interval_and_star(tmp_path):
    invoke("generate", "--out", tmp_path / "corpus", "--train-size", 400, "--test-size", 300)
    (tmp_path / "spec.yaml").write_text(
        "name: one\ndata: {train: corpus/train.csv, test: corpus/test.csv}\n"
        "shortcuts: [synonym]\nstrengths: [0.8]\nmodels: [{name: tfidf-logreg}]\n"
        "seeds: [0, 1, 2]\nvary: both\nbootstrap: 200\n"
    )
    assert invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run").exit_code == 0
    grid = invoke("results", tmp_path / "run", "--format", "md").stdout
    folder = next(
        p
        for p in (tmp_path / "run" / "benchmarks").iterdir()
        if json.loads((p / "manifest.json").read_text())["seed"] == 0
    )
    single = invoke(
        "evaluate", folder, "--seeds", 3, "--bootstrap", 200, "--vary", "both", "--format", "md"
    )
    assert single.exit_code == 0, single.output

    def rows(text):
        cells = {}
        for line in text.splitlines():
            parts = [p.strip() for p in line.strip("|").split("|")]
            if len(parts) > 1 and parts[-2] in ("Δ", "VAR(Δ)", "Δ 95% CI"):
                cells.setdefault(parts[-2], parts[-1])
            elif len(parts) == 3 and parts[0] in ("Δ", "VAR(Δ)", "Δ 95% CI"):
                cells.setdefault(parts[0], parts[1])  # evaluate: row | Accuracy | Macro-F1
        return cells

    expected = rows(grid)
    assert set(expected) == {"Δ", "VAR(Δ)", "Δ 95% CI"} and expected["VAR(Δ)"] != "—"
    assert rows(single.stdout) == expected


def test_evaluate_tidy_output_and_vary_data_errors(files, tmp_path):
    assert invoke(*build_args(files, tmp_path / "b", "--shortcut", "single-term")).exit_code == 0
    evaluated = invoke(
        "evaluate", tmp_path / "b", "--seeds", 2, "--bootstrap", 100, "--format", "csv"
    )
    assert evaluated.exit_code == 0, evaluated.output
    table = pd.read_csv(io.StringIO(evaluated.stdout))
    assert len(table) == 1 and table.loc[0, "shortcut"] == "single-term"
    assert pd.isna(table.loc[0, "delta_accuracy_var"]) and table.loc[0, "distinct_builds"] == 1
    Path(files["train"]).write_text(
        Path(files["train"]).read_text() + Path(files["train"]).read_text().splitlines()[1] + "\n"
    )
    evaluate = ("evaluate", tmp_path / "b")
    refusals = [
        ("has changed since the benchmark was built", "--vary", "data", "--overwrite"),
        ("The 'vary' parameter must be one of 'model', 'data', 'both'", "--vary", "seed"),
        (
            "The 'format' parameter must be one of 'table', 'md', 'csv', 'json', 'latex'",
            "--format",
            "html",
        ),
    ]
    for message, *options in refusals:
        assert_refused(tmp_path, message, *evaluate, *options)


def test_concept_correlation_refuses_a_schedule(files, tmp_path):
    args = build_args(files, tmp_path / "b", "--shortcut", "concept-correlation")
    message = "concept-correlation draws a rating that follows the label with probability λ"
    assert_refused(tmp_path, message, *args, "--schedule", "0,0.2,0.5,0.8,1")
    assert_refused(tmp_path, message, *args, "--strength-mode", "scale")
