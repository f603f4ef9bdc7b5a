"""``shortcutlab demo``: the Shortcut Maze pipeline and an MPS grid on the embedded corpus, and
the report of both.

The demo runs two families by name (it is a script of them, not a dispatcher): :mod:`.pipeline`
generates the corpus, builds and evaluates every Maze shortcut, and calls :mod:`.mps` for the
MPS grid; :func:`run_demo` adds the folder's ``report.html``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shortcutlab.demo.pipeline import DemoResult
from shortcutlab.demo.pipeline import run_demo as run_demo_pipeline
from shortcutlab.webreport.build import REPORT_FILE, write_html_report


def run_demo(out: str | Path = "shortcutlab-demo", **options: Any) -> DemoResult:
    """:func:`shortcutlab.demo.pipeline.run_demo` (same options), and its ``report.html``,
    written inside the same atomic folder: a demo folder always has its report."""
    return run_demo_pipeline(out, after=write_demo_report, **options)


def write_demo_report(folder: Path, result: DemoResult | None = None) -> Path:
    """The demo folder's report, written to ``folder/report.html``. ``result`` is not used: the
    page is read back from the folder as ``shortcutlab report`` reads it, so both give the same
    bytes."""
    return write_html_report(folder, folder / REPORT_FILE)


__all__ = ["DemoResult", "run_demo", "write_demo_report"]
