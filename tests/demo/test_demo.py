import io
import json
from pathlib import Path
from unittest.mock import patch

import pandas as pd
import pytest

from shortcutlab.cli import render
from shortcutlab.cli.console import out_console
from shortcutlab.demo.pipeline import run_demo
from shortcutlab.errors import OutputExistsError
from shortcutlab.families.maze.evaluate import evaluate_benchmark
from tests.conftest import folder_bytes


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_demo_writes_everything_and_is_deterministic(tmp_path, jobs):
    seen = []
    seeds = 2 if jobs == 1 else 1  # two seeds re-draw the benchmark (vary="both", the default)
    result = run_demo(
        tmp_path / "demo",
        train_size=500,
        test_size=300,
        seeds=seeds,
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
    assert len(result.results) == 16 and (16, 16) in seen
    # The MPS section: one row per attribute in the paper-layout table, the figures, the run.
    gaps = (tmp_path / "demo" / "mps" / "gaps.md").read_text()
    assert [line.split(" | ")[1] for line in gaps.splitlines()[2:5]] == [
        "negation",
        "question",
        "product-type",
    ]
    entropy = pd.read_csv(tmp_path / "demo" / "mps" / "label_distribution.csv")
    assert set(entropy["attribute"]) == {"negation", "question", "product-type"}
    for attribute in ("negation", "question", "product-type"):
        assert (
            tmp_path / "demo" / "mps" / "figures" / f"label_distribution-reviews-{attribute}.png"
        ).stat().st_size > 1000
    assert result.mps is not None and len(result.mps.groups) == 3
    table = result.tables["accuracy"]
    assert list(table.columns) == [1.0, 0.6] and len(table) == 8 * 6
    summary = pd.read_csv(tmp_path / "demo" / "summary.csv")
    assert len(summary) == 16 and (summary["distinct_builds"] == seeds).all()
    assert {"shortcut", "strength", "delta_accuracy_mean", "p_accuracy_holm"} <= set(summary)
    markdown = (tmp_path / "demo" / "summary_accuracy.md").read_text()
    assert "Holm–Bonferroni-adjusted p < 0.05 over the 16 tests" in markdown
    if seeds == 1:
        assert summary["delta_accuracy_var"].isna().all() and "| VAR(Δ) | — | — |" in markdown
    else:
        assert (summary["delta_accuracy_var"] > 0).any() and "| VAR(Δ) | — |" not in markdown
    # Each cell keeps its own build (Parquet); re-drawn builds are not cached beside it.
    build = tmp_path / "demo" / "benchmarks" / "synonym-lambda0.6"
    assert sorted(p.name for p in build.iterdir()) == [
        "anti_test.parquet",
        "manifest.json",
        "original_test.parquet",
        "results",
        "test.parquet",
        "train.parquet",
        "validation.parquet",
    ]
    assert (
        json.loads((tmp_path / "demo" / "results.json").read_text())[0]["benchmark"]["shortcut"]
        == "single-term"
    )
    if jobs == 1:
        _check_printed_findings(result)
    if jobs == 2:
        first = folder_bytes(tmp_path / "demo")
        run_demo(
            tmp_path / "demo", train_size=500, test_size=300, seeds=1, strengths=(1.0, 0.6), jobs=1
        )  # replaces the earlier demo
        # The run store records timings and timestamps; everything written from it is identical.
        store = "mps/run/results.sqlite"
        assert {k: v for k, v in folder_bytes(tmp_path / "demo").items() if k != store} == {
            k: v for k, v in first.items() if k != store
        }


def test_the_demo_builds_re_make_every_seed_and_its_results(tmp_path, monkeypatch):
    run_demo(
        tmp_path / "demo",
        train_size=400,
        test_size=200,
        shortcuts=("register",),
        strengths=(0.6,),
        seeds=2,
        jobs=1,
        mps=False,
    )
    folder = Path("benchmarks") / "register-lambda0.6"
    written = json.loads(
        (tmp_path / "demo" / folder / "results/tfidf-logreg/results.json").read_text()
    )
    monkeypatch.chdir(tmp_path / "demo")  # the manifest names its inputs as corpus/*.csv
    again = evaluate_benchmark(folder, seeds=2, vary="both", dataset="reviews")
    assert again.to_json()["runs"] == written["runs"] and len(written["runs"]) == 2
    assert again.statistics["delta_accuracy_mean"] == written["statistics"]["delta_accuracy_mean"]


def _check_printed_findings(result):
    """What 'shortcutlab demo' prints of this result: the findings last, one per shortcut and
    attribute; the footnotes of both sections only with --details."""
    printed = {}
    for details in (False, True):
        captured = io.StringIO()
        # rich reads sys.stdout at each print unless _file is set; patching it restores None.
        with patch.object(out_console, "_file", captured):
            render.demo(result, elapsed=1.0, details=details)
        printed[details] = captured.getvalue()
    for text in printed.values():
        found = text.split("\nFindings:\n")[1].splitlines()
        # One per shortcut, one per attribute, then what holds for several (label mix, one fit).
        about = [line for line in found if line.startswith("- tfidf-logreg ")]
        assert len(about) == 8 + 3 and all(line.startswith("- ") for line in found)
        assert "single-term" in about[0] and "balanced across negation" in about[8]
    for footnote in ("Holm–Bonferroni", "δ = W-ACC(Balanced)", "after Holm over the demo's 16"):
        assert footnote not in printed[False] and footnote in printed[True]


def test_demo_refuses_a_foreign_folder(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(OutputExistsError, match=r"pass overwrite=True\.$"):
        run_demo(tmp_path / "mine", train_size=200, test_size=100, seeds=1, jobs=1)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"
