"""Input that used to become wrong data without a word (issue 21, section 8): refused with one
line, or counted in the manifest with a warning."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.cli.refusals import assert_refused, invoke


def _rows(corpus_files: dict[str, Path], role: str = "train") -> pd.DataFrame:
    return pd.read_csv(corpus_files[role])[["text", "label"]]


def _build(train: Path, test: Path, out: Path, *options: object) -> tuple[object, ...]:
    return (
        "build", "maze", "--train", train, "--test", test, "--shortcut", "single-term",
        "--out", out, *options,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [lambda i: [f"word{i}", "more"], lambda i: {"sentence": f"word{i}"}],
    ids=["list<string>", "struct"],
)
def test_a_parquet_text_column_of_lists_or_structs_is_refused(tmp_path, corpus_files, text):
    rows = _rows(corpus_files)
    table = pa.table({"text": [text(i) for i in range(len(rows))], "label": rows["label"]})
    pq.write_table(table, tmp_path / "train.parquet")
    assert_refused(
        tmp_path,
        "The text column 'text' of",
        *_build(tmp_path / "train.parquet", corpus_files["test"], tmp_path / "out"),
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--text-col", "label"), "--text-col and --label-col both name the column 'label'"),
        (("--text-pair-col", "text"), "--text-col and --text-pair-col both name the column 'text'"),
    ],
)
def test_one_column_given_to_two_options_is_refused(tmp_path, corpus_files, options, message):
    args = _build(corpus_files["train"], corpus_files["test"], tmp_path / "out", *options)
    assert_refused(tmp_path, message, *args)


def test_an_audit_metadata_column_that_is_the_label_is_refused(tmp_path, corpus_files):
    assert_refused(
        tmp_path,
        "--label-col and --meta-col both name the column 'label'",
        "audit", corpus_files["train"], "--meta-col", "label", "--out", tmp_path / "out",
    )  # fmt: skip


def _duplicate_csv(path: Path, rows: pd.DataFrame) -> None:
    rows.assign(second=rows["text"].str.upper())[["text", "second", "label"]].to_csv(
        path, index=False, header=["text", "text", "label"]
    )


def _duplicate_parquet(path: Path, rows: pd.DataFrame) -> None:
    texts = pa.array(rows["text"].tolist())
    table = pa.Table.from_arrays(
        [texts, texts, pa.array(rows["label"].tolist())], names=["text", "text", "label"]
    )
    pq.write_table(table, path)


def _duplicate_jsonl(path: Path, rows: pd.DataFrame) -> None:
    lines = [
        f'{{"text": {json.dumps(t)}, "text": "other", "label": {v}}}\n'
        for t, v in zip(rows["text"], rows["label"], strict=True)
    ]
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "write", "message"),
    [
        ("train.csv", _duplicate_csv, "has more than one column named 'text'"),
        ("train.parquet", _duplicate_parquet, "has more than one column named 'text'"),
        ("train.jsonl", _duplicate_jsonl, "line 1 gives the key 'text' more than once"),
    ],
)
def test_duplicate_column_names_are_refused(tmp_path, corpus_files, name, write, message):
    write(tmp_path / name, _rows(corpus_files))
    args = _build(tmp_path / name, corpus_files["test"], tmp_path / "out")
    assert_refused(tmp_path, message, *args)
    assert_refused(tmp_path, message, "audit", tmp_path / name, "--out", tmp_path / "audit")


def test_nul_bytes_are_read_as_spaces_counted_and_warned_about(tmp_path, corpus_files):
    rows = _rows(corpus_files)
    rows.loc[[0, 5], "text"] = ["Broken\x00export here. Fine.", "Another\x00\x00one. Good."]
    rows.to_csv(tmp_path / "train.csv", index=False)
    out = tmp_path / "out"
    result = invoke(*_build(tmp_path / "train.csv", corpus_files["test"], out))
    assert result.exit_code == 0, result.output
    assert "'" + str(tmp_path / "train.csv") + "' has 2 texts holding NUL bytes" in result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["inputs"]["train"]["texts_with_nul"] == 2
    assert "texts_with_nul" not in manifest["inputs"]["test"]
    written = (out / "train.csv").read_bytes()
    assert b"\x00" not in written and b"Another  one." in written


def test_rows_that_are_only_the_cue_are_dropped_and_counted(tmp_path, corpus_files):
    rows = _rows(corpus_files)
    rows.loc[[1, 2, 3], "text"] = ["Frankly", "frankly.", "FRANKLY,"]
    rows.to_csv(tmp_path / "train.csv", index=False)
    out = tmp_path / "out"
    build = _build(tmp_path / "train.csv", corpus_files["test"], out, "-o", "term=frankly")
    result = invoke(*build)
    assert result.exit_code == 0, result.output
    assert "has 3 rows whose text is empty once the cue is removed (first: row 1)" in result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["inputs"]["train"]["dropped_empty_after_cleaning"] == 3
    written = pd.read_csv(out / "train.csv", keep_default_na=False)
    assert len(written) == len(rows) - 3 and not {1, 2, 3} & set(written["row_id"])
    assert (written["text"].str.strip() != "").all()
    assert manifest["splits"]["train"]["rows"] == len(rows) - 3

    assert_refused(
        tmp_path,
        "has 3 rows whose text is empty once the cue is removed (first: row 1). Remove them or "
        "use --on-empty drop.",
        *_build(tmp_path / "train.csv", corpus_files["test"], tmp_path / "again",
                "-o", "term=frankly", "--on-empty", "error"),
    )  # fmt: skip


def test_a_parquet_text_column_of_bytes_is_read_as_utf8_or_refused(tmp_path, corpus_files):
    rows = _rows(corpus_files)
    encoded = [text.encode() for text in rows["text"]]
    pq.write_table(
        pa.table({"text": pa.array(encoded, pa.binary()), "label": rows["label"]}),
        tmp_path / "utf8.parquet",
    )
    out = tmp_path / "out"
    result = invoke(*_build(tmp_path / "utf8.parquet", corpus_files["test"], out))
    assert result.exit_code == 0, result.output
    assert not pd.read_csv(out / "train.csv")["text"].str.startswith("b'").any()
    encoded[3] = b"caf\xe9"
    pq.write_table(
        pa.table({"text": pa.array(encoded, pa.binary()), "label": rows["label"]}),
        tmp_path / "latin1.parquet",
    )
    assert_refused(
        tmp_path,
        "holds bytes that are not UTF-8 text",
        *_build(tmp_path / "latin1.parquet", corpus_files["test"], tmp_path / "again"),
    )


def test_a_jsonl_text_column_with_an_object_among_strings_is_refused(tmp_path, corpus_files):
    rows = _rows(corpus_files)
    lines = [json.dumps({"text": t, "label": int(v)}) for t, v in zip(*rows.values.T, strict=True)]
    lines[7] = json.dumps({"text": {"title": "x", "body": "y"}, "label": 1})
    (tmp_path / "train.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert_refused(
        tmp_path,
        "The text column 'text' of '" + str(tmp_path / "train.jsonl") + "' holds lists or "
        "objects (e.g. {'title': 'x', 'body': …)",
        "audit", tmp_path / "train.jsonl", "--out", tmp_path / "out",
    )  # fmt: skip
