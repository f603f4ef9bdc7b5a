"""A Benchmark in a notebook (``_repr_html_``): its settings, rows per split and label, and the
cue rates its build observed, read back from the HTML; data text escaped, nothing loaded."""

from __future__ import annotations

import pandas as pd

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.families.maze.build import build_maze_benchmark
from tests.reports.view_html import View

SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'


def _hostile_benchmark() -> Benchmark:
    """Labels, a shortcut name and texts that are markup."""
    labels = LabelSpace((SCRIPT, "plain"))
    train = pd.DataFrame({"text": [IMAGE] * 5, "label": [SCRIPT, SCRIPT, SCRIPT, "plain", "plain"]})
    test = pd.DataFrame({"text": [SCRIPT] * 3, "label": [SCRIPT, "plain", "plain"]})
    manifest = {"kind": IMAGE, "arguments": {"shortcut": SCRIPT, "strength": 0.75, "seed": 3}}
    return Benchmark(splits={"train": train, "test": test}, labels=labels, manifest=manifest)


def test_the_view_shows_the_settings_and_rows_per_split_and_label():
    bench = _hostile_benchmark()
    view = View(bench._repr_html_())
    assert view.headings == [f"Benchmark: {IMAGE}"]
    settings = view.tables["benchmark-settings"].column("value")
    assert settings == {
        "shortcut": SCRIPT,
        "strength": "0.75",
        "seed": "3",
        "labels": f"{SCRIPT}, plain",
    }
    splits = view.tables["benchmark-splits"]
    assert splits.rows[0] == ["split", "rows", f"label {SCRIPT}", "label plain"]
    assert splits.rows[1:] == [["train", "5", "3", "2"], ["test", "3", "1", "2"]]
    assert "benchmark-cue-rates" not in view.tables  # the manifest records none


def test_markup_from_data_is_escaped_and_nothing_is_loaded():
    text = _hostile_benchmark()._repr_html_()
    assert "<script>alert" not in text and "<img" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    view = View(text)
    assert view.loading == [] and "http" not in text
    assert text.count("<style>") == 1  # the view's own scoped style, the only non-table markup


def test_a_built_benchmark_shows_the_cue_rates_its_manifest_records(corpus, tmp_path):
    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="single-term", strength=0.8
    )
    loaded = Benchmark.load(bench.save(tmp_path / "bench"))
    view = View(loaded._repr_html_())
    assert view.tables["benchmark-settings"].column("value")["folder"] == str(tmp_path / "bench")
    sizes = view.tables["benchmark-splits"].column("rows")
    assert sizes == {name: str(len(loaded[name])) for name in loaded.splits}
    rates = view.tables["benchmark-cue-rates"]
    label = loaded.labels.values[-1]
    shown = rates.column(f"label {label}")
    recorded = {
        name: record["observed_rate"][str(label)]
        for name, record in loaded.manifest["splits"].items()
        if record.get("observed_rate")
    }
    assert shown == {name: f"{rate:.3f}" for name, rate in recorded.items()}
    assert set(shown) == {"train", "test", "anti_test"}
