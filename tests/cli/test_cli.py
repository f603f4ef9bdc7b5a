"""The command line: happy paths and every documented bad input (exit 2, one line, nothing written)."""

import io
import json
from functools import partial

import pandas as pd
import pytest

from shortcutlab._version import __version__
from tests.cli.refusals import assert_refused, invoke


def build_args(files, out, *extra):
    return [
        "build",
        "maze",
        "--train",
        files["train"],
        "--test",
        files["test"],
        "--out",
        out,
        *extra,
    ]


def test_version_and_list():
    assert invoke("--version").stdout.strip() == f"shortcutlab {__version__}"
    listing = invoke("list")
    assert listing.exit_code == 0
    for name in (
        "single-term",
        "synonym",
        "category",
        "concept-occurrence",
        "concept-correlation",
        "tfidf-logreg",
        "negation",
        "frequent-words",
        "jtt",
        "groupdro",
    ):
        assert name in listing.stdout
    words = " ".join(listing.stdout.split())
    for option in ("term='honestly'", "C=10.0", "ngram_range=(1, 2)", "k=6", "upweight=6.0"):
        assert option in words, option
    assert "Upweights" in words  # jtt's description, from its docstring
    rows = [line.split("│") for line in listing.stdout.splitlines() if "│" in line]
    assert [cells[0].strip() for cells in rows if cells[0].strip()] == [
        "family",
        "metric",
        "shortcut",
        "model",
        "attribute",
        "mitigation",
    ]  # each kind once, above its rows
    table = pd.read_csv(io.StringIO(invoke("list", "--format", "csv").stdout))
    families = table.loc[table["kind"] == "family", "name"].tolist()
    metrics = table.loc[table["kind"] == "metric", "name"].tolist()
    assert families == ["maze", "mps", "cat", "suite", "audit"]
    assert metrics == ["accuracy", "macro_f1"]
    assert set(table["name"]) <= set(" ".join(cells[1] for cells in rows).split())


def test_generate_build_evaluate(tmp_path):
    assert (
        invoke(
            "generate", "--out", tmp_path / "corpus", "--train-size", 400, "--test-size", 200
        ).exit_code
        == 0
    )
    files = {"train": tmp_path / "corpus" / "train.csv", "test": tmp_path / "corpus" / "test.csv"}
    built = invoke(
        *build_args(
            files,
            tmp_path / "b",
            "--shortcut",
            "synonym",
            "--strength",
            1,
            "--val-size",
            40,
            "-o",
            "terms=[to be honest, frankly speaking]",
        )
    )
    assert built.exit_code == 0, built.output
    assert "Cue rate per label" in built.stdout
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["arguments"]["shortcut_options"] == {
        "terms": ["to be honest", "frankly speaking"]
    }
    assert manifest["arguments"]["val_size"] == 40
    evaluated = invoke(
        "evaluate", tmp_path / "b", "--seeds", 2, "--bootstrap", 200, "-p", "C=1.0", "--details"
    )
    assert evaluated.exit_code == 0, evaluated.output
    assert "Anti-Test" in evaluated.stdout and "McNemar" in evaluated.stdout
    results = json.loads((tmp_path / "b" / "results" / "tfidf-logreg" / "results.json").read_text())
    assert results["model"]["params"]["C"] == 1.0 and results["seeds"] == [0, 1]


def test_concept_shortcut_with_distractor_files(tmp_path, corpus):
    paths = {}
    for role in ("train", "test"):
        frame = corpus[role]
        frame[["text", "label"]].to_csv(tmp_path / f"{role}.csv", index=False)
        for aspect in ("appearance", "delivery"):
            paths[(aspect, role)] = tmp_path / f"{aspect}_{role}.csv"
            frame[[f"{aspect}_text", f"{aspect}_label"]].set_axis(["text", "label"], axis=1).to_csv(
                paths[(aspect, role)], index=False
            )
    files = {"train": tmp_path / "train.csv", "test": tmp_path / "test.csv"}
    result = invoke(
        *build_args(files, tmp_path / "b", "--shortcut", "concept-occurrence"),
        "--distractor",
        f"appearance={paths[('appearance', 'train')]}",
        "--distractor",
        f"delivery={paths[('delivery', 'train')]}",
        "--test-distractor",
        f"appearance={paths[('appearance', 'test')]}",
    )
    assert result.exit_code == 0, result.output
    assert "Warning: No test file for distractor 'delivery'" in result.stderr
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["arguments"]["shortcut_options"]["aspects"] == ["appearance", "delivery"]


