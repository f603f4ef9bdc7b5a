"""The input options every build shares: how a table is read with them, and the folder."""

from __future__ import annotations

from pathlib import Path

from shortcutlab.data.options import READING_FIELDS, InputOptions


def test_a_table_is_read_with_the_options_columns(tmp_path):
    path = tmp_path / "reviews.csv"
    path.write_text("review,stars,pair\nGood.,1,a\n,0,b\nBad.,0,c\n")
    options = InputOptions(text_col="review", label_col="stars", text_pair_col="pair")
    table = options.read(path, role="train")
    assert table.frame[["text", "text_pair", "label"]].values.tolist() == [
        ["Good.", "a", 1],
        ["Bad.", "c", 0],
    ]
    assert table.source.dropped_empty_text == 1
    assert options.read(table, role="train") is table  # a loaded table is used as it is


def test_out_is_a_path_and_a_manifest_record_gives_the_reading_options_back():
    options = InputOptions(text_col="review", encoding="latin-1", out="bench", fmt="jsonl")
    assert options.out == Path("bench")
    record = {"text_col": "review", "label_col": "label", "text_pair_col": None}
    record |= {"encoding": "latin-1", "on_empty": "drop", "seed": 3, "format": "jsonl"}
    again = InputOptions.from_record(record)
    assert again.reading() == options.reading()
    assert list(again.reading()) == list(READING_FIELDS)
