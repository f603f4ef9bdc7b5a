"""Damaged and compressed inputs (issue 34, classes C and E): a Hugging Face ``save_to_disk``
folder with a file cut short or overwritten is refused naming that file; a gzipped file is
decompressed in blocks and refused past the documented bound, in one line."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.data import gzipped
from tests.cli.refusals import assert_refused, build_args, invoke

ARROW = "data-00000-of-00001.arrow"


def _saved(folder: Path, corpus_files: dict[str, Path]) -> Path:
    datasets = pytest.importorskip("datasets")
    splits = {
        split: datasets.Dataset.from_pandas(pd.read_csv(corpus_files[split])[["text", "label"]])
        for split in ("train", "test")
    }
    datasets.DatasetDict(splits).save_to_disk(str(folder / "hf"))
    return folder / "hf"


def _build_hf(folder: Path, saved: Path) -> list[object]:
    files = {split: f"{saved}::{split}" for split in ("train", "test")}
    return build_args(files, folder / "out", "--shortcut", "single-term")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda data: data[: len(data) // 2], "Expected to be able to read"),
        (lambda data: data[:20000] + b"\xff" * 4096 + data[24096:], "Invalid UTF8"),
        (lambda data: b"", "Tried reading schema message"),
    ],
    ids=["truncated", "4-KB-overwritten", "empty"],
)
def test_a_damaged_arrow_file_is_named(tmp_path, corpus_files, damage, reason):
    saved = _saved(tmp_path, corpus_files)
    arrow = saved / "train" / ARROW
    arrow.write_bytes(damage(arrow.read_bytes()))
    message = f"'{arrow}' is damaged ("
    result = assert_refused(tmp_path, message, *_build_hf(tmp_path, saved))
    assert reason in result.stderr and "--encoding" not in result.stderr
    assert "Save the dataset again (save_to_disk), or restore the folder." in result.stderr


def test_a_damaged_json_file_of_the_folder_is_named(tmp_path, corpus_files):
    saved = _saved(tmp_path, corpus_files)
    (saved / "test" / "state.json").write_text('{"_data_files": [')
    assert_refused(
        tmp_path, f"'{saved / 'test' / 'state.json'}' is damaged (", *_build_hf(tmp_path, saved)
    )


def _csv_gz(path: Path, rows: int) -> Path:
    """A gzipped CSV of ``rows`` rows of text and label, written in blocks."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: the gzip container
    block = b'"a review that goes on and on",3\n' * 10_000
    with open(path, "wb") as handle:
        handle.write(compressor.compress(b"text,label\n"))
        for _ in range(rows // 10_000):
            handle.write(compressor.compress(block))
        handle.write(compressor.flush())
    return path


def test_a_gzipped_file_past_the_bound_is_refused(tmp_path, corpus_files, monkeypatch):
    monkeypatch.setattr(gzipped, "MAX_GUNZIPPED_BYTES", 1 << 20)  # 1 MiB; the file holds 3.3 MB
    train = _csv_gz(tmp_path / "train.csv.gz", 100_000)
    files = {"train": train, "test": corpus_files["test"]}
    result = assert_refused(
        tmp_path,
        f"'{train}' expands to more than ",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )
    assert result.stderr.strip().endswith(
        " GiB once decompressed, the most shortcutlab reads from a gzipped file (it is held in "
        "memory whole). Decompress it (gunzip) and pass the plain file."
    )


def test_a_gzipped_file_within_the_bound_reads_as_its_plain_file(tmp_path, corpus_files):
    plain = corpus_files["train"]
    packed = tmp_path / "train.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for train, out in ((plain, "plain"), (packed, "packed")):
        files = {"train": train, "test": corpus_files["test"]}
        assert (
            invoke(*build_args(files, tmp_path / out, "--shortcut", "single-term")).exit_code == 0
        )
    assert (tmp_path / "plain" / "train.csv").read_bytes() == (
        tmp_path / "packed" / "train.csv"
    ).read_bytes()


def test_a_gzipped_file_cut_short_is_refused(tmp_path, corpus_files):
    train = tmp_path / "train.csv.gz"
    train.write_bytes(gzip.compress(corpus_files["train"].read_bytes())[:2000])
    files = {"train": train, "test": corpus_files["test"]}
    assert_refused(
        tmp_path,
        f"'{train}' is not a valid gzip file (Compressed file ended before",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )


@pytest.mark.slow
def test_a_gzip_bomb_at_the_documented_bound_is_refused(tmp_path, corpus_files):
    """3 MB that expand to 1.1 GiB: refused without holding the expanded bytes."""
    train = _csv_gz(tmp_path / "train.csv.gz", 35_000_000)
    files = {"train": train, "test": corpus_files["test"]}
    assert_refused(
        tmp_path,
        f"'{train}' expands to more than 1 GiB once decompressed",
        *build_args(files, tmp_path / "out", "--shortcut", "single-term"),
    )
