"""Split files read as they are: the Shortcut Maze release layout becomes a Benchmark whose
unknown shortcut and λ stay unknown, and whose paired files must really pair."""

from __future__ import annotations

import json

import pytest

from shortcutlab import load_splits, maze_table
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.existing_splits import ExistingSplits
from shortcutlab.errors import ConfigError, DataError, InputFileError
from tests.data.release_files import write_release


def test_a_release_folder_reads_as_a_benchmark_with_unknown_shortcut_and_strength(tmp_path):
    folder = write_release(tmp_path / "lambda1")
    bench = ExistingSplits.release(folder).load()
    assert list(bench.splits) == ["train", "validation", "test", "anti_test"]
    assert bench.labels.values == (0, 1, 2)
    assert (bench.shortcut, bench.strength) == ("", None)
    assert bench.manifest["inputs"]["anti_test"]["path"] == str(folder / "test_anti-shortcut.csv")
    assert bench["test"]["row_id"].tolist() == bench["anti_test"]["row_id"].tolist()


def test_a_saved_import_loads_again_with_its_files_and_labels(tmp_path):
    folder = write_release(tmp_path / "release")
    bench = load_splits(
        folder / "train.csv", folder / "test.csv", folder / "test_anti-shortcut.csv"
    )
    bench.save(tmp_path / "saved")
    again = Benchmark.load(tmp_path / "saved")
    manifest = json.loads((tmp_path / "saved" / "manifest.json").read_text())
    assert manifest["kind"] == "existing-splits" and "strength" not in manifest["arguments"]
    assert again["anti_test"]["text"].tolist() == bench["anti_test"]["text"].tolist()


def test_other_column_names_are_read_as_named(tmp_path):
    folder = write_release(tmp_path / "r", text_col="comment", label_col="emotion")
    bench = ExistingSplits.release(folder, text_col="comment", label_col="emotion").load()
    assert bench["train"]["text"].iloc[:3].tolist() == [
        "item 0 felt fine average",
        "item 1 felt fine average",
        "honestly, item 2 felt lovely great",
    ]
    assert sorted(bench["test"]["label"].unique()) == [0, 1, 2]


def test_a_stated_strength_is_recorded_and_shown(tmp_path):
    from shortcutlab import evaluate_benchmark

    folder = write_release(tmp_path / "r")
    bench = ExistingSplits.release(folder).load(shortcut="single-term", strength=0.8)
    result = evaluate_benchmark(bench, seeds=1, bootstrap=100)
    table = maze_table(result.to_frame())
    assert list(table.columns) == [0.8]
    assert table.index[0][2] == "single-term"


def test_an_unknown_strength_is_a_dash_column_of_the_table(tmp_path):
    from shortcutlab import evaluate_benchmark

    folder = write_release(tmp_path / "r")
    result = evaluate_benchmark(ExistingSplits.release(folder).load(), seeds=1, bootstrap=100)
    table = maze_table(result.to_frame(), marked=True)
    assert list(table.columns) == ["—"]
    assert table.index[0][:3] == ("r", "tfidf-logreg", "—")
    assert table.loc[("r", "tfidf-logreg", "—", "VAR(Δ)"), "—"] == "—"


def test_test_and_anti_test_of_different_lengths_are_refused(tmp_path):
    folder = write_release(tmp_path / "r")
    lines = (folder / "test_anti-shortcut.csv").read_text().splitlines()
    (folder / "test_anti-shortcut.csv").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(DataError, match="must hold the same rows in the same order"):
        ExistingSplits.release(folder).load()


def test_paired_rows_with_different_labels_are_refused(tmp_path):
    folder = write_release(tmp_path / "r")
    lines = (folder / "test_anti-shortcut.csv").read_text().splitlines()
    label, text = lines[1].split(",", 1)
    lines[1] = f"{(int(label) + 1) % 3},{text}"
    (folder / "test_anti-shortcut.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"disagree on the label of 1 paired rows \(first: row 0"):
        ExistingSplits.release(folder).load()


def test_a_test_label_the_training_file_lacks_is_refused(tmp_path):
    folder = write_release(tmp_path / "r")
    for name in ("test.csv", "test_anti-shortcut.csv"):
        text = (folder / name).read_text().replace("\n2,", "\n7,", 1)
        (folder / name).write_text(text)
    with pytest.raises(DataError, match="has labels 7 that are not in the label set 0, 1, 2"):
        ExistingSplits.release(folder).load()


def test_missing_files_are_named_with_their_option(tmp_path):
    with pytest.raises(
        ConfigError,
        match=r"needs train=\.\.\., test=\.\.\. and anti_test=\.\.\.; anti_test=\.\.\. is missing",
    ):
        ExistingSplits(train=tmp_path / "a.csv", test=tmp_path / "b.csv").load()
    with pytest.raises(
        InputFileError, match=r"The train file '.*a.csv' \(train=\.\.\.\) does not exist"
    ):  # a Python caller is told its parameter; the command line's --train is tested in cli/
        load_splits(tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv")