@pytest.fixture
def files(corpus_files):
    return corpus_files


def test_missing_file(files, tmp_path):
    files = files | {"train": tmp_path / "absent.csv"}
    assert_refused(
        tmp_path,
        f"The train file '{tmp_path / 'absent.csv'}' does not exist. Check the path.",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )


def test_unsupported_format(files, tmp_path):
    (tmp_path / "data.xlsx").write_bytes(b"PK")
    assert_refused(
        tmp_path,
        "unsupported format '.xlsx'",
        *build_args(
            files | {"train": tmp_path / "data.xlsx"}, tmp_path / "out", "--shortcut", "single-term"
        ),
    )


def test_empty_file(files, tmp_path):
    (tmp_path / "empty.csv").write_text("")
    assert_refused(
        tmp_path,
        "is empty",
        *build_args(
            files | {"test": tmp_path / "empty.csv"}, tmp_path / "out", "--shortcut", "single-term"
        ),
    )


def test_missing_column_lists_columns(files, tmp_path):
    assert_refused(
        tmp_path,
        f"Column 'review' not found in '{files['train']}'. Columns found: text, label, product, "
        "appearance_text, appearance_label, delivery_text, delivery_label, service_text, "
        "service_label. Pass the right name with --text-col.",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term", "--text-col", "review"),
    )


def test_empty_texts_dropped_or_rejected(tmp_path, tiny_frame):
    frame = tiny_frame.copy()
    frame.loc[3, "text"] = ""
    frame.to_csv(tmp_path / "d.csv", index=False)
    files = {"train": tmp_path / "d.csv", "test": tmp_path / "d.csv"}
    assert_refused(
        tmp_path,
        "1 rows with an empty text",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term", "--on-empty", "error"),
    )
    assert invoke(*build_args(files, tmp_path / "out", "--shortcut", "single-term")).exit_code == 0
    assert (
        json.loads((tmp_path / "out" / "manifest.json").read_text())["inputs"]["train"][
            "dropped_empty_text"
        ]
        == 1
    )


def test_fewer_than_two_labels(tmp_path, tiny_frame):
    tiny_frame[tiny_frame.label == 1].to_csv(tmp_path / "one.csv", index=False)
    files = {"train": tmp_path / "one.csv", "test": tmp_path / "one.csv"}
    assert_refused(
        tmp_path,
        "fewer than two labels",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )


def test_test_label_unseen_in_training(tmp_path, tiny_frame):
    tiny_frame[tiny_frame.label < 2].to_csv(tmp_path / "train.csv", index=False)
    tiny_frame.to_csv(tmp_path / "test.csv", index=False)
    files = {"train": tmp_path / "train.csv", "test": tmp_path / "test.csv"}
    assert_refused(
        tmp_path,
        "never occur in the training table",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )


def test_invalid_utf8(files, tmp_path):
    (tmp_path / "bad.csv").write_bytes(b"text,label\nfine,1\nsmart \x93quotes\x94,2\n")
    assert_refused(
        tmp_path,
        "is not valid utf-8: byte 0x93 at offset 24 (line 3). Pass --encoding",
        *build_args(
            files | {"train": tmp_path / "bad.csv"}, tmp_path / "out", "--shortcut", "single-term"
        ),
    )


@pytest.mark.parametrize("flag", ["--strength", "--test-strength"])
def test_strength_outside_range(files, tmp_path, flag):
    assert_refused(
        tmp_path,
        "must be a float in [0, 1]. Got 1.5 instead.",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term", flag, "1.5"),
    )


