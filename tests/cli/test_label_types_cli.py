"""Labels of several files meet as the user wrote them, in every command that reads more than one
file (issue 21, section 1): numbers by value, text as written; files whose labels disagree in
type give one line naming each file's label type with examples, exit 2, and write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.families.cat.cat_data import pair_table

NAMES = {1: "awful", 2: "bad", 3: "neutral", 4: "good", 5: "great"}
PAIR_NUMBERS = {"entailment": 0, "neutral": 1, "contradiction": 2}


def _reviews(folder: Path, corpus_files: dict[str, Path]) -> dict[str, Path]:
    """The corpus' train and test tables: whole-number labels, and the test's as names."""
    train = pd.read_csv(corpus_files["train"])[["text", "label"]]
    test = pd.read_csv(corpus_files["test"])[["text", "label"]]
    paths = {"train": folder / "train.csv", "test_names": folder / "test_names.csv"}
    train.to_csv(paths["train"], index=False)
    test.assign(label=test["label"].map(NAMES)).to_csv(paths["test_names"], index=False)
    return paths


def _pairs(folder: Path) -> dict[str, Path]:
    """NLI-like pairs: train labels as numbers, test labels as names."""
    paths = {"train": folder / "pairs_train.csv", "test": folder / "pairs_test.csv"}
    train = pair_table(300, 1)
    train.assign(label=train["label"].map(PAIR_NUMBERS)).to_csv(paths["train"], index=False)
    pair_table(120, 2).to_csv(paths["test"], index=False)
    return paths


def _maze_spec(folder: Path, train: Path, test: Path) -> Path:
    spec = folder / "spec.yaml"
    spec.write_text(
        f"name: mixed\ndatasets:\n  - {{name: rev, train: '{train}', test: '{test}'}}\n"
        "shortcuts: [single-term]\nstrengths: [0.5]\nmodels: [{name: majority}]\nseeds: [0]\n",
        encoding="utf-8",
    )
    return spec


def _cat_spec(folder: Path, pairs: dict[str, Path]) -> Path:
    spec = folder / "cat.yaml"
    spec.write_text(
        f"family: cat\nname: mixed-cat\ndata: {{name: nli, train: '{pairs['train']}', "
        f"test: '{pairs['test']}', text: premise, text_pair: hypothesis}}\n"
        "models: [{name: tfidf-logreg}]\nseeds: [0]\ncat: {k: 2, default_label: 1}\n",
        encoding="utf-8",
    )
    return spec


def _commands(folder: Path, corpus_files: dict[str, Path]) -> dict[str, tuple[object, ...]]:
    reviews, pairs = _reviews(folder, corpus_files), _pairs(folder)
    out = folder / "out"
    return {
        "build maze": (
            "build", "maze", "--train", reviews["train"], "--test", reviews["test_names"],
            "--shortcut", "single-term", "--out", out,
        ),
        "audit --test": (
            "audit", reviews["train"], "--test", reviews["test_names"], "--no-attributes",
            "--out", out,
        ),
        "run (maze grid)": (
            "run", _maze_spec(folder, reviews["train"], reviews["test_names"]), "--out", out,
        ),
        "cat": (
            "cat", "--train", pairs["train"], "--test", pairs["test"], "--default-label", "1",
            "--out", out,
        ),
        "run (cat grid)": ("run", _cat_spec(folder, pairs), "--out", out),
    }  # fmt: skip


COMMANDS = ["build maze", "audit --test", "run (maze grid)", "cat", "run (cat grid)"]


@pytest.mark.parametrize("command", COMMANDS)
def test_numbers_in_one_file_and_names_in_another_are_refused_naming_both(
    tmp_path, corpus_files, command
):
    args = _commands(tmp_path, corpus_files)[command]
    result = assert_refused(tmp_path, "The label types of the files differ", *args)
    line = result.stderr.strip()
    assert "has whole-number labels (" in line and "has text labels (" in line
    assert ("pairs_test.csv'" if "cat" in command else "test_names.csv'") in line
    assert "neutral" in line  # an example value of the file that disagrees


def test_true_false_labels_against_numbers_are_named_as_such(tmp_path, corpus_files):
    train = pd.read_csv(corpus_files["train"])[["text", "label"]]
    train.assign(label=train["label"] > 3).to_json(
        tmp_path / "train.jsonl", orient="records", lines=True
    )
    assert_refused(
        tmp_path,
        "has true/false labels (",
        "build", "maze", "--train", tmp_path / "train.jsonl", "--test", corpus_files["test"],
        "--shortcut", "single-term", "--out", tmp_path / "out",
    )  # fmt: skip


def test_json_booleans_and_spreadsheet_true_false_are_one_label(tmp_path, corpus_files):
    train = pd.read_csv(corpus_files["train"])[["text", "label"]]
    test = pd.read_csv(corpus_files["test"])[["text", "label"]]
    train.assign(label=train["label"] > 3).to_json(
        tmp_path / "train.jsonl", orient="records", lines=True
    )
    test.assign(label=(test["label"] > 3).map({True: "TRUE", False: "false"})).to_csv(
        tmp_path / "test.csv", index=False
    )
    result = invoke(
        "audit", tmp_path / "train.jsonl", "--test", tmp_path / "test.csv", "--no-attributes",
        "--out", tmp_path / "out",
    )  # fmt: skip
    # Before, the test's TRUE/false were labels the training file lacked: a refusal.
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "audit.json").is_file()


def test_the_same_number_written_differently_is_one_label(tmp_path, corpus_files):
    """Floats in test (1.0: what a writer makes of a whole-number column) and text in train that
    spells some labels as numbers ("1") and one as a name: every file meets the other."""
    train = pd.read_csv(corpus_files["train"])[["text", "label"]]
    test = pd.read_csv(corpus_files["test"])[["text", "label"]]
    named = train.assign(label=train["label"].map(lambda v: "five" if v == 5 else str(v)))
    named.to_csv(tmp_path / "train.csv", index=False)
    floats = test[test["label"] < 5].assign(label=lambda t: t["label"].astype(float))
    floats.to_json(tmp_path / "test.jsonl", orient="records", lines=True)
    out = tmp_path / "out"
    result = invoke(
        "build", "maze", "--train", tmp_path / "train.csv", "--test", tmp_path / "test.jsonl",
        "--shortcut", "single-term", "--labels", "1,2,3,4,five", "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["labels"] == ["1", "2", "3", "4", "five"]
    written = pd.read_csv(out / "test.csv", dtype=str)
    assert sorted(set(written["label"])) == ["1", "2", "3", "4"]
    assert len(written) == len(floats)


def test_whole_numbers_against_floats_build_with_whole_number_labels(tmp_path, corpus_files):
    test = pd.read_csv(corpus_files["test"])[["text", "label"]]
    test.assign(label=test["label"].astype(float)).to_json(
        tmp_path / "test.jsonl", orient="records", lines=True
    )
    out = tmp_path / "out"
    result = invoke(
        "build", "maze", "--train", corpus_files["train"], "--test", tmp_path / "test.jsonl",
        "--shortcut", "single-term", "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads((out / "manifest.json").read_text())["labels"] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    "label",
    [lambda v: {"value": int(v)}, lambda v: [int(v)], lambda v: {"v": 1} if v == 3 else int(v)],
    ids=["objects", "lists", "objects among numbers"],
)
def test_object_and_list_labels_are_refused(tmp_path, corpus_files, label):
    train = pd.read_csv(corpus_files["train"])[["text", "label"]]
    rows = [
        {"text": t, "label": label(v)} for t, v in zip(train["text"], train["label"], strict=True)
    ]
    (tmp_path / "train.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8"
    )
    assert_refused(
        tmp_path,
        "The label column 'label' of",
        "build", "maze", "--train", tmp_path / "train.jsonl", "--test", corpus_files["test"],
        "--shortcut", "single-term", "--out", tmp_path / "out",
    )  # fmt: skip


def test_a_distractor_file_with_names_against_numbered_labels_is_refused(tmp_path, corpus_files):
    """A concept shortcut's distractor reviews are another file whose labels meet the task's."""
    train = pd.read_csv(corpus_files["train"])
    for aspect in ("appearance", "delivery"):
        pool = train[[f"{aspect}_text", f"{aspect}_label"]].set_axis(["text", "label"], axis=1)
        if aspect == "appearance":
            pool = pool.assign(label=pool["label"].map(NAMES))
        pool.to_csv(tmp_path / f"{aspect}.csv", index=False)
    assert_refused(
        tmp_path,
        "the label set has whole-number labels (1, 2, 3 and 2 more), the distractor pool 'appearance'",
        "build", "maze", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--shortcut", "concept-correlation",
        *(
            f"--{kind}distractor={aspect}={tmp_path / (aspect + '.csv')}"
            for aspect in ("appearance", "delivery") for kind in ("", "test-")
        ),
        "--out", tmp_path / "out",
    )  # fmt: skip
