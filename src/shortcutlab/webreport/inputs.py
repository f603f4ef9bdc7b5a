"""What a report is made from: the folders it found, each of one kind, and how a kind's sections
are collected.

``shortcutlab report PATH`` reads PATH and every recognised output folder below it (one level of
subfolders, e.g. ``RUN/explain-tfidf/``, ``RUN/annotations/label/``) plus ``--include`` folders.
Each kind has a collector module (see :data:`COLLECTORS` in :mod:`shortcutlab.webreport.build`)
with two functions:

    recognises(path: Path) -> bool
    sections(found: ReportInput) -> list[Section]

Collectors never raise for a folder they recognised but cannot fully read: they return a
Paragraphs block saying what is missing. Section ids and block names need only be unique within
what one collector returns; the builder prefixes them when a page holds several inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class ReportInput:
    kind: str  # the collector's name: maze-run, mps-run, cat-run, demo, suite, explain, ...
    path: Path
    results: Any = None  # for grid runs: what experiments.results.load_results gave
