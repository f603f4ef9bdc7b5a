"""The streamed build: same bytes as an in-memory build, independent of batch size, row ids kept."""

import pandas as pd
import pytest

from shortcutlab.data import load_table
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.options import InputOptions
from shortcutlab.families.maze import pipeline
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.distractors import distractors_from_columns
from shortcutlab.shortcuts import make_shortcut
from tests.conftest import folder_bytes


@pytest.fixture
def data_files(tmp_path):
    rows = []
    for i in range(300):
        label = i % 3
        text = f"Row {i}. It was fine! Honestly, ok." if i % 7 == 0 else f"Row {i}. Second part."
        rows.append({"label": label, "text": text if i % 31 else f'Quote "{i}", comma\nbreak.'})
    rows[5]["text"] = "   "  # dropped as empty: row ids keep counting the file's rows
    frame = pd.DataFrame(rows)
    frame.iloc[:200].to_csv(tmp_path / "train.csv", index=False)
    frame.iloc[200:].to_csv(tmp_path / "test.csv", index=False)
    return tmp_path


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_streamed_build_equals_in_memory_build_saved(data_files, tmp_path, fmt):
    args = dict(shortcut="single-term", strength=0.8, val_size=20, seed=3)
    train, test = data_files / "train.csv", data_files / "test.csv"
    streamed = build_maze_benchmark(
        train, test, inputs=InputOptions(out=tmp_path / "streamed", fmt=fmt), **args
    )
    in_memory = build_maze_benchmark(train, test, **args)
    in_memory.save(tmp_path / "saved", fmt=fmt)
    assert folder_bytes(tmp_path / "streamed") == folder_bytes(tmp_path / "saved")
    assert streamed["train"]["text"].tolist() == in_memory["train"]["text"].tolist()


def test_batch_size_does_not_change_the_output(data_files, tmp_path, monkeypatch):
    args = dict(shortcut="synonym", strength=0.6, val_size=0.1, seed=1)
    train, test = data_files / "train.csv", data_files / "test.csv"
    build_maze_benchmark(train, test, inputs=InputOptions(out=tmp_path / "large"), **args)
    monkeypatch.setattr(pipeline, "BATCH_ROWS", 7)
    build_maze_benchmark(train, test, inputs=InputOptions(out=tmp_path / "small"), **args)
    assert folder_bytes(tmp_path / "large") == folder_bytes(tmp_path / "small")


def test_row_ids_survive_the_csv_round_trip(data_files, tmp_path):
    bench = build_maze_benchmark(
        data_files / "train.csv",
        data_files / "test.csv",
        shortcut="single-term",
        val_size=30,
        inputs=InputOptions(out=tmp_path / "b"),
    )
    written = pd.read_csv(tmp_path / "b" / "validation.csv")
    reloaded = Benchmark.load(tmp_path / "b")
    assert reloaded["validation"]["row_id"].tolist() == written["row_id"].tolist()
    ids = sorted(
        written["row_id"].tolist() + pd.read_csv(tmp_path / "b" / "train.csv")["row_id"].tolist()
    )
    assert ids == [i for i in range(200) if i != 5]  # the blank row 5 was dropped, ids unchanged
    assert bench.manifest["inputs"]["train"]["dropped_empty_text"] == 1


def test_csv_quoting_matches_pandas(data_files, tmp_path):
    build_maze_benchmark(
        data_files / "train.csv",
        data_files / "test.csv",
        inputs=InputOptions(out=tmp_path / "b"),
        shortcut="single-term",
        strength=1.0,
    )
    written = (tmp_path / "b" / "original_test.csv").read_text(encoding="utf-8")
    frame = pd.read_csv(tmp_path / "b" / "original_test.csv", keep_default_na=False)
    assert written == frame.to_csv(index=False, lineterminator="\n")
    assert any('"' in t and "," in t and "\n" in t for t in frame["text"])


