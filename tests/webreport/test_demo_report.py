"""The demo's report.html: written inside the demo's atomic folder, the same page
``shortcutlab report`` gives for the finished folder."""

from __future__ import annotations

import hashlib

import pytest

from shortcutlab.demo import run_demo
from shortcutlab.demo.pipeline import run_demo as run_demo_pipeline
from shortcutlab.errors import ConfigError
from shortcutlab.webreport.build import write_html_report

SMALL = {
    "train_size": 300,
    "test_size": 200,
    "shortcuts": ("single-term", "register"),
    "strengths": (1.0, 0.6),
    "seeds": 1,
    "jobs": 1,
    "mps": False,
}


def test_the_report_is_written_with_the_demo_and_reads_back_the_same(tmp_path):
    result = run_demo(tmp_path / "demo", **SMALL)
    page = result.out / "report.html"
    again = write_html_report(result.out, tmp_path / "again.html")
    assert page.read_bytes() == again.read_bytes()  # no temporary folder name, no clock time
    text = page.read_text(encoding="utf-8")
    train_hash = hashlib.sha256((result.out / "corpus" / "train.csv").read_bytes()).hexdigest()
    assert f"<dt>corpus/train.csv</dt>\n<dd>{train_hash}</dd>" in text
    delta = result.groups.iloc[0]["delta_accuracy_mean"]  # single-term at λ = 1
    assert f'<td class="num">{delta:.3f}' in text
    assert 'id="table9-accuracy"' in text and 'id="delta-accuracy"' in text


def test_a_failing_after_hook_leaves_nothing(tmp_path):
    def refuse(folder, result):
        assert (folder / "demo.json").is_file()  # runs on the finished, still temporary folder
        raise ConfigError("refused")

    # One cell is enough: the hook runs after the last one, whatever their number.
    one_cell = {**SMALL, "shortcuts": ("single-term",), "strengths": (1.0,)}
    with pytest.raises(ConfigError, match="refused"):
        run_demo_pipeline(tmp_path / "demo", after=refuse, **one_cell)
    assert list(tmp_path.iterdir()) == []
