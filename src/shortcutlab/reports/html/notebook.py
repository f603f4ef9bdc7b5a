"""Notebook views (``_repr_html_``) made of the report's own blocks, rendered by the report's
renderer: a run's results and an audit show the tables their report section shows.

Only blocks that read well without the page's script are shown (facts, tables, paragraphs);
figures and row explorers stay in the report (``shortcutlab report``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from shortcutlab.html_table import notebook_view
from shortcutlab.reports.html.document import Block, Facts, Paragraphs, Table
from shortcutlab.reports.html.render import render_block

SHOWN_BLOCKS = (Facts, Table, Paragraphs)


def blocks_view(title: str, blocks: Sequence[Block]) -> str:
    """The notebook HTML of ``blocks`` (those of :data:`SHOWN_BLOCKS`) under ``title``."""
    return notebook_view(title, [render_block(b) for b in blocks if isinstance(b, SHOWN_BLOCKS)])


class RunResultsView:
    """The notebook face of a run's results (a dataclass with ``run_dir``, ``spec``, ``cells``,
    ``groups`` and a ``family`` name): :meth:`to_pandas` and ``_repr_html_``. A family's
    results class gives :meth:`report_tables`, the table blocks of the run's report."""

    def report_tables(self) -> list[Block]:
        """The table blocks of the run's report section (figures and rows left out)."""
        raise NotImplementedError

    def to_pandas(self) -> pd.DataFrame:
        """The tidy table ``shortcutlab results --format csv`` prints (a copy): one row per group
        of the run (dataset × model × shortcut × λ, or dataset × attribute × model), its
        statistics as columns."""
        groups: pd.DataFrame = self.groups  # type: ignore[attr-defined]
        return groups.copy()

    def _repr_html_(self) -> str:
        run: Any = self
        name = run.spec.get("name") or run.run_dir.name
        facts = Facts(
            title="Run",
            items=[
                ("folder", str(run.run_dir)),
                ("family", str(run.family)),
                ("cells", str(len(run.cells))),
                ("groups", str(len(run.groups))),
            ],
        )
        return blocks_view(f"Run {name}", [facts, *self.report_tables()])
