"""Write a run's tables and figures: Table 1, Table 9 per metric, per-group statistics, Δ-vs-λ plots;
for a run with mitigations also Table 3 layout and each mitigation against erm.

``md`` and ``latex`` give the papers' layouts with footnotes; ``csv`` and ``json`` give the tidy
table, one row per dataset × model × shortcut × λ with the statistics as columns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.writing import write_table
from shortcutlab.metrics import split_metric_names
from shortcutlab.params import check_choice
from shortcutlab.reports.findings import maze_findings
from shortcutlab.reports.mitigation_tables import group_notes, vs_erm_notes
from shortcutlab.reports.plots import plot_delta_vs_strength
from shortcutlab.reports.tables import render, table_notes, tidy_text

FORMATS = ("md", "csv", "json", "latex")
SUFFIX = {"md": ".md", "csv": ".csv", "json": ".json", "latex": ".tex"}
TIDY = ("csv", "json")
NO_BASELINE = [
    "No comparison with erm: the grid has no plain erm entry (without parameters). Add erm to "
    "mitigations to compare each method with the plain fit on the same rows."
]


def llm_tables(results: Any) -> dict[str, Any]:
    """Label distribution, calibration and usage tables, for runs whose models answer in text."""
    answers_in_text = not results.usage().empty or any(
        c.endswith("_invalid") and results.cells[c].any() for c in results.cells
    )
    if not answers_in_text:
        return {}
    found = {
        "label_distribution": (
            "Predicted label distribution (share of rows; invalid = unparseable answers)",
            results.label_distribution(),
        ),
        "calibration": (
            "Verbalized confidence vs accuracy (ECE: expected calibration error)",
            results.calibration(),
        ),
        "usage": ("LLM usage per model", results.usage()),
    }
    return {name: entry for name, entry in found.items() if not entry[1].empty}


def mitigation_sections(results: Any, metric: str) -> dict[str, tuple[str, Any, list[str]]]:
    """Name -> (title, table, footnotes) of a run with mitigations: Table 3 layout and the
    comparison with erm (empty for a run without mitigations)."""
    if not getattr(results, "has_mitigations", False):
        return {}
    shown = metric.replace("_", "-")
    compared = not results.comparisons.empty
    found = {
        f"table3-{metric}": (
            f"Table 3 layout, {shown}: Test / Anti / Δ per mitigation",
            results.table3(metric),
            group_notes(results.groups) + ([] if compared else NO_BASELINE),
        )
    }
    if compared:
        baseline = results.comparisons["baseline"].iloc[0]
        found[f"vs_erm-{metric}"] = (
            f"Each mitigation against {baseline} on the same rows, {shown}",
            results.vs_erm(metric),
            vs_erm_notes(results.comparisons, metric=metric),
        )
    return found


def table_sections(results: Any, metric: str) -> list[tuple[str, pd.DataFrame, list[str]]]:
    """(title, table, footnotes) of what ``shortcutlab results`` shows: Table 1 (Table 3 layout
    and the comparison with erm for a run with mitigations), the chosen metric's Table 9, and
    the LLM tables if any."""
    check_choice("metric", metric, split_metric_names())
    mitigations = [
        (title, table, footnotes)
        for title, table, footnotes in mitigation_sections(results, metric).values()
    ]
    return [
        *(mitigations or [("Table 1 (strongest λ)", results.table1(marked=True), [])]),
        (
            f"Table 9 style, {metric.replace('_', '-')}",
            results.table9(metric, marked=True),
            table_notes(results.groups),
        ),
        *((title, table, []) for title, table in llm_tables(results).values()),
    ]


def tables(results: Any, fmt: str, metric: str, *, details: bool = True) -> str:
    """What ``shortcutlab results --format md|latex|csv|json`` prints: the tidy table (csv,
    json), or :func:`table_sections` (md, latex), their footnotes only with ``details``."""
    check_choice("format", fmt, FORMATS)
    check_choice("metric", metric, split_metric_names())
    if fmt in TIDY:
        return tidy_text(results.groups, fmt)
    return sections_text(table_sections(results, metric), fmt, details=details)


def sections_text(
    sections: list[tuple[str, pd.DataFrame, list[str]]], fmt: str, *, details: bool = True
) -> str:
    """Markdown or LaTeX of (title, table, footnotes) sections, each title a heading; the
    footnotes only with ``details``."""
    prefix = "% " if fmt == "latex" else "### "
    return "\n".join(
        f"{prefix}{title}\n\n{render(table, fmt, notes=footnotes if details else ())}"
        for title, table, footnotes in sections
    )


def findings(results: Any, metric: str = "accuracy") -> list[str]:
    """The run's findings in plain words (:func:`shortcutlab.reports.findings.maze_findings`)."""
    return maze_findings(results.groups, metric=metric)


def figures(results: Any, out: Path) -> list[Path]:
    """Δ-vs-λ per dataset and metric, as PNG and SVG."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for dataset in results.groups["dataset"].unique():
        for metric in split_metric_names():
            frame = results.delta_frame(dataset, metric)
            for suffix in (".png", ".svg"):
                path = out / f"delta_vs_strength-{dataset}-{metric}{suffix}"
                written.append(
                    plot_delta_vs_strength(
                        frame,
                        path,
                        metric=metric,
                        title=f"{dataset}: {metric.replace('_', '-')} drop",
                    )
                )
    return written


def write(results: Any, out: Path, fmt: str) -> list[Path]:
    """Into ``out``: the tables in ``fmt`` (paper layouts for md/latex, the tidy ``groups`` table
    for csv/json), plus groups.csv, cells.csv and the figures."""
    check_choice("format", fmt, FORMATS)
    out.mkdir(parents=True, exist_ok=True)
    texts: dict[str, str] = {}
    if fmt in TIDY:
        texts["groups"] = tidy_text(results.groups, fmt)
        for name, (_, table) in llm_tables(results).items():
            texts[name] = tidy_text(table.reset_index(), fmt)
        if getattr(results, "has_mitigations", False):
            texts["vs_erm"] = tidy_text(results.comparisons, fmt)
    else:
        notes = table_notes(results.groups)
        texts["table1"] = render(results.table1(marked=True), fmt, notes=notes)
        for metric in split_metric_names():
            texts[f"table9-{metric}"] = render(
                results.table9(metric, marked=True), fmt, notes=notes
            )
            for name, (_, table, footnotes) in mitigation_sections(results, metric).items():
                texts[name] = render(table, fmt, notes=footnotes)
        for name, (_, table) in llm_tables(results).items():
            texts[name] = render(table, fmt)
    written = []
    for name, text in texts.items():
        path = out / f"{name}{SUFFIX[fmt]}"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    frames: dict[str, pd.DataFrame] = {"groups.csv": results.groups, "cells.csv": results.cells}
    if getattr(results, "has_mitigations", False):
        frames["vs_erm.csv"] = results.comparisons
    for name, frame in frames.items():
        if out / name not in written:
            write_table(frame, out / name, for_people=True)
            written.append(out / name)
    return written + figures(results, out / "figures")
