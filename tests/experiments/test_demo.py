import json

import pytest

from shortcutlab.errors import OutputExistsError
from shortcutlab.experiments.demo import run_demo
from tests.conftest import folder_bytes


@pytest.mark.parametrize("jobs", [1, 2])
def test_demo_writes_everything_and_is_deterministic(tmp_path, jobs):
    seen = []
    result = run_demo(
        tmp_path / "demo",
        train_size=500,
        test_size=300,
        seeds=1,
        strengths=(1.0, 0.6),
        jobs=jobs,
        on_progress=lambda m, d, t: seen.append((d, t)),
    )
    names = {p.name for p in (tmp_path / "demo").iterdir()}
    assert {
        "corpus",
        "benchmarks",
        "results.json",
        "summary.csv",
        "summary_accuracy.md",
        "delta_vs_strength_accuracy.png",
        "demo.json",
    } <= names
    assert len(result.results) == 16 and seen[-1] == (16, 16)
    table = result.tables["accuracy"]
    assert list(table.columns) == [1.0, 0.6] and len(table) == 40
    assert (
        json.loads((tmp_path / "demo" / "results.json").read_text())[0]["benchmark"]["shortcut"]
        == "single-term"
    )
    if jobs == 2:
        first = folder_bytes(tmp_path / "demo")
        run_demo(
            tmp_path / "demo", train_size=500, test_size=300, seeds=1, strengths=(1.0, 0.6), jobs=1
        )  # replaces the earlier demo
        assert folder_bytes(tmp_path / "demo") == first


def test_demo_refuses_a_foreign_folder(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(OutputExistsError, match="--overwrite"):
        run_demo(tmp_path / "mine", train_size=200, test_size=100, seeds=1, jobs=1)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"
