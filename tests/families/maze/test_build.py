import json

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.shortcuts.occurrence import SingleTerm
from tests.conftest import folder_bytes, other_items


def test_splits_columns_and_manifest(corpus_files):
    bench = build_maze_benchmark(
        corpus_files["train"],
        corpus_files["test"],
        shortcut="single-term",
        strength=0.8,
        val_size=60,
        seed=3,
    )
    assert list(bench.splits) == ["train", "validation", "test", "anti_test", "original_test"]
    assert len(bench["validation"]) == 60 and len(bench["train"]) == 540
    manifest = bench.manifest
    assert manifest["arguments"]["strength"] == 0.8 and manifest["seed"] == 3
    assert manifest["labels"] == [1, 2, 3, 4, 5]
    assert manifest["inputs"]["train"]["rows_read"] == 600
    assert manifest["splits"]["test"]["target_rate"] == {
        "1": 0.0,
        "2": 0.25,
        "3": 0.5,
        "4": 0.75,
        "5": 1.0,
    }
    assert manifest["splits"]["anti_test"]["schedule"] == "reversed"
    assert manifest["splits"]["original_test"]["target_rate"] is None
    assert set(bench["original_test"]["shortcut"]) == {""}


def test_validation_is_stratified(corpus_files):
    bench = build_maze_benchmark(
        corpus_files["train"], corpus_files["test"], shortcut="synonym", val_size=0.2
    )
    shares = bench["validation"]["label"].value_counts(normalize=True)
    assert np.allclose(shares.sort_index(), 0.2, atol=0.01)


def test_same_call_twice_gives_byte_identical_files(corpus_files, tmp_path):
    for fmt in ("csv", "jsonl", "parquet"):
        folders = []
        for attempt in range(2):
            bench = build_maze_benchmark(
                corpus_files["train"],
                corpus_files["test"],
                shortcut="category",
                strength=0.6,
                val_size=40,
            )
            folders.append(bench.save(tmp_path / f"{fmt}{attempt}", fmt=fmt))
        assert folder_bytes(folders[0]) == folder_bytes(folders[1])
        assert len(folder_bytes(folders[0])) == 6


def test_save_and_load_round_trip(corpus_files, tmp_path):
    bench = build_maze_benchmark(
        corpus_files["train"], corpus_files["test"], shortcut="concept-correlation", strength=0.8
    )
    out = bench.save(tmp_path / "b", fmt="parquet")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["arguments"]["format"] == "parquet"
    assert len(manifest["splits"]["test"]["sha256"]) == 64
    loaded = Benchmark.load(out)
    assert loaded.labels.values == (1, 2, 3, 4, 5)
    for name, frame in bench.splits.items():
        pd.testing.assert_frame_equal(loaded[name].reset_index(drop=True), frame, check_dtype=False)


def test_anti_test_differs_from_test_only_in_the_cue(corpus):
    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="single-term", strength=1.0
    )
    for test, anti, original in zip(
        bench["test"]["text"],
        bench["anti_test"]["text"],
        bench["original_test"]["text"],
        strict=True,
    ):
        assert _without_cue(test) == original == _without_cue(anti)


def _without_cue(text: str) -> str:
    """The text without "Honestly, ", its sentence's first letter a capital again (the corpus's
    sentences all start with one; the cue lower-cases an ordinary word after it)."""
    before, cue, after = text.partition("Honestly, ")
    return before + after[:1].upper() + after[1:] if cue else text


def test_scale_mode_and_custom_schedule(corpus):
    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="single-term", strength=0.5, strength_mode="scale"
    )
    assert bench.manifest["splits"]["train"]["target_rate"]["5"] == 0.5
    custom = build_maze_benchmark(
        corpus["train"],
        corpus["test"],
        shortcut="single-term",
        strength=1.0,
        schedule=[0.1, 0.1, 0.1, 0.9, 0.9],
    )
    assert custom.manifest["splits"]["anti_test"]["target_rate"] == {
        "1": 0.9,
        "2": 0.9,
        "3": 0.1,
        "4": 0.1,
        "5": 0.1,
    }


