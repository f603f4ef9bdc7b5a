"""Reading a Hugging Face dataset repository layout: one split needs no name, and a ClassLabel
column with gaps reads its names and missing values (as pandas gives them: floats with NaN)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from shortcutlab.data.hf_folders import decode_class_labels, read_repository


def test_a_repository_with_one_split_is_read_without_naming_it(tmp_path):
    (tmp_path / "data").mkdir()
    pq.write_table(
        pa.table({"text": ["good", "bad"], "label": ["1", "0"]}),
        tmp_path / "data" / "train-00000-of-00001.parquet",
    )
    (tmp_path / "README.md").write_text("---\nlicense: unknown\n---\n")
    table, digest = read_repository(tmp_path, split=None, role="data")
    assert table.column("text").to_pylist() == ["good", "bad"] and len(digest) == 64


def test_class_label_indices_with_gaps_read_as_names_and_missing():
    table = pa.table({"label": pa.array([0.0, float("nan"), 1.0, None])})
    decoded = decode_class_labels(table, {"label": ["neg", "pos"]})
    assert decoded.column("label").to_pylist() == ["neg", None, "pos", None]
