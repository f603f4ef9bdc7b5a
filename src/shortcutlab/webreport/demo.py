"""The report of a ``shortcutlab demo`` folder: its overview, the Maze tables and Δ-vs-λ figures
of its evaluations (Holm over the demo's cells, as its summary files), the MPS sections of its
``mps/run`` grid, and the row explorer."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd

from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.data.reading import sha256_file
from shortcutlab.families.maze.explorer import demo_explorer
from shortcutlab.families.maze.report import delta_block
from shortcutlab.families.maze.report_tables import maze_tables
from shortcutlab.families.maze.tidy_rows import group_long_table
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Paragraphs, Section
from shortcutlab.reports.tables import drop_constant_levels, maze_table, table1
from shortcutlab.reports.tidy import delta_rows
from shortcutlab.webreport.build import run_sections

MARKER = "demo.json"  # the demo's record, written by shortcutlab.demo; it marks a demo folder
SUMMARY = "summary.csv"  # the demo's groups: per (shortcut, λ) statistics, Holm over its cells
MPS_RUN = Path("mps") / "run"


def recognises(path: Path) -> bool:
    return (path / MARKER).is_file() and (path / SUMMARY).is_file()


def title(found: ReportInput) -> tuple[str, str]:
    arguments = _record(found.path)["arguments"]
    return (
        "shortcutlab demo",
        f"{arguments.get('model', 'tfidf-logreg')} on the embedded review corpus: "
        f"{len(arguments.get('shortcuts', []))} shortcut types at λ = "
        f"{', '.join(f'{s:g}' for s in arguments.get('strengths', []))}"
        + ("; an MPS grid" if arguments.get("mps") else ""),
    )


def sections(found: ReportInput) -> list[Section]:
    groups = from_people_csv(pd.read_csv(found.path / SUMMARY))
    found_sections = [
        Section(id="overview", title="Overview", blocks=_overview(found.path)),
        Section(
            id="maze-tables",
            title="Shortcut Maze tables",
            intro="Accuracy and macro-F1 on the test set (shortcut as in training), the original "
            "test set and the anti-test set (shortcut reversed); Δ = test − anti-test.",
            blocks=maze_tables(
                groups,
                drop_constant_levels(table1(groups, marked=True)),
                lambda metric, marked: drop_constant_levels(
                    maze_table(groups, metric=metric, marked=marked)
                ),
            ),
        ),
        Section(
            id="delta-figures",
            title="Δ against shortcut strength λ",
            blocks=[
                delta_block(
                    delta_rows(group_long_table(groups), metric),
                    metric,
                    f"delta-{metric}",
                    f"Embedded corpus: {METRICS.get(metric).title} drop",
                )
                for metric in split_metric_names()
            ],
        ),
    ]
    mps = run_sections(found.path / MPS_RUN)
    found_sections += [_renamed(section, "mps-") for section in mps]
    explorer = demo_explorer(found.path)
    if explorer is not None:
        found_sections.append(
            Section(id="explorer", title="Rows behind the numbers", blocks=[explorer])
        )
    return found_sections


def _record(path: Path) -> dict:
    return json.loads((path / MARKER).read_text(encoding="utf-8"))


def _overview(path: Path) -> list[Facts | Paragraphs]:
    record = _record(path)
    arguments = record["arguments"]
    shown = [(key, _text(value)) for key, value in arguments.items()]
    hashes = [
        (f"corpus/{file.name}", sha256_file(file))
        for file in sorted((path / "corpus").glob("*.csv"))
    ]
    versions = ", ".join(f"{k} {v}" for k, v in sorted(record.get("environment", {}).items()))
    return [
        Facts(title="Demo arguments", items=shown),
        Facts(
            title="Versions and inputs",
            items=[
                ("shortcutlab", str(record.get("tool", {}).get("version", "?"))),
                ("packages", versions),
                *hashes,
            ],
        ),
    ]


def _text(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    return str(value)


def _renamed(section: Section, prefix: str) -> Section:
    return replace(section, id=prefix + section.id)
