"""A robustness run's results: one row per dataset × model × seed × perturbation class (each an
evaluation of one fit; McNemar's p Holm-adjusted over the classes of that fit), the flipped rows
its cells kept, and what ``results``, ``results --out`` and ``report`` show of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.families.robustness.explorer import flipped_explorer
from shortcutlab.families.robustness.runner import FLIPPED_KEPT
from shortcutlab.families.robustness.statistics import ADJUSTED, with_holm
from shortcutlab.families.robustness.tables import (
    CLASS_NOTE,
    FIT,
    class_frame,
    long_table_of,
    write_tables,
)
from shortcutlab.reports.html.document import Block, Section, Table
from shortcutlab.reports.tables import render, tidy_text

NOTE = (
    f"One table per fit (dataset, model, seed); Holm adjusts over that fit's classes. {CLASS_NOTE}"
)


@dataclass(repr=False)
class RobustnessResults:
    classes: pd.DataFrame  # FIT + perturbation, kind and the class's figures
    flipped: pd.DataFrame
    run_dir: Path | None = None
    spec: dict[str, Any] | None = None  # the stored spec (what ``--save-suite`` reads)
    family = "robustness"

    def to_pandas(self) -> pd.DataFrame:
        """The long, tidy table: one row per fit × class × metric (glossary, "The tidy table")."""
        parts = [
            long_table_of(group.drop(columns=FIT), dataset=d, model=m, seed=s).assign(seeds=1)
            for (d, m, s), group in self.classes.groupby(FIT, sort=False)
        ]
        return pd.concat(parts, ignore_index=True)

    def __repr__(self) -> str:
        return (
            f"RobustnessResults(fits={self.classes.groupby(FIT).ngroups}, "
            f"classes={self.classes['perturbation'].nunique()})"
        )


def load_robustness_results(
    run_dir: Path, store: Any, spec: Any, *, bootstrap: int | None = None
) -> RobustnessResults:
    cells = _spec_order(store.spec_cells(), spec)
    rows, flipped = [], []
    for cell in cells.itertuples():
        metrics = dict(cell.metrics)
        kept = metrics.pop("flipped", [])
        identity = {"dataset": cell.dataset, "model": cell.model, "seed": int(cell.seed)}
        rows.append(identity | metrics)
        flipped += [identity | row for row in kept]
    frame = pd.DataFrame(rows)
    adjusted = [
        pd.DataFrame(
            with_holm(
                group.drop(columns=list(ADJUSTED.values()), errors="ignore").to_dict("records")
            )
        )
        for _, group in frame.groupby(FIT, sort=False)
    ]
    return RobustnessResults(
        pd.concat(adjusted, ignore_index=True), pd.DataFrame(flipped), run_dir, dict(spec)
    )


def _spec_order(cells: pd.DataFrame, spec: Any) -> pd.DataFrame:
    """The cells in the spec's order (datasets, models, seeds ascending, classes), whatever order
    the workers finished them in: a run on Ray or one resumed after a kill shows the same tables."""
    rank = {
        "_dataset": cells["dataset"].map({d["name"]: i for i, d in enumerate(spec["datasets"])}),
        "_model": cells["model"].map({m["id"]: i for i, m in enumerate(spec["models"])}),
        "_seed": cells["seed"],
        "_class": cells["shortcut"].map({name: i for i, name in enumerate(spec["perturbations"])}),
    }
    order = cells.assign(**rank).sort_values(list(rank), kind="stable").index
    return cells.loc[order]


def shown_frame(results: RobustnessResults) -> pd.DataFrame:
    """The per-class table of every fit, indexed by dataset, model, seed and class."""
    parts = []
    for key, group in results.classes.groupby(FIT, sort=False):
        shown = class_frame(group)
        shown.index = pd.MultiIndex.from_tuples(
            [(*key, name) for name in shown.index], names=[*FIT, "perturbation"]
        )
        parts.append(shown)
    return pd.concat(parts)


def results_text(results: RobustnessResults, fmt: str, metric: str, *, details: bool = True) -> str:
    if fmt in ("csv", "json"):
        return tidy_text(results.to_pandas(), fmt)
    return render(shown_frame(results), fmt, notes=[NOTE] if details else [])


def results_tables(results: RobustnessResults, metric: str) -> list[tuple[str, Any, list[str]]]:
    return [("Per perturbation class", shown_frame(results), [NOTE])]


def write_results(results: RobustnessResults, out: Path, fmt: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    return write_tables(results.classes, results.flipped, out)


def report_sections(found: Any) -> list[Section]:
    """The run's per-class table and its flipped rows (the first ones each cell kept) in the
    report's row explorer, filterable by perturbation class."""
    results = found.results
    blocks: list[Block] = [
        Table(
            name="robustness-classes",
            title="Per perturbation class",
            frame=shown_frame(results),
            notes=[NOTE],
        )
    ]
    explorer = flipped_explorer(results.classes, results.flipped, FLIPPED_KEPT)
    if explorer is not None:
        blocks.append(explorer)
    return [
        Section(
            id="robustness",
            title="Perturbation robustness",
            blocks=blocks,
            intro="Each perturbation class on the test rows it changed, paired to the originals "
            "by row_id; the same table as 'shortcutlab results'.",
        )
    ]
