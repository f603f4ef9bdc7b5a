"""What a report is made from, and the blocks every collector shares.

``shortcutlab report PATH`` reads PATH and every recognised output folder below it (one level of
subfolders, e.g. ``RUN/explain-tfidf/``, ``RUN/annotations/label/``) plus ``--include`` folders.
Each kind of folder has a collector (see :mod:`shortcutlab.webreport.build`): a module with

    recognises(path: Path) -> bool
    sections(found: ReportInput) -> list[Section]

and optionally ``title(found) -> (title, subtitle) | None``. Collectors never raise for a folder
they recognised but cannot fully read: they return a Paragraphs block saying what is missing
(:func:`missing`). Section ids and block names need only be unique within what one collector
returns; the builder prefixes them when a page holds several inputs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.reports.html.document import Figure, Paragraphs
from shortcutlab.reports.html.svg import svg_markup


@dataclass
class ReportInput:
    kind: str  # the collector's name: run, demo, explain, suite, ...
    path: Path
    results: Any = None  # for grid runs: what shortcutlab.families.load_results gave


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


def slug(text: str) -> str:
    """``text`` as an HTML id part: lower-case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "data"