def test_test_label_unseen_in_training_is_an_error(tiny_frame):
    train = tiny_frame[tiny_frame.label < 2]
    with pytest.raises(DataError, match=r"label\(s\) 2 that never occur in the training table"):
        build_maze_benchmark(train, tiny_frame, shortcut="single-term")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strength": 1.5}, r"'strength' parameter must be a float in \[0, 1\]\. Got 1\.5 instead"),
        ({"test_strength": -1}, r"'test_strength' parameter must be a float in \[0, 1\]"),
        ({"strength_mode": "product"}, r"'strength_mode' parameter must be one of 'mix', 'scale'"),
        ({"seed": -1}, "'seed' parameter must be a non-negative integer"),
        ({"val_size": 500}, "'val_size' parameter must be a row count in \\[0, 89\\]"),
        ({"shortcut": "synonims"}, "Unknown shortcut 'synonims'. Did you mean 'synonym'"),
        ({"shortcut": "concept-occurrence"}, "needs distractor reviews for two aspects"),
    ],
)
def test_bad_parameters(tiny_frame, tiny_test_frame, kwargs, message):
    options = {"shortcut": "single-term"} | kwargs
    with pytest.raises((ConfigError, DataError), match=message):
        build_maze_benchmark(tiny_frame, tiny_test_frame, **options)


def test_labels_order_is_respected(tiny_frame):
    frame = tiny_frame.assign(label=tiny_frame.label.map({0: "neg", 1: "neu", 2: "pos"}))
    bench = build_maze_benchmark(
        frame,
        other_items(frame),
        shortcut="single-term",
        strength=1.0,
        labels=["pos", "neu", "neg"],
    )
    assert bench.labels.values == ("pos", "neu", "neg")
    test = bench["test"]
    from_texts = test["text"].str.contains("Honestly, ").groupby(test["label"]).mean()
    assert from_texts.to_dict() == {"pos": 0.0, "neu": 0.5, "neg": 1.0}
    assert bench.manifest["splits"]["test"]["observed_rate"] == from_texts.to_dict()


def test_manifest_counts_removed_and_kept_occurrences(tiny_frame):
    frame = tiny_frame.copy()
    frame.loc[0, "text"] = "In truth, it broke."
    frame.loc[1, "text"] = "I believe in truth and justice. It works."
    frame.loc[2, "text"] = "He had to come clean to his wife! Love it."
    bench = build_maze_benchmark(
        frame, other_items(frame), shortcut="synonym", strength=1.0, seed=2
    )
    manifest = bench.manifest
    assert manifest["removed_occurrences"] == {"train": 1, "test": 1, "total": 2}
    kept = manifest["kept_occurrences"]
    assert {k: kept[k] for k in ("train", "test", "total")} == {"train": 2, "test": 2, "total": 4}
    assert "not a discourse marker" in kept["note"]
    assert manifest["splits"]["anti_test"]["kept_occurrences"] == 2
    original = bench["original_test"]["text"].tolist()
    assert original[:3] == ["It broke.", frame.loc[1, "text"], frame.loc[2, "text"]]
    for split in ("test", "anti_test"):
        texts = bench[split]["text"].tolist()
        assert "I believe in truth and justice." in texts[1] and "to come clean to his" in texts[2]
        assert manifest["splits"][split]["undecidable_rows"] == 0


def test_a_cue_the_texts_do_not_show_is_a_bug(tiny_frame, tiny_test_frame, monkeypatch):
    class Forgetful(SingleTerm):
        def render_with_spans(self, texts, draws, plan):
            new_texts, values, spans = super().render_with_spans(texts, draws, plan)
            return list(texts), values, spans  # records the cue, never writes it

    with pytest.raises(RuntimeError, match=r"train row \d+ lacks the single-term cue but its"):
        build_maze_benchmark(tiny_frame, tiny_test_frame, shortcut=Forgetful(), strength=1.0)


def test_a_configured_shortcut_of_ones_own_needs_no_registry_line(corpus):
    """A Shortcut object the registry does not know (a subclass with its own name) builds, and
    its inserted cues are recorded as spans, as the registered single-term's are."""

    class Candidly(SingleTerm):
        name = "candidly-unregistered"

    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut=Candidly(term="candidly"), strength=1.0
    )
    with_cue = bench["test"][bench["test"]["shortcut"] != ""]
    assert len(with_cue) > 0
    for text, spans in zip(with_cue["text"], with_cue["cue_spans"], strict=True):
        (start, end), *_ = json.loads(spans)
        assert text[start:end].lower().startswith("candidly")
