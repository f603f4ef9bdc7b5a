"""Write an MPS run's tables and figures (``shortcutlab results`` on an MPS run folder).

``md`` and ``latex``: δ / Δ (Tables 2-3), W-ACC, ACC and traditional worst-group accuracy of both
fits, cross-testing (A.7) and label entropy (Table 11), with footnotes. ``csv`` and ``json``: the
tidy group statistics, one row per dataset × attribute × model. Figures: the label distribution
of each (dataset, attribute) build, Imbalanced next to Balanced (figures 21-25).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.writing import write_table
from shortcutlab.families.maze.export import FORMATS, SUFFIX, TIDY, sections_text
from shortcutlab.families.mps.plots import plot_label_distribution
from shortcutlab.families.mps.tables import (
    cross_notes,
    label_mix_notes,
    label_mix_shifts,
    mps_notes,
    spread_notes,
    wga_notes,
)
from shortcutlab.params import check_choice
from shortcutlab.reports.findings import mps_findings
from shortcutlab.reports.mitigation_tables import group_notes
from shortcutlab.reports.tables import render, tidy_text, with_mitigations

MITIGATION_NOTE = [
    "Mitigations: each method trains both the Imbalanced and the Balanced fit (erm is the plain "
    "fit), so its δ is what the imbalance still costs under that method (paper 002, Table 3)."
]


def sections(results: Any) -> dict[str, tuple[str, pd.DataFrame, list[str]]]:
    """Name -> (title, table, footnotes) of every paper-layout table of the run."""
    notes = (
        mps_notes(results.groups)
        + label_mix_notes(results.label_counts)
        + group_notes(results.groups)
        + (MITIGATION_NOTE if with_mitigations(results.groups) else [])
    )
    title = (
        "δ and Δ per method (Table 3), dataset × attribute"
        if with_mitigations(results.groups)
        else "δ and Δ per dataset × attribute (Tables 2-3)"
    )
    spreads = spread_notes(results.groups)
    found = {
        "gaps": (title, results.gap_table(), notes),
        "w_acc": ("W-ACC of the Imbalanced and Balanced fits", results.fit_table("w_acc"), spreads),
        "accuracy": (
            "ACC of the Imbalanced and Balanced fits",
            results.fit_table("accuracy"),
            spreads,
        ),
        "wga": (
            "Traditional worst-group accuracy over (label, value) groups",
            results.fit_table("wga"),
            wga_notes(int(results.spec.get("min_group_size", 10))) + spreads,
        ),
    }
    if results.cross["tested_on"].ne(results.cross["attribute"]).any():
        found["cross_test"] = (
            "Cross-testing: W-ACC and ACC, Balanced / Imbalanced (A.7, Table 9)",
            results.cross_test_table(),
            cross_notes(),
        )
    if not results.entropy.empty:
        found["label_entropy"] = (
            "Mean normalised label entropy per attribute value (Table 11)",
            results.entropy_table(),
            [],
        )
    return found


def tables(results: Any, fmt: str, metric: str = "accuracy", *, details: bool = True) -> str:
    """What ``shortcutlab results`` prints for an MPS run: the tidy group table (csv, json), or
    every paper-layout table, with its footnotes where ``details`` (md, latex). The tables show
    W-ACC and ACC side by side, so ``metric`` (the Maze views' choice) changes nothing."""
    check_choice("format", fmt, FORMATS)
    if fmt in TIDY:
        return tidy_text(results.groups, fmt)
    return sections_text(table_sections(results), fmt, details=details)


def table_sections(
    results: Any, metric: str = "accuracy"
) -> list[tuple[str, pd.DataFrame, list[str]]]:
    """(title, table, footnotes) of every paper-layout table (``metric`` changes nothing)."""
    return list(sections(results).values())


def findings(results: Any, metric: str = "accuracy", *, vary_hint: bool = True) -> list[str]:
    """The run's findings in plain words: δ per dataset × attribute × model, and the builds
    whose training sets also differ in label mix (``metric`` changes nothing)."""
    shifts = label_mix_shifts(results.label_counts)
    return mps_findings(results.groups, label_mix_shifts=shifts, vary_hint=vary_hint)


def figures(results: Any, out: Path) -> list[Path]:
    """The label-distribution figure of each (dataset, attribute), as PNG and SVG."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if results.label_counts.empty:
        return written
    for (dataset, attribute), part in results.label_counts.groupby(
        ["dataset", "attribute"], sort=False
    ):
        for suffix in (".png", ".svg"):
            written.append(
                plot_label_distribution(
                    part,
                    out / f"label_distribution-{dataset}-{_file_name(attribute)}{suffix}",
                    title=f"{dataset}: label shares per {attribute} value",
                )
            )
    return written


def write(results: Any, out: Path, fmt: str) -> list[Path]:
    """Into ``out``: the tables in ``fmt``, plus groups.csv, cross_test.csv, cells.csv,
    label_distribution.csv and the figures."""
    check_choice("format", fmt, FORMATS)
    out.mkdir(parents=True, exist_ok=True)
    texts: dict[str, str] = {}
    if fmt in TIDY:
        texts["groups"] = tidy_text(results.groups, fmt)
        texts["cross_test"] = tidy_text(results.cross, fmt)
    else:
        for name, (_, table, notes) in sections(results).items():
            texts[name] = render(table, fmt, notes=notes)
    written = []
    for name, text in texts.items():
        path = out / f"{name}{SUFFIX[fmt]}"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    frames = {
        "groups.csv": results.groups,
        "cross_test.csv": results.cross,
        "cells.csv": results.cells,
        "label_distribution.csv": results.label_counts,
    }
    for name, frame in frames.items():
        if out / name not in written:
            write_table(frame, out / name, for_people=True)
            written.append(out / name)
    return written + figures(results, out / "figures")


def _file_name(label: str) -> str:
    """``frequent-words[k=6]`` -> ``frequent-words_k=6_`` (no brackets, commas or spaces)."""
    return "".join(c if c.isalnum() or c in "-_=." else "_" for c in label)
