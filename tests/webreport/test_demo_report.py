"""The demo's report.html: written inside the demo's atomic folder, the same page
``shortcutlab report`` gives for the finished folder."""

from __future__ import annotations

import hashlib

import pandas as pd
import pytest

from shortcutlab.demo.pipeline import run_demo as run_demo_pipeline
from shortcutlab.errors import ConfigError
from tests.cli.refusals import invoke


@pytest.mark.slow
def test_the_report_is_written_with_the_demo_and_reads_back_the_same(quick_demo, tmp_path):
    out, ran = quick_demo  # shortcutlab demo (shortcutlab.demo.run_demo) on 300/200 rows
    assert ran.exit_code == 0, ran.output
    page = out / "report.html"
    again = invoke("report", out, "--out", tmp_path / "again.html")
    assert again.exit_code == 0, again.output
    # No temporary folder name, no clock time: what `shortcutlab report` writes for the folder.
    assert page.read_bytes() == (tmp_path / "again.html").read_bytes()
    text = page.read_text(encoding="utf-8")
    train_hash = hashlib.sha256((out / "corpus" / "train.csv").read_bytes()).hexdigest()
    assert f"<dt>corpus/train.csv</dt>\n<dd>{train_hash}</dd>" in text
    first = pd.read_csv(out / "summary.csv").iloc[0]
    assert (first["shortcut"], first["strength"]) == ("single-term", 1.0)
    delta = first["delta_accuracy_mean"]
    assert f'<td class="num">{delta:.3f}' in text
    assert 'id="table9-accuracy"' in text and 'id="delta-accuracy"' in text


def test_a_failing_after_hook_leaves_nothing(tmp_path):
    def refuse(folder, result):
        assert (folder / "demo.json").is_file()  # runs on the finished, still temporary folder
        raise ConfigError("refused")

    # One cell is enough: the hook runs after the last one, whatever their number.
    one_cell = {
        "train_size": 300,
        "test_size": 200,
        "shortcuts": ("single-term",),
        "strengths": (1.0,),
        "seeds": 1,
        "jobs": 1,
        "mps": False,
    }
    with pytest.raises(ConfigError, match="refused"):
        run_demo_pipeline(tmp_path / "demo", after=refuse, **one_cell)
    assert list(tmp_path.iterdir()) == []
