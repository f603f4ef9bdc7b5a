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
from shortcutlab.reports.tidy import check_shape

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

    def long_table(self, *, per_seed: bool) -> pd.DataFrame:
        """The family's long table (:mod:`shortcutlab.reports.tidy`) of its groups or seeds."""
        raise NotImplementedError

    def to_pandas(self, *, per_seed: bool = False, wide: bool = False) -> pd.DataFrame:
        """The long, tidy table: one row per group × split × metric (columns in the glossary,
        "The tidy table"); ``per_seed=True``: one row per seed × split × metric.

        ``wide=True`` gives the wide table instead, one row per group with its statistics as
        columns: the table ``shortcutlab results --format csv`` prints (a copy of ``groups``).
        """
        check_shape(per_seed=per_seed, wide=wide)
        if wide:
            groups: pd.DataFrame = self.groups  # type: ignore[attr-defined]
            return groups.copy()
        table = self.long_table(per_seed=per_seed)
        if not self.spec.get("mitigations"):  # type: ignore[attr-defined]
            table["mitigation"] = None  # none was asked for: the plain fit is no named method
        return table

    def __repr__(self) -> str:
        run: Any = self
        return (
            f"{type(self).__name__}(family={run.family!r}, folder='{run.run_dir}', "
            f"cells={len(run.cells)}, groups={len(run.groups)})"
        )

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
