"""A Benchmark is a read-only mapping of its splits: names, sizes, membership and items like a
dict's; equal to another with the same manifest, labels and tables; a repr of one short line."""

from __future__ import annotations

import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import DataError


def _benchmark(strength: float = 0.8, *, texts: tuple[str, ...] = ("a", "b", "c")) -> Benchmark:
    train = pd.DataFrame({"row_id": [0, 1, 2], "text": list(texts), "label": [0, 1, 1]})
    test = pd.DataFrame({"row_id": [0, 1], "text": ["d", "e"], "label": [1, 0]})
    manifest = {
        "kind": "shortcut-maze",
        "labels": [0, 1],
        "arguments": {"shortcut": "single-term", "strength": strength},
        "splits": {"train": {"rows": 3, "observed_rate": {"0": 0.0}}, "test": {"rows": 2}},
    }
    return Benchmark({"train": train, "test": test}, LabelSpace((0, 1)), manifest)


def test_the_splits_read_like_a_dicts():
    bench = _benchmark()
    assert list(bench) == list(bench.keys()) == ["train", "test"]
    assert len(bench) == 2
    assert "test" in bench and "validation" not in bench and 0 not in bench
    assert bench.get("validation") is None
    assert [len(frame) for frame in bench.values()] == [3, 2]
    assert [name for name, _ in bench.items()] == ["train", "test"]
    assert bench["test"]["text"].tolist() == ["d", "e"]
    with pytest.raises(DataError, match="The benchmark has no split 'validation'; it has"):
        bench["validation"]
    with pytest.raises(TypeError):
        bench["validation"] = bench["test"]  # type: ignore[index]


def test_equal_manifests_labels_and_tables_are_equal_and_unhashable():
    assert _benchmark() == _benchmark()
    assert _benchmark() != _benchmark(strength=0.6)  # another manifest
    assert _benchmark() != _benchmark(texts=("a", "b", "x"))  # another table
    assert _benchmark() != {"train": None, "test": None}
    with pytest.raises(TypeError, match="unhashable"):
        hash(_benchmark())


def test_the_repr_is_one_line_of_settings_and_sizes(tmp_path):
    bench = _benchmark()
    assert repr(bench) == (
        "Benchmark(kind='shortcut-maze', shortcut='single-term', strength=0.8, "
        "splits=(train=3, test=2))"
    )
    bench.save(tmp_path / "bench")
    loaded = Benchmark.load(tmp_path / "bench")
    shown = repr(loaded)
    assert shown.endswith(f"splits=(train=3, test=2), path='{tmp_path / 'bench'}')")
    assert "observed_rate" not in shown and "\n" not in shown
    assert loaded == Benchmark.load(tmp_path / "bench")
