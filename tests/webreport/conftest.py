"""A small finished Maze grid run shared by the report tests (tfidf-logreg, 2 shortcuts x 2 λ x
2 seeds on the embedded corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shortcutlab.families import parse_spec, run_experiment

# The spec's name titles the page. It is a safe name (shortcutlab.names), so HTML never reaches
# the title from a spec; tests/reports/test_html_render.py puts HTML in a title directly.
SPEC_NAME = "report-grid"
MAZE_SPEC = {
    "name": SPEC_NAME,
    "data": {"builtin": "reviews", "train_size": 400, "test_size": 300},
    "shortcuts": ["single-term", "concept-correlation"],
    "strengths": [1.0, 0.6],
    "models": [{"name": "tfidf-logreg"}],
    "seeds": [0, 1],
    "vary": "both",
    "bootstrap": 200,
}


@pytest.fixture(scope="session")
def maze_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report-runs") / "run"
    report = run_experiment(parse_spec(MAZE_SPEC), out)
    assert report.failed == 0
    return out
