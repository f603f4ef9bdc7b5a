"""run, results and their refusals: a grid from the command line, every output format."""

import io
from functools import partial

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke

GRID = """
name: cli-grid
data: {builtin: reviews, train_size: 300, test_size: 200}
shortcuts: [single-term]
strengths: [1.0, 0.6]
models: [{name: majority}, {name: tfidf-logreg}]
seeds: [0, 1]
bootstrap: 100
"""


@pytest.mark.slow
def test_run_dry_run_and_results_in_every_format(tmp_path):
    (tmp_path / "spec.yaml").write_text(GRID)
    dry = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run", "--dry-run")
    assert dry.exit_code == 0 and "8 of 8 cells to run over 2 benchmarks" in dry.stdout
    assert not (tmp_path / "run").exists()
    ran = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    assert ran.exit_code == 0, ran.output
    assert "8 cells done, 0 already finished, 0 failed" in ran.stdout
    again = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run", "--dry-run")
    assert "0 of 8 cells to run over 2 benchmarks; nothing left to run." in again.stdout
    shown = invoke("results", tmp_path / "run")  # terminal tables by default
    assert shown.exit_code == 0 and "Table 9 style, accuracy" in shown.stdout
    assert "| model |" not in shown.stdout
    md = invoke("results", tmp_path / "run", "--format", "md", "--details")
    assert md.exit_code == 0 and "| model | dataset | shortcut | Accuracy Test |" in md.stdout
    plain = invoke("results", tmp_path / "run")
    assert "— : nothing varied" not in plain.stdout and "Holm–Bonferroni" not in plain.stdout
    found = plain.stdout.split("\nFindings:\n")[1].splitlines()
    assert found[0].startswith("- majority shows no significant reliance on single-term at λ 1 (")
    assert found[1].startswith("- tfidf-logreg ") and "single-term" in found[1]
    assert found[2:] == [
        f"- Only one distinct fit of {model} per cell (nothing varied between seeds): its "
        "p-values cover the test rows only, not training or data-draw variance. Use vary: data "
        "or vary: both to measure it."
        for model in ("majority", "tfidf-logreg")
    ]
    assert "Findings:" in md.stdout
    assert (tmp_path / "run" / "figures" / "delta_vs_strength-reviews-accuracy.svg").exists()
    latex = invoke(
        "results",
        tmp_path / "run",
        "--format",
        "latex",
        "--metric",
        "macro_f1",
        "--out",
        tmp_path / "report",
    )
    assert (
        latex.exit_code == 0 and r"\begin{tabular}" in latex.stdout and r"$\Delta$" in latex.stdout
    )
    assert "Findings:" not in latex.stdout  # machine-readable output stays as it was
    written = sorted(p.name for p in (tmp_path / "report").iterdir())
    assert written == [
        "cells.csv",
        "figures",
        "groups.csv",
        "table1.tex",
        "table9-accuracy.tex",
        "table9-macro_f1.tex",
    ]
    for fmt, read in (("csv", pd.read_csv), ("json", partial(pd.read_json, precise_float=True))):
        tidy = invoke("results", tmp_path / "run", "--format", fmt)
        assert tidy.exit_code == 0, tidy.output
        table = read(io.StringIO(tidy.stdout))
        assert table[["model", "shortcut", "strength"]].values.tolist() == [
            ["majority", "single-term", 1.0],
            ["majority", "single-term", 0.6],
            ["tfidf-logreg", "single-term", 1.0],
            ["tfidf-logreg", "single-term", 0.6],
        ]
        assert {
            "delta_accuracy_mean",
            "delta_accuracy_ci_low",
            "p_accuracy",
            "p_accuracy_holm",
        } <= set(table)
        # Both models ignore their seed: one distinct fit, so VAR(Δ) is empty, never 0.
        assert table["delta_accuracy_var"].isna().all() and (table["distinct_fits"] == 1).all()
    assert "| VAR(Δ) | — | — |" in md.stdout and "— : nothing varied between seeds" in md.stdout


