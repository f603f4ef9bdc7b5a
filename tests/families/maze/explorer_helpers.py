"""What the row explorer's tests share: a small Maze grid run, and a report page holding one
RowExplorer block, rendered by the report's renderer, so the block is tested as users get it."""

from __future__ import annotations

from pathlib import Path

from shortcutlab.families import parse_spec, run_experiment
from shortcutlab.reports.html.document import Report, RowExplorer, Section
from shortcutlab.reports.html.render import render_report

SPEC = {
    "name": "explorer",
    "data": {"builtin": "reviews", "train_size": 300, "test_size": 200},
    "shortcuts": ["single-term", "concept-correlation"],
    "strengths": [1.0],
    "models": [{"name": "tfidf-logreg"}],
    "seeds": [0],
    "bootstrap": 200,
}


def render_explorer_page(block: RowExplorer) -> str:
    """The report page (the real renderer: templates, CSP, every static js/css) holding ``block``."""
    section = Section(id="rows", title="Rows behind the numbers", blocks=[block])
    return render_report(Report(title="explorer", subtitle="", sections=[section]))


def write_explorer_page(block: RowExplorer, path: Path) -> Path:
    path.write_text(render_explorer_page(block), encoding="utf-8")
    return path


def small_grid_run(out: Path) -> Path:
    """A finished two-cell Maze grid run (single-term and concept-correlation at λ=1) in ``out``."""
    run_experiment(parse_spec(SPEC), out)
    return out
