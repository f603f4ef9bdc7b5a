"""A small finished Maze grid run shared by the report tests (tfidf-logreg, 2 shortcuts x 2 λ x
2 seeds on the embedded corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shortcutlab.families import parse_spec, run_experiment

# The spec's name is data shown on the page: HTML in it must come out as text.
HOSTILE_NAME = '<script>alert(1)</script> "><img src=x onerror=alert(1)>'
MAZE_SPEC = {
    "name": HOSTILE_NAME,
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
