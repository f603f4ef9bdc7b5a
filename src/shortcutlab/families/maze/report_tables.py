"""The tables of a Maze run's report (and of its notebook view): Table 1, Table 9 per metric,
Table 3 and each mitigation against erm, the LLM answer tables; the same functions as
``shortcutlab results``, so the same numbers."""

from __future__ import annotations

from typing import Any

import pandas as pd

from shortcutlab.families.maze.export import llm_tables, mitigation_sections
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.reports.html.document import Block, Paragraphs, Table
from shortcutlab.reports.tables import table_notes


def table_blocks(results: Any) -> list[Block]:
    """Every table block of the run's report, in page order (figures and rows left out)."""
    table1 = results.table1(marked=True)
    return [
        *maze_tables(results.groups, table1, results.table9),
        *mitigation_blocks(results),
        *llm_blocks(results),
    ]


def maze_tables(groups: pd.DataFrame, table1: pd.DataFrame, table9: Any) -> list[Block]:
    """Table 1 (strongest λ) and Table 9 per metric, each with the footnotes of these groups;
    ``table9(metric, marked=True)`` gives a metric's Table-9 frame."""
    notes = table_notes(groups)
    return [
        Table(
            name="table1",
            title="Table 1 layout: Test / Anti / Δ at the strongest λ",
            frame=table1,
            notes=notes,
        ),
        *(
            Table(
                name=f"table9-{metric}",
                title=f"Table 9 layout, {METRICS.get(metric).title}: by training strength λ",
                frame=table9(metric, marked=True),
                notes=notes,
            )
            for metric in split_metric_names()
        ),
    ]


def mitigation_blocks(results: Any) -> list[Block]:
    blocks: list[Block] = []
    for metric in split_metric_names():
        for name, (title, frame, notes) in mitigation_sections(results, metric).items():
            blocks.append(
                Table(name=name.replace("_", "-"), title=title, frame=frame, notes=list(notes))
            )
    if results.has_mitigations and not blocks:
        blocks.append(Paragraphs(["The spec lists mitigations but no group holds one."]))
    return blocks


def llm_blocks(results: Any) -> list[Block]:
    """Label distribution, calibration and usage, for runs whose models answer in text."""
    return [
        Table(name=f"llm-{name.replace('_', '-')}", title=title, frame=frame)
        for name, (title, frame) in llm_tables(results).items()
    ]