def test_unknown_shortcut(files, tmp_path):
    assert_refused(
        tmp_path,
        "Unknown shortcut 'catgory'. Did you mean 'category' or 'author'? Known shortcuts: author, bible, category, concept-correlation",
        *build_args(files, tmp_path / "out", "--shortcut", "catgory"),
    )


def test_output_folder_not_empty(files, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("keep")
    assert_refused(
        tmp_path,
        "exists and is not empty",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )
    assert (
        invoke(
            *build_args(files, tmp_path / "out", "--shortcut", "single-term", "--overwrite")
        ).exit_code
        == 0
    )
    assert not (tmp_path / "out" / "mine.txt").exists()


def test_concept_shortcut_without_distractors(tmp_path, tiny_frame):
    tiny_frame.to_csv(tmp_path / "d.csv", index=False)
    files = {"train": tmp_path / "d.csv", "test": tmp_path / "d.csv"}
    assert_refused(
        tmp_path,
        "needs distractor reviews for one aspect. Give them with --distractor NAME=PATH",
        *build_args(files, tmp_path / "out", "--shortcut", "concept-correlation"),
    )


def test_bad_option_syntax_and_unknown_option(files, tmp_path):
    assert_refused(
        tmp_path,
        "--option expects KEY=VALUE",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term", "-o", "term"),
    )
    assert_refused(
        tmp_path,
        "has no option 'word'",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term", "-o", "word=x"),
    )


def test_evaluate_bad_inputs(tmp_path):
    assert_refused(tmp_path, "not a benchmark folder", "evaluate", tmp_path)
    assert_refused(tmp_path, "not a benchmark folder", "evaluate", tmp_path, "--model", "bert")


def test_evaluate_unknown_model(files, tmp_path):
    assert invoke(*build_args(files, tmp_path / "b", "--shortcut", "single-term")).exit_code == 0
    assert_refused(
        tmp_path,
        "Unknown model 'tfidf-logreg2'. Did you mean 'tfidf-logreg' or 'tfidf-svm'?",
        "evaluate",
        tmp_path / "b",
        "--model",
        "tfidf-logreg2",
    )


def test_demo_command(tmp_path):
    result = invoke(
        "demo",
        "--out",
        tmp_path / "d",
        "--train-size",
        300,
        "--test-size",
        200,
        "--seeds",
        1,
        "--jobs",
        1,
    )
    assert result.exit_code == 0, result.output
    assert "Accuracy by training strength" in result.stdout
    assert (tmp_path / "d" / "delta_vs_strength_accuracy.png").exists()
    assert "concept-occurrence" in result.stdout and "…" not in result.stdout  # names whole
    # The MPS grid's warnings come after every table, name their build and the grid's spec key
    # (the demo has no --label-mix), and say where that spec is.
    warnings = [line for line in result.output.splitlines() if line.startswith("Warning:")]
    assert warnings and all("MPS build of attribute" in line for line in warnings)
    assert all("mps: {label_mix: matched}" in line for line in warnings if "priors" in line)
    assert "--label-mix" not in result.output
    assert result.output.index("Warning:") > result.output.index("MPS (paper 002)")
    assert "spec.resolved.json" in result.stderr
    # Plain words at the end, one per shortcut and MPS attribute; footnotes only with --details.
    found = result.stdout.split("\nFindings:\n")[1].splitlines()
    shortcuts = ["single-term", "synonym", "category", "register", "author", "bible"]
    for shortcut in [*shortcuts, "concept-occurrence", "concept-correlation"]:
        assert (
            sum(
                f" reliance on {shortcut} at λ 1 (" in line or f" relies on {shortcut}: " in line
                for line in found
            )
            == 1
        )
    for attribute in ("negation", "question", "product-type"):
        assert any(f"training on labels balanced across {attribute} " in line for line in found)
    for footnote in ("Holm–Bonferroni", "δ = W-ACC(Balanced)", "— : nothing varied"):
        assert footnote not in result.stdout


GRID = """
name: cli-grid
data: {builtin: reviews, train_size: 300, test_size: 200}
shortcuts: [single-term]
strengths: [1.0, 0.6]
models: [{name: majority}, {name: tfidf-logreg}]
seeds: [0, 1]
bootstrap: 100
"""


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
