"""``run --dry-run`` estimates the time left from the store's finished cells of the same model
and mitigation, and names the kinds it has no past cells of."""

from __future__ import annotations

import io
import re

import pandas as pd

from tests.cli.refusals import invoke

GRID = """
name: estimate-grid
data: {builtin: reviews, train_size: 200, test_size: 100}
shortcuts: [single-term]
strengths: [1.0]
models: [{name: majority}, {name: tfidf-logreg}]
seeds: [0, 1]
bootstrap: 100
"""


def dry_run(tmp_path, spec: str) -> str:
    (tmp_path / "spec.yaml").write_text(spec)
    result = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run", "--dry-run")
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_the_estimate_follows_the_finished_cells_of_each_kind(tmp_path):
    fresh = dry_run(tmp_path, GRID)
    assert (
        "4 of 4 cells to run over 1 benchmarks; no estimate: no past cells of this kind " in fresh
    )
    assert "(majority / erm, tfidf-logreg / erm)." in fresh
    assert invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run").exit_code == 0
    assert "0 of 4 cells to run over 1 benchmarks; nothing left to run." in dry_run(tmp_path, GRID)
    more = dry_run(tmp_path, GRID.replace("seeds: [0, 1]", "seeds: [0, 1, 2]"))
    assert re.search(
        r"2 of 6 cells to run over 1 benchmarks; about \d+\.\d CPU-minutes left \(median time "
        r"of finished cells of the same model and mitigation\)\.",
        more,
    ), more
    wider = GRID.replace("seeds: [0, 1]", "seeds: [0, 1, 2]").replace(
        "{name: tfidf-logreg}]", "{name: tfidf-logreg}, {name: tfidf-svm}]"
    )
    partly = dry_run(tmp_path, wider)
    assert re.search(
        r"about \d+\.\d CPU-minutes for \d+ of \d+ fits \(median time of finished cells of the "
        r"same model and mitigation\); no estimate for the others: no past cells of this kind "
        r"\(tfidf-svm / erm\)\.",
        partly,
    ), partly


def test_the_planned_cells_in_csv_and_md(tmp_path):
    (tmp_path / "spec.yaml").write_text(GRID)
    args = ("run", tmp_path / "spec.yaml", "--out", tmp_path / "run", "--dry-run")
    tidy = invoke(*args, "--format", "csv")
    assert tidy.exit_code == 0, tidy.output
    cells = pd.read_csv(io.StringIO(tidy.stdout))
    assert list(cells.columns) == ["dataset", "shortcut", "λ", "model", "seed", "status"]
    assert sorted(zip(cells["model"], cells["seed"], strict=True)) == [
        ("majority", 0),
        ("majority", 1),
        ("tfidf-logreg", 0),
        ("tfidf-logreg", 1),
    ]
    assert set(cells["λ"]) == {1.0} and set(cells["status"]) == {"pending"}
    assert "4 of 4 cells to run" in tidy.stderr and "cells to run" not in tidy.stdout
    md = invoke(*args, "--format", "md").stdout
    assert "| dataset | shortcut | λ | model | seed | status |" in md
    assert "| reviews | single-term | 1 | majority | 0 | pending |" in md
