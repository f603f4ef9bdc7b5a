"""Hostile label values (issue 34, classes H, I and J): a message about 10,000 labels lists the
first few and "and N more"; a label holding a control character (a NUL) is refused naming its row
and column; labels that differ only in case are refused naming them, for every command."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.errors import LISTED_VALUES
from tests.cli.refusals import assert_refused, build_args, invoke


def _build(files: dict[str, Path], out: Path, *extra: object) -> list[object]:
    return build_args(files, out, "--shortcut", "single-term", *extra)


def _relabelled(folder: Path, source: Path, name: str, labels: list[object]) -> Path:
    table = pd.read_csv(source)[["text", "label"]]
    table["label"] = [labels[i % len(labels)] for i in range(len(table))]
    path = folder / name
    if path.suffix == ".jsonl":
        table.to_json(path, orient="records", lines=True)
    else:
        table.to_csv(path, index=False)
    return path


def test_a_refusal_about_ten_thousand_labels_lists_a_few(tmp_path):
    rows = pd.DataFrame(
        {"text": [f"review number {i} is fine" for i in range(10_000)]}
        | {"label": [f"label_{i:05d}" for i in range(10_000)]}
    )
    rows.to_csv(tmp_path / "many.csv", index=False)
    result = assert_refused(
        tmp_path,
        "Too few training rows per label for any test: 'label_00000' has 1, 'label_00001' has 1,",
        "audit", tmp_path / "many.csv", "--out", tmp_path / "out",
    )  # fmt: skip
    line = result.stderr.strip()
    assert f"'label_0000{LISTED_VALUES - 1}' has 1 and {10_000 - LISTED_VALUES:,} more;" in line
    assert len(line) < 400


def test_test_labels_the_training_data_lacks_are_listed_capped(tmp_path, corpus_files):
    train = _relabelled(tmp_path, corpus_files["train"], "train.csv", ["a", "b"])
    test = _relabelled(tmp_path, corpus_files["test"], "test.csv", [f"x{i}" for i in range(300)])
    result = assert_refused(
        tmp_path,
        "The test table has label(s) x0, x1, x2, x3, x4 and 295 more that never occur in the",
        *_build({"train": train, "test": test}, tmp_path / "out", "--labels", "a,b"),
    )
    assert len(result.stderr) < 600


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
@pytest.mark.parametrize("label", ["3\x00", "\x1b[31m3", "3\x00\x00", "p\x7fs"])
def test_a_label_with_a_control_character_is_refused_naming_row_and_column(
    tmp_path, corpus_files, suffix, label
):
    train = _relabelled(tmp_path, corpus_files["train"], f"train{suffix}", [1, 2, 3, 4, 5])
    table = pd.read_csv(train) if suffix == ".csv" else pd.read_json(train, lines=True)
    table["label"] = table["label"].astype(str)
    table.loc[7, "label"] = label
    if suffix == ".csv":
        table.to_csv(train, index=False)
    else:
        table.to_json(train, orient="records", lines=True)
    result = assert_refused(
        tmp_path,
        f"'{train}' row 7, column 'label': the label {label!r} holds a control character; it "
        "would be a label of its own. Fix the cell",
        *_build({"train": train, "test": corpus_files["test"]}, tmp_path / "out"),
    )
    assert "\x00" not in result.stderr and "\x1b" not in result.stderr


def test_labels_with_control_characters_in_a_grid_are_refused(tmp_path, corpus_files):
    train = _relabelled(tmp_path, corpus_files["train"], "train.csv", ["1", "2\x00", "3"])
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"data: {{train: {train}, test: {corpus_files['test']}}}\nshortcuts: [single-term]\n"
        "strengths: [1.0]\nmodels: [majority]\nseeds: [0]\n"
    )
    assert_refused(
        tmp_path,
        "row 1, column 'label': the label '2\\x00' holds a control character (199 more rows hold one",
        "run", spec, "--out", tmp_path / "run",
    )  # fmt: skip


def test_white_space_around_a_label_is_still_trimmed(tmp_path, corpus_files):
    train = _relabelled(tmp_path, corpus_files["train"], "train.csv", [" 1\t", "2 ", "\n3"])
    test = _relabelled(tmp_path, corpus_files["test"], "test.csv", [1, 2, 3])
    built = invoke(*_build({"train": train, "test": test}, tmp_path / "out"))
    assert built.exit_code == 0, built.output
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["labels"] == [1, 2, 3]


CASES = ["Pos", "pos", "NEG", "neg", "POS"]


@pytest.mark.parametrize("command", ["build", "audit", "evaluate"])
def test_labels_that_differ_only_in_case_are_refused(tmp_path, corpus_files, command):
    train = _relabelled(tmp_path, corpus_files["train"], "train.csv", CASES)
    test = _relabelled(tmp_path, corpus_files["test"], "test.csv", CASES)
    arguments = {
        "build": _build({"train": train, "test": test}, tmp_path / "out"),
        "audit": ["audit", train, "--test", test, "--out", tmp_path / "out"],
        "evaluate": [
            "evaluate", "--train", train, "--test", test, "--anti-test", test,
            "--seeds", 1, "--out", tmp_path / "out",
        ],
    }  # fmt: skip
    sources = {"build": f"'{train}'", "audit": "the train table", "evaluate": f"'{train}'"}
    result = assert_refused(
        tmp_path,
        " has labels that differ only in case: Pos/pos/POS, NEG/neg. An LLM's answer is read, and "
        "lm-eval's exact_match scores, ignoring case, so they would be one label there. Write "
        "each label one way (e.g. all in lower case).",
        *arguments[command],
    )
    assert result.stderr.startswith(f"Error: {sources[command]} has labels")


@pytest.fixture
def benchmark(tmp_path: Path, corpus_files: dict[str, Path]) -> Path:
    """A Maze benchmark of labels neg and pos."""
    names = ["neg", "pos"]
    files = {
        split: _relabelled(tmp_path, corpus_files[split], f"{split}-named.csv", names)
        for split in ("train", "test")
    }
    built = invoke(*_build(files, tmp_path / "bench", "--labels", "neg,pos"))
    assert built.exit_code == 0, built.output
    return tmp_path / "bench"


def test_an_old_benchmark_with_labels_differing_in_case_is_not_exported(tmp_path, benchmark):
    manifest = benchmark / "manifest.json"
    record = json.loads(manifest.read_text())
    manifest.write_text(json.dumps(record | {"labels": ["pos", "Pos"]}))  # built before the check
    assert_refused(
        tmp_path,
        "The label set has labels that differ only in case: pos/Pos.",
        "export", benchmark, "--to", "lm-eval", "--out", tmp_path / "lm",
    )  # fmt: skip


def test_llm_prompt_label_names_that_differ_only_in_case_are_refused(tmp_path, benchmark):
    assert_refused(
        tmp_path,
        "The 'label_names' parameter of llm-prompt has labels that differ only in case: Pos/pos.",
        "evaluate", benchmark, "--model", "llm-prompt", "--seeds", 1,
        "-p", "label_names=[Pos, pos]",
        "-p", "client={name: openai-chat, base_url: 'http://127.0.0.1:9/v1', model: m}",
        "--out", tmp_path / "out",
    )  # fmt: skip
