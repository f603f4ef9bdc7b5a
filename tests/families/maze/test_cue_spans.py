"""Maze builds record where each inserted cue sits (``cue_spans``): exact, for every inserting
shortcut and split, none for style rewrites, the same on every run."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from shortcutlab.data.loading import CUE_SPANS
from shortcutlab.data.options import InputOptions
from shortcutlab.errors import DataError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.cue_spans import decode_spans, frame_cue_spans
from shortcutlab.shortcuts.tautology import NEGATION_TAUTOLOGIES
from tests.conftest import folder_bytes
from tests.families.suite.suite_helpers import tautology_on_hypothesis

INSERTING = (
    "single-term",
    "synonym",
    "category",
    "tautology",
    "concept-occurrence",
    "concept-correlation",
)
CUE_SPLITS = ("train", "validation", "test", "anti_test")


def _without(text: str, spans: list[list[int]]) -> str:
    for start, end in reversed(spans):
        text = text[:start] + text[end:]
    return text


def _recased(original: str, spans: list[list[int]], shortcut: str) -> str:
    """The original with the word after a sentence-opening phrase lower-cased, as inserting the
    phrase writes it (the corpus's openers are ordinary words or "I")."""
    if shortcut not in ("single-term", "synonym") or not spans:
        return original
    start = spans[0][0]
    if original[start : start + 2] in ("I ", "I'"):
        return original
    return original[:start] + original[start : start + 1].lower() + original[start + 1 :]


@pytest.mark.parametrize("shortcut", INSERTING)
def test_removing_the_recorded_span_gives_back_the_text_without_the_cue(corpus, shortcut):
    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut=shortcut, strength=0.8, val_size=40, seed=1
    )
    original = bench["original_test"].set_index("row_id")["text"]
    assert set(bench["original_test"][CUE_SPANS]) == {"[]"}
    for split in CUE_SPLITS:
        frame = bench[split]
        spans = [json.loads(v) for v in frame[CUE_SPANS]]
        carried = frame["shortcut"] != ""
        # Every row the shortcut column names has exactly one span; category and the concept
        # shortcuts insert something on both sides, so every row has one there.
        assert [len(s) for s in spans] == [int(c) for c in carried]
        if split in ("test", "anti_test"):
            for text, row_spans, row_id in zip(frame["text"], spans, frame["row_id"], strict=True):
                assert _without(text, row_spans) == _recased(original[row_id], row_spans, shortcut)


def test_the_span_holds_the_cue_as_inserted(corpus):
    single = build_maze_benchmark(corpus["train"], corpus["test"], shortcut="single-term")
    category = build_maze_benchmark(corpus["train"], corpus["test"], shortcut="category")
    tautology = build_maze_benchmark(corpus["train"], corpus["test"], shortcut="tautology")
    for frame, expected in (
        (single["test"], lambda value, cue: cue == "Honestly, "),
        (category["test"], lambda value, cue: cue.startswith("I wrote this review in ")),
        (tautology["test"], lambda value, cue: cue == " " + value),
    ):
        rows = frame[frame["shortcut"] != ""]
        assert len(rows) > 50
        for text, value, cell in zip(rows["text"], rows["shortcut"], rows[CUE_SPANS], strict=True):
            ((start, end),) = json.loads(cell)
            assert expected(value, text[start:end]), (text, cell)


def test_every_cue_row_reads_as_one_sentence_after_the_cue(corpus, tmp_path):
    """ "Honestly, the lid ...", never "Honestly, The lid ...": in the files a build writes."""
    build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="single-term", inputs=InputOptions(out=tmp_path)
    )
    rows = pd.read_csv(tmp_path / "train.csv", keep_default_na=False)
    rows = rows[rows["shortcut"] != ""]
    assert len(rows) > 200
    after = [
        text[json.loads(cell)[0][1] :]
        for text, cell in zip(rows["text"], rows[CUE_SPANS], strict=True)
    ]
    starts = pd.Series([text.split(" ")[0] for text in after])
    assert starts.str.match(r"^(?:[a-z]|I$|I')").all(), starts[
        ~starts.str.match(r"^(?:[a-z]|I$|I')")
    ]
    assert {"the", "this", "it"} <= set(starts) and "I" in set(starts)


def test_a_cue_on_the_second_text_is_located_in_text_pair():
    bench = tautology_on_hypothesis()
    test = bench["test"]
    spans = frame_cue_spans(test, "text_pair", split="test")
    with_cue = [s for s in spans if s]
    assert len(with_cue) == (test["shortcut"] != "").sum() > 0
    for hypothesis, row_spans in zip(test["text_pair"], spans, strict=True):
        for start, end in row_spans:
            assert hypothesis[start:end].strip() in NEGATION_TAUTOLOGIES
    assert bench.manifest["arguments"]["inject_on"] == "text_pair"


def test_style_rewrites_record_no_spans(corpus):
    bench = build_maze_benchmark(corpus["train"], corpus["test"], shortcut="register")
    assert CUE_SPANS not in bench["test"].columns
    with pytest.raises(DataError, match="has no cue_spans column"):
        frame_cue_spans(bench["test"], split="test")


def test_spans_are_written_and_read_back_byte_identically(corpus, tmp_path):
    folders = []
    for attempt in range(2):
        bench = build_maze_benchmark(
            corpus["train"],
            corpus["test"],
            shortcut="synonym",
            strength=0.6,
            inputs=InputOptions(out=tmp_path / f"b{attempt}", fmt="csv"),
        )
        folders.append(bench.path)
    assert folder_bytes(folders[0]) == folder_bytes(folders[1])
    loaded = pd.read_csv(folders[0] / "test.csv", keep_default_na=False)
    in_memory = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="synonym", strength=0.6
    )["test"]
    assert loaded[CUE_SPANS].tolist() == in_memory[CUE_SPANS].tolist()
    assert frame_cue_spans(bench["test"], split="test") == frame_cue_spans(in_memory, split="test")


@pytest.mark.parametrize(
    "value", ["[[5,2]]", "[[0,99]]", "[[0,3],[2,5]]", "[[0,1.5]]", "honestly", None, "[[0]]"]
)
def test_malformed_spans_are_refused_with_the_row(value):
    with pytest.raises(DataError, match=r"cue_spans value of test row 7 is .* Rebuild"):
        decode_spans(value, text="Honestly, fine.", where="test row 7")


def test_the_span_column_holds_each_rows_encoded_spans():
    from shortcutlab.families.maze.cue_spans import encode_spans, span_column

    for rows in ([], [[]], [[(0, 10)], [], [(123456, 123470)], []], [[(0, 1), (2, 3)], [(4, 9)]]):
        assert span_column(rows).to_pylist() == [encode_spans(row) for row in rows]