@pytest.mark.slow
def test_run_bad_inputs(tmp_path):
    (tmp_path / "spec.yaml").write_text(GRID.replace("strengths", "strenghts"))
    run = ("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    assert_refused(
        tmp_path, "Unknown key 'strenghts' in spec.yaml. Did you mean 'strengths'?", *run
    )
    (tmp_path / "spec.yaml").write_text(GRID)
    assert_refused(tmp_path, "Unknown executor 'dask'", *run, "--executor", "dask")
    assert_refused(
        tmp_path,
        "Cannot reach the Ray cluster at 127.0.0.1:9",
        *run,
        "--executor",
        "ray",
        "--address",
        "127.0.0.1:9",
    )
    assert_refused(
        tmp_path,
        "The 'address' parameter must be HOST:PORT, ray://HOST:PORT or auto (or left out for a "
        "local Ray instance). Got 'http://head:6379' instead.",
        *run,
        "--executor",
        "ray",
        "--address",
        "http://head:6379",
    )
    assert_refused(tmp_path, "is not a run folder", "results", tmp_path)
    assert invoke(*run).exit_code == 0
    (tmp_path / "other.yaml").write_text(GRID.replace("seeds: [0, 1]", "seeds: [0]"))
    assert_refused(
        tmp_path,
        "holds results of a different spec",
        "run",
        tmp_path / "other.yaml",
        "--out",
        tmp_path / "run",
    )
    assert_refused(
        tmp_path,
        "'format' parameter must be one of 'table', 'md', 'csv', 'json', 'latex'",
        "results",
        tmp_path / "run",
        "--format",
        "html",
        "--out",
        tmp_path / "report",
    )


def test_model_path_that_does_not_exist(tmp_path):
    (tmp_path / "spec.yaml").write_text(
        GRID.replace("{name: majority}", "{name: transformer, path: /no/such/model}")
    )
    assert_refused(
        tmp_path, "/no/such/model", "run", tmp_path / "spec.yaml", "--out", tmp_path / "run"
    )


def test_checkpoint_with_another_label_count_is_refused_before_running(tmp_path, monkeypatch):
    pytest.importorskip("transformers")
    from transformers import AutoModelForSequenceClassification

    from shortcutlab.corpus import generate_reviews
    from shortcutlab.models.tiny import build_tiny_bert

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    base = build_tiny_bert(tmp_path / "base", generate_reviews(200)["text"].tolist())
    head = tmp_path / "three-labels"
    AutoModelForSequenceClassification.from_pretrained(base, num_labels=3).save_pretrained(head)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (base / name).exists():
            (head / name).write_bytes((base / name).read_bytes())
    (tmp_path / "spec.yaml").write_text(
        GRID.replace("{name: majority}", "{name: transformer, path: three-labels}")
    )
    assert_refused(
        tmp_path,
        "has a 3-label classification head but the data has 5 labels. Pass reinit_head: true",
        "run",
        tmp_path / "spec.yaml",
        "--out",
        tmp_path / "run",
    )


def test_llm_model_with_an_unreachable_server_is_refused_before_running(tmp_path):
    client = "{name: openai-chat, base_url: 'http://127.0.0.1:9/v1', model: m, api_key_env: null}"
    (tmp_path / "spec.yaml").write_text(
        GRID.replace("{name: majority}", f"{{name: llm-prompt, client: {client}}}")
    )
    assert_refused(
        tmp_path,
        "Cannot reach the LLM server at http://127.0.0.1:9/v1",
        "run",
        tmp_path / "spec.yaml",
        "--out",
        tmp_path / "run",
    )


def test_a_run_with_failed_cells_lists_them_and_exits_1(tmp_path):
    """The command prints each failure under the run's line (no Error: line) and exits 1."""
    failing = GRID.replace("{name: tfidf-logreg}", "{name: tfidf-logreg, min_df: 100000}")
    (tmp_path / "spec.yaml").write_text(failing.replace("[1.0, 0.6]", "[1.0]"))
    result = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    assert result.exit_code == 1, result.output
    assert "2 cells done, 0 already finished, 2 failed" in result.stdout
    failures = result.stderr.splitlines()
    assert [line.split(": ")[1] for line in failures] == [
        "reviews single-term λ=1 tfidf-logreg seed 0",
        "reviews single-term λ=1 tfidf-logreg seed 1",
    ]
    assert all(line.startswith("Failed: ") for line in failures)
