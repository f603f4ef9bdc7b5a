"""What the family collectors (MPS, CAT, Suite, explain, rewrite quality) share: reading an
output folder's files without raising, the grid family of a run folder, tables from header + rows,
and a figure turned into inline SVG."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.experiments.results import load_results
from shortcutlab.experiments.run_folder import SPEC_COPY
from shortcutlab.experiments.store import DATABASE
from shortcutlab.reports.html.document import Figure, Paragraphs
from shortcutlab.reports.html.svg import svg_markup

RESULTS = "results.json"


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or None when it is missing, unreadable or not an object."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None


def results_with(path: Path, keys: Sequence[str]) -> dict[str, Any] | None:
    """``path/results.json`` when it holds every one of ``keys`` (what tells the outputs of
    ``cat``, ``suite evaluate`` and ``explain`` apart), else None."""
    found = read_json_object(Path(path) / RESULTS)
    return found if found is not None and all(key in found for key in keys) else None


def run_family(path: Path) -> str | None:
    """The ``family`` of a grid run folder (``maze`` when the spec names none), or None when
    ``path`` is not a run folder."""
    path = Path(path)
    if not (path / DATABASE).is_file():
        return None
    spec = read_json_object(path / SPEC_COPY)
    return None if spec is None else str(spec.get("family") or "maze")


def grid_results(found: Any) -> Any:
    """The loaded results of a grid run input: what the builder passed, else loaded here."""
    return found.results if found.results is not None else load_results(found.path)


def header_frame(header: Sequence[str], rows: Sequence[Sequence[Any]], index: int) -> pd.DataFrame:
    """A table from a header and rows of text; the first ``index`` columns name the rows."""
    frame = pd.DataFrame([list(row) for row in rows], columns=list(header))
    return frame.set_index(list(header[:index])) if index else frame


def svg_figure(figure: Any, *, name: str, title: str, caption: str = "") -> Figure:
    """A matplotlib figure as a report :class:`Figure` (closes it)."""
    return Figure(name=name, title=title, svg=svg_markup(figure, name), caption=caption)


def missing(text: str) -> Paragraphs:
    """The notice a collector gives for something its folder lacks."""
    return Paragraphs([text])