def test_test_strength_same_builds_test_at_the_training_strength(data_files, tmp_path):
    bench = build_maze_benchmark(
        data_files / "train.csv",
        data_files / "test.csv",
        shortcut="single-term",
        strength=0.6,
        test_strength="same",
    )
    splits = bench.manifest["splits"]
    assert splits["test"]["strength"] == splits["anti_test"]["strength"] == 0.6
    assert bench.manifest["arguments"]["test_strength"] == "same"
    cue = bench["test"].assign(cue=bench["test"]["shortcut"] != "").groupby("label")["cue"]
    expected = [0.2, 0.5, 0.8]  # mix: 0.6 * i/2 + 0.2; exact sampling rounds to whole rows
    for rate, rows, target in zip(cue.mean(), cue.size(), expected, strict=True):
        assert abs(rate - target) <= 1 / rows


def test_unknown_test_strength_word_is_refused(data_files):
    with pytest.raises(
        ValueError, match="'test_strength' parameter must be a float in \\[0, 1\\] or 'same'"
    ):
        build_maze_benchmark(
            data_files / "train.csv",
            data_files / "test.csv",
            shortcut="single-term",
            test_strength="half",
        )


def test_a_file_that_changes_between_the_two_reads_is_refused(data_files, tmp_path, monkeypatch):
    from shortcutlab.data import loading

    # Read twice as a file too large to hold its texts is (a small one is read once).
    monkeypatch.setattr(loading, "HOLD_BYTES", 0)
    original = loading.load_table

    def load_then_touch(*args, **kwargs):
        table = original(*args, **kwargs)
        path = data_files / "train.csv"
        path.write_text(path.read_text() + "0,one more row\n")
        return table

    monkeypatch.setattr(loading, "load_table", load_then_touch)  # options.py looks it up per call
    with pytest.raises(ValueError, match="changed while it was being read"):
        build_maze_benchmark(
            data_files / "train.csv",
            data_files / "test.csv",
            shortcut="single-term",
            inputs=InputOptions(out=tmp_path / "b"),
        )
    assert not (tmp_path / "b").exists()


def test_labels_the_texts_cannot_decide_get_no_observed_rate(corpus):
    from shortcutlab.shortcuts import SplitPlan
    from shortcutlab.shortcuts.base import UNDECIDABLE

    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="concept-correlation", strength=0.8
    )
    injector = make_shortcut(
        "concept-correlation",
        {
            "distractors": distractors_from_columns(
                *(load_table(corpus[r]) for r in ("train", "test"))
            )
        },
    )
    test = bench["test"]
    ranks = bench.labels.ranks(test["label"])
    plan = SplitPlan(ranks=ranks, labels=bench.labels, strength=1.0, role="test")
    undecided = injector.observe(test["text"].tolist(), plan) == UNDECIDABLE
    recorded = bench.manifest["splits"]["test"]["observed_rate"]
    shares = pd.Series(undecided).groupby(ranks).mean()
    assert (shares >= 0.5).any() and (shares < 0.5).any()  # the corpus has both kinds of label
    for rank, share in shares.items():
        value = recorded[str(bench.labels.values[rank])]
        assert (value is None) == (share >= 0.5)
    assert bench.manifest["splits"]["test"]["undecidable_rows"] == int(undecided.sum())


def test_a_frame_slice_is_cleaned_like_a_copy_of_it():
    # A slice of a frame becomes Arrow arrays whose texts start inside a longer buffer.
    texts = [
        f"Row {i}. Fine! Honestly, ok." if i % 7 == 0 else f"Row {i}. Part." for i in range(300)
    ]
    frame = pd.DataFrame({"label": [i % 3 for i in range(300)], "text": texts})
    args = dict(shortcut="single-term", strength=0.7, val_size=20, seed=3)
    sliced = build_maze_benchmark(frame.iloc[:200], frame.iloc[200:], **args)
    copied = build_maze_benchmark(
        frame.iloc[:200].reset_index(drop=True), frame.iloc[200:].reset_index(drop=True), **args
    )
    for split in ("train", "test", "anti_test"):
        written = sliced[split]["text"]
        assert written.tolist() == copied[split]["text"].tolist()
        assert (written.str.count("Honestly") <= 1).all()
