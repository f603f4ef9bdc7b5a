"""``shortcutlab split`` and ``cat --split-by``: files in the input's format, every group on one
side, one-line refusals that write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.families.cat.cat_data import pair_table

READERS = {
    "csv": pd.read_csv,
    "tsv": lambda path: pd.read_csv(path, sep="\t"),
    "jsonl": lambda path: pd.read_json(path, lines=True),
    "parquet": pd.read_parquet,
}


def _pairs(folder: Path, fmt: str = "csv", rows: int = 120) -> Path:
    """NLI-like pairs, three hypotheses per premise, with an extra column; written as ``fmt``."""
    frame = pair_table(rows, seed=0)
    frame["premise"] = [frame["premise"][row - row % 3] for row in range(rows)]
    frame["genre"] = ["fiction", "travel"] * (rows // 2)
    path = folder / f"pairs.{fmt}"
    {
        "csv": lambda: frame.to_csv(path, index=False),
        "tsv": lambda: frame.to_csv(path, sep="\t", index=False),
        "jsonl": lambda: frame.to_json(path, orient="records", lines=True),
        "parquet": lambda: frame.to_parquet(path, index=False),
    }[fmt]()
    return path


@pytest.mark.parametrize("fmt", list(READERS))
def test_split_writes_each_side_in_the_input_format_with_no_premise_on_two_sides(tmp_path, fmt):
    data = _pairs(tmp_path, fmt)
    result = invoke("split", data, "--by", "premise", "--test-size", "0.3", "--dev-size", "0.2",
                    "--out", tmp_path / "out")  # fmt: skip
    assert result.exit_code == 0, result.output
    sides = {s: READERS[fmt](tmp_path / "out" / f"{s}.{fmt}") for s in ("train", "dev", "test")}
    original = READERS[fmt](data)
    assert sum(map(len, sides.values())) == len(original) == 120
    assert all(list(side.columns) == list(original.columns) for side in sides.values())
    premises = {side: set(frame["premise"]) for side, frame in sides.items()}
    assert not premises["train"] & premises["test"] and not premises["dev"] & premises["test"]
    assert not premises["train"] & premises["dev"]
    assert 36 <= len(sides["test"]) <= 38 and 24 <= len(sides["dev"]) <= 26
    assert "120 rows, 40 groups; no value of premise is on two sides" in result.stdout
    for side, frame in sides.items():
        line = next(line for line in result.stdout.splitlines() if f"{side}.{fmt}" in line)
        assert f"{len(frame)} rows" in line and f"{len(premises[side])} groups" in line
    record = json.loads((tmp_path / "out" / "split.json").read_text())
    assert record["by"] == "premise" and record["sides"]["test"]["rows"] == len(sides["test"])


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    data = _pairs(tmp_path)
    for out in ("a", "b"):
        invoke("split", data, "--by", "premise", "--seed", "4", "--out", tmp_path / out)
    for name in ("train.csv", "test.csv", "split.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize(
    "options, message",
    [
        (("--by", "premis"), "has no column 'premis' to split by (columns: premise, hypothesis"),
        (("--by", "premise", "--test-size", "1.5"), "--test-size must be a fraction of the rows"),
        (("--by", "genre", "--dev-size", "0.4"), "The 2 groups of 'genre' are too few"),
        (("--by", "label", "--test-size", "0.7", "--dev-size", "0.3"), "leaves no training rows"),
    ],
)
def test_bad_splits_are_refused_in_one_line_and_write_nothing(tmp_path, options, message):
    data = _pairs(tmp_path)
    assert_refused(tmp_path, message, "split", data, *options, "--out", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_one_group_only_and_an_existing_folder_are_refused(tmp_path):
    (tmp_path / "one.csv").write_text("premise,hypothesis,label\np,h1,a\np,h2,b\n")
    assert_refused(tmp_path, "Every row has the same value of 'premise' ('p')", "split",
                   tmp_path / "one.csv", "--by", "premise", "--out", tmp_path / "out")  # fmt: skip
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    assert_refused(tmp_path, "exists and is not empty. Choose another --out or pass --overwrite",
                   "split", _pairs(tmp_path), "--by", "premise", "--out", tmp_path / "out")  # fmt: skip
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["keep.txt"]


def test_cat_split_by_tests_on_premises_it_never_trained_on(tmp_path):
    data = _pairs(tmp_path, rows=300)
    result = invoke("cat", "--train", data, "--split-by", "premise", "--test-size", "0.4",
                    "--text-col", "premise", "--text-pair-col", "hypothesis", "--k", "2",
                    "--default-label", "neutral", "--out", tmp_path / "out")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "share their first text" not in result.output  # the row-split warning
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    split = results["provenance"]["sources"]["split"]
    assert split["by"] == "premise" and split["rows"]["test"] == results["data"]["test_rows"]
    assert 120 <= split["rows"]["test"] <= 122 and split["groups"] == {"train": 60, "test": 40}


def test_cat_needs_test_or_split_by_but_not_both(tmp_path):
    data = _pairs(tmp_path)
    pair = ("--text-col", "premise", "--text-pair-col", "hypothesis", "--out", tmp_path / "out")
    message = "cat needs a test table: pass --test FILE, or --split-by COLUMN"
    assert_refused(tmp_path, message, "cat", "--train", data, *pair)
    assert_refused(tmp_path, message, "cat", "--train", data, "--test", data,
                   "--split-by", "premise", *pair)  # fmt: skip
