"""build and evaluate refuse every documented bad input: exit 2, one line, nothing written."""

import json

import pytest

from tests.cli.refusals import assert_refused, build_args, invoke
from tests.conftest import other_items


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
    other_items(tiny_frame).to_csv(tmp_path / "t.csv", index=False)
    files = {"train": tmp_path / "d.csv", "test": tmp_path / "t.csv"}
    assert_refused(
        tmp_path,
        "1 row with an empty text",
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
        "is not valid utf-8: byte 0x93 at offset 24 (line 3). Pass the file's real encoding, e.g. --encoding cp1252.",
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


#: What ``--format`` of a command that writes files says now (it means the printed table's style).
OLD_FORMAT = (
    "{}'s --format is now --file-format (the type of the files it writes); --format means the "
    "printed table's style elsewhere."
)


@pytest.mark.parametrize("spelling", [["--format", "csv"], ["--format=parquet"]])
def test_the_old_format_spelling_names_file_format(files, tmp_path, spelling):
    data = ["--train", files["train"], "--out", tmp_path / "out"]
    for family, extra in {
        "maze": ["--test", files["test"], "--shortcut", "single-term"],
        "mps": ["--attribute", "negation"],
        "suite": ["--sets", "standard", "--size", "50"],
    }.items():
        assert_refused(
            tmp_path, OLD_FORMAT.format("build"), "build", family, *data, *extra, *spelling
        )
    assert_refused(
        tmp_path, OLD_FORMAT.format("generate"), "generate", "--out", tmp_path / "out", *spelling
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
