"""Report sections of an MPS run folder (``family: mps``): the δ / Δ, W-ACC, ACC, worst-group,
cross-testing and label-entropy tables ``shortcutlab results`` prints (paper 002, Tables 2-3, 9,
11), with their footnotes, and each build's label distribution as an inline figure (figures
21-25)."""

from __future__ import annotations

from typing import Any

from shortcutlab.families.mps import export as mps_report
from shortcutlab.families.mps.plots import label_distribution_figure
from shortcutlab.reports.html.collect import ReportInput, missing, svg_figure
from shortcutlab.reports.html.document import Block, Section, Table


def sections(found: ReportInput) -> list[Section]:
    """The sections of an MPS run (``found.results`` loaded)."""
    results = found.results
    tables = table_blocks(results)
    return [
        Section(
            id="mps",
            title="MPS: δ, Δ, W-ACC and ACC",
            blocks=tables,
            intro="Imbalanced against Balanced fits on each attribute's held-out test set "
            "(paper 002); the same tables as 'shortcutlab results'.",
        ),
        Section(
            id="mps-label-distribution",
            title="MPS: label distribution per attribute value",
            blocks=_figures(results),
            intro="Label shares within each attribute value, Imbalanced next to Balanced, from "
            "the first build (lowest seed) of each dataset × attribute.",
        ),
    ]


def table_blocks(results: Any) -> list[Block]:
    """The run's tables with their footnotes (those ``shortcutlab results`` prints)."""
    return [
        Table(name=f"mps-{name}", title=title, frame=frame, notes=list(notes))
        for name, (title, frame, notes) in mps_report.sections(results).items()
    ]


def _figures(results: Any) -> list[Block]:
    counts = results.label_counts
    if counts.empty:
        return [missing("The run folder has no build manifests, so no label distribution.")]
    blocks: list[Block] = []
    for number, ((dataset, attribute), part) in enumerate(
        counts.groupby(["dataset", "attribute"], sort=False)
    ):
        title = f"{dataset}: label shares per {attribute} value"
        figure = label_distribution_figure(part)  # the heading above names it
        blocks.append(svg_figure(figure, name=f"mps-label-distribution-{number}", title=title))
    return blocks
