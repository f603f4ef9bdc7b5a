"""The Shortcut Maze sections of a grid run: Table 1 and Table 9 per metric (stars, intervals,
footnotes), Table 3 and each mitigation against erm, LLM label distribution / calibration /
usage, Δ-vs-λ figures, and the row explorer.

The tables are the ones ``shortcutlab results`` prints (same functions, same numbers).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from shortcutlab.engine.stored_figures import figure_key, stored_figure
from shortcutlab.families.maze.explorer import grid_explorer
from shortcutlab.families.maze.report_tables import llm_blocks, maze_tables, mitigation_blocks
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.reports import plots
from shortcutlab.reports.html import svg
from shortcutlab.reports.html.collect import ReportInput, slug
from shortcutlab.reports.html.document import Figure, Section
from shortcutlab.reports.html.svg import svg_markup
from shortcutlab.reports.plots import delta_figure


def sections(found: ReportInput) -> list[Section]:
    """The sections of a Maze run (``found.results`` loaded)."""
    results = found.results
    found_sections = [
        Section(
            id="maze-tables",
            title="Shortcut Maze tables",
            intro="Accuracy and macro-F1 on the test set (shortcut as in training), the original "
            "test set and the anti-test set (shortcut reversed); Δ = test − anti-test.",
            blocks=maze_tables(results.groups, results.table1(marked=True), results.table9),
        )
    ]
    mitigations = mitigation_blocks(results)
    if mitigations:
        found_sections.append(
            Section(
                id="mitigations",
                title="Mitigations",
                blocks=mitigations,
                intro="Each mitigation's Test / Anti / Δ (Table 3 layout) and its change of Δ "
                "against the plain erm fit on the same rows.",
            )
        )
    found_sections.append(
        Section(
            id="delta-figures",
            title="Δ against shortcut strength λ",
            blocks=[
                delta_block(
                    results.delta_frame(dataset, metric),
                    metric,
                    f"delta-{slug(dataset)}-{metric}",
                    f"{dataset}: {METRICS.get(metric).title} drop",
                    run_dir=found.path,
                )
                for dataset in results.groups["dataset"].unique()
                for metric in split_metric_names()
            ],
        )
    )
    llm = llm_blocks(results)
    if llm:
        found_sections.append(
            Section(
                id="llm", title="LLM answers: label distribution, calibration, usage", blocks=llm
            )
        )
    explorer = grid_explorer(results, found.path)
    if explorer is not None:
        found_sections.append(
            Section(id="explorer", title="Rows behind the numbers", blocks=[explorer])
        )
    return found_sections


def delta_block(
    frame: pd.DataFrame, metric: str, name: str, title: str, *, run_dir: Path | None = None
) -> Figure:
    """The Δ-vs-λ figure (Shortcut Maze figure 3) inline, built by the same code as its PNG;
    with ``run_dir``, drawn once and then read from the run's store."""

    def draw() -> str:
        # The heading above the figure names it: no title inside the figure repeats it.
        return svg_markup(delta_figure(frame, metric=metric), name)

    if run_dir is not None:
        plotted = {column: frame[column].tolist() for column in frame.columns}
        parts = {"figure": "delta", "frame": plotted, "metric": metric, "name": name}
        key = figure_key(parts, drawn_by=[plots.__file__, svg.__file__])
        markup = stored_figure(run_dir, key, draw)
    else:
        markup = draw()
    return Figure(
        name=name,
        title=title,
        svg=markup,
        caption="Mean Δ over seeds; bars: the Δ 95% interval of the tables' footnotes. Each "
        "shortcut has its own marker and line style, and is nudged a little sideways of its λ so "
        "that shortcuts with the same Δ stay visible.",
    )
