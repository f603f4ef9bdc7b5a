"""The report of a ``shortcutlab demo`` folder: its overview, the Maze tables and Δ-vs-λ figures
of its evaluations (Holm over the demo's cells, as its summary files), the MPS sections of its
``mps/run`` grid, and the row explorer."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.reading import sha256_file
from shortcutlab.experiments.demo import MARKER, DemoResult
from shortcutlab.experiments.demo import run_demo as run_demo_pipeline
from shortcutlab.reports.html.document import Facts, Paragraphs, Section
from shortcutlab.reports.run_report import METRICS
from shortcutlab.reports.tables import METRIC_NAMES, drop_constant_levels, maze_table, table1
from shortcutlab.webreport.build import REPORT_FILE, sections_of, write_html_report
from shortcutlab.webreport.explorer import demo_explorer
from shortcutlab.webreport.inputs import ReportInput
from shortcutlab.webreport.maze import delta_block, maze_tables

SUMMARY = "summary.csv"  # the demo's groups: per (shortcut, λ) statistics, Holm over its cells
MPS_RUN = Path("mps") / "run"


def run_demo(out: str | Path = "shortcutlab-demo", **options: Any) -> DemoResult:
    """:func:`shortcutlab.experiments.demo.run_demo` (same options), and its ``report.html``,
    written inside the same atomic folder: a demo folder always has its report."""
    return run_demo_pipeline(out, after=write_demo_report, **options)


def write_demo_report(folder: Path, result: DemoResult | None = None) -> Path:
    """The demo folder's report, written to ``folder/report.html``. ``result`` is not used: the
    page is read back from the folder as ``shortcutlab report`` reads it, so both give the same
    bytes."""
    return write_html_report(folder, folder / REPORT_FILE)


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
    groups = pd.read_csv(found.path / SUMMARY)
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
                    pd.DataFrame(
                        {
                            "series": groups["shortcut"],
                            "strength": groups["strength"],
                            "delta": groups[f"delta_{metric}_mean"],
                            "low": groups[f"delta_{metric}_ci_low"],
                            "high": groups[f"delta_{metric}_ci_high"],
                        }
                    ),
                    metric,
                    f"delta-{metric}",
                    f"Embedded corpus: {METRIC_NAMES[metric]} drop",
                )
                for metric in METRICS
            ],
        ),
    ]
    mps = sections_of("mps-run", found.path / MPS_RUN)
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
