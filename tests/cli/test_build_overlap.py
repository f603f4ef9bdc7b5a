"""A test table that repeats the training rows: every builder and a grid refuse one whose rows are
all training rows (``build maze --train s.csv --test s.csv`` built 10,662 overlapping rows without
a word), and warn past a small share, counting rows as the audit's leakage check does."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.data.overlap import WARN_SHARE
from tests.cli.refusals import assert_refused, invoke

ALL_REPEATED = (
    "All 600 test rows repeat a training row (the same text, ignoring case and spacing), so the "
    "test would measure memory, not a shortcut. Give a test table that is not the training table "
    "('shortcutlab split' makes both from one file)."
)


@pytest.fixture
def files(tmp_path: Path, corpus: dict[str, pd.DataFrame]) -> dict[str, Path]:
    """train.csv (600 rows); test.csv (400 other rows); mixed.csv: 60 of test.csv's rows
    replaced by training rows in upper case with doubled spaces (the same after normalising)."""
    train = corpus["train"][["text", "label"]]
    test = corpus["test"][["text", "label"]].reset_index(drop=True)
    mixed = test.copy()
    copies = train.head(60).assign(text=lambda t: t["text"].str.upper().str.replace(" ", "  "))
    mixed.iloc[:60] = copies.to_numpy()
    paths = {"train": tmp_path / "train.csv", "test": tmp_path / "test.csv"}
    train.to_csv(paths["train"], index=False)
    test.to_csv(paths["test"], index=False)
    mixed.to_csv(tmp_path / "mixed.csv", index=False)
    paths["mixed"] = tmp_path / "mixed.csv"
    return paths


def test_maze_and_mps_builds_refuse_the_training_table_as_the_test_table(tmp_path, files):
    same = ["--train", files["train"], "--test", files["train"], "--out", tmp_path / "out"]
    assert_refused(tmp_path, ALL_REPEATED, "build", "maze", *same, "--shortcut", "single-term")
    assert_refused(tmp_path, ALL_REPEATED, "build", "mps", *same, "--attribute", "negation")


def test_a_grid_refuses_it_before_its_run_folder_exists(tmp_path, files):
    (tmp_path / "spec.yaml").write_text(
        "name: same\ndata: {train: train.csv, test: train.csv}\nshortcuts: [single-term]\n"
        "strengths: [1.0]\nmodels: [majority]\nseeds: [0]\n"
    )
    assert_refused(tmp_path, ALL_REPEATED, "run", tmp_path / "spec.yaml", "--out", tmp_path / "r")


def test_a_partial_overlap_warns_with_its_count(tmp_path, files):
    built = invoke(
        "build", "maze", "--train", files["train"], "--test", files["mixed"],
        "--shortcut", "single-term", "--out", tmp_path / "bench",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    assert built.stderr.splitlines() == [
        "Warning: 60 of 400 test rows (15.0 %) repeat a training row (the same text, ignoring "
        "case and spacing); on them the test measures memory. 'shortcutlab audit TRAIN --test "
        "TEST' lists them."
    ]


@pytest.mark.slow
def test_the_audit_counts_the_same_rows(files):
    audit = invoke("audit", files["train"], "--test", files["mixed"], "--format", "json")
    assert audit.exit_code == 0, audit.output
    assert json.loads(audit.stdout)["leakage"]["exact"]["rows"] == 60  # the audit's own count


def test_separate_tables_build_without_a_warning(tmp_path, files):
    assert 60 / 400 > WARN_SHARE > 0 / 400
    built = invoke(
        "build", "maze", "--train", files["train"], "--test", files["test"],
        "--shortcut", "single-term", "--out", tmp_path / "bench",
    )  # fmt: skip
    assert built.exit_code == 0 and built.stderr == "", built.output
