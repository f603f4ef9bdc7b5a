"""The report's row explorer: per cell, the test/anti-test pairs whose predicted label changed.

:func:`grid_explorer` reads a Maze run folder (the store's predictions and row ids, the texts and
cue spans of ``benchmarks/ID``); :func:`demo_explorer` reads the demo folder (each
``benchmarks/NAME`` with the ``predictions.csv`` its evaluation wrote). Cells are listed by Δ
accuracy, largest first, and a page budget keeps a 1,000-cell run's page small: at most
:data:`PAIRS_PER_CELL` pairs per cell and :data:`PAIRS_PER_PAGE` on the page, the rest counted.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.data.loading import LABEL, ROW_ID
from shortcutlab.engine.cell import predicted_labels, predicted_probability
from shortcutlab.engine.run_folder import BENCHMARKS
from shortcutlab.engine.store import ResultStore
from shortcutlab.errors import DataError, ShortcutlabError, listed
from shortcutlab.families.maze.explorer_rows import (
    BenchmarkTexts,
    SplitPredictions,
    changed_pairs,
    explorer_rows,
)
from shortcutlab.families.maze.results import RunResults
from shortcutlab.metrics import INVALID
from shortcutlab.reports.html.document import ExplorerCell, RowExplorer
from shortcutlab.reports.tables import format_cell

# A pair costs about 0.75 kB of page (two texts and their fields), so the rows add at most ~4 MB
# to the page however many cells the run has (measured: bench/synthetic_store.py's 1,000-cell run
# gives a 3.7 MB explorer that loads in ~0.4 s in headless Chromium); the page draws one cell at a
# time. Fifty pairs are enough to see what a cell's cue does.
PAIRS_PER_CELL = 50
PAIRS_PER_PAGE = 5_000
NAME = "rows"
TITLE = "Rows whose prediction changed"
PREDICTIONS = "predictions.csv"

Reader = Callable[[Benchmark], tuple[SplitPredictions, SplitPredictions]]
RowReader = Callable[[str, str], tuple[np.ndarray, np.ndarray]]  # ResultStore.rows


@dataclass
class CellSource:
    """What an explorer cell is made from; ``read`` gives its test and anti-test predictions
    (raising a ShortcutlabError when the folder cannot give them)."""

    key: str
    title: str
    facts: list[tuple[str, str]]
    delta: float
    benchmark_dir: Path
    read: Reader


def grid_explorer(
    results: RunResults,
    run_dir: str | Path,
    *,
    per_cell: int = PAIRS_PER_CELL,
    per_page: int = PAIRS_PER_PAGE,
) -> RowExplorer | None:
    """The explorer of a Maze run's finished cells (``results`` from ``load_results(run_dir)``);
    None when no cell's benchmark folder is in the run folder (a store copied alone)."""
    run_dir = Path(run_dir)
    page = _Page(per_cell, per_page)
    several_datasets = results.cells["dataset"].nunique() > 1
    sources, missing = [], set()
    with ResultStore.for_run(run_dir) as store:
        rows = functools.cache(store.rows)  # a build's row ids and labels, read once for its cells
        for cell in results.cells.itertuples():
            folder = run_dir / BENCHMARKS / cell.benchmark_id
            if not (folder / MANIFEST).exists():
                missing.add(cell.benchmark_id)
                continue
            sources.append(_grid_source(store, rows, cell, folder, several_datasets))
        if missing:
            named = listed(sorted(missing))
            page.problems.append(
                f"The cells of {len(missing)} builds are not shown: their folders are missing "
                f"from {BENCHMARKS}/ ({named})."
            )
        return page.explorer(sources)


def _grid_source(
    store: ResultStore, rows: RowReader, cell: Any, folder: Path, several_datasets: bool
) -> CellSource:
    def read(_: Benchmark) -> tuple[SplitPredictions, SplitPredictions]:
        return (
            _stored(store, rows, cell.cell_id, cell.benchmark_id, "test"),
            _stored(store, rows, cell.cell_id, cell.benchmark_id, "anti_test"),
        )

    title = [
        *([cell.dataset] if several_datasets else []),
        f"{cell.shortcut} λ={cell.strength:g}",
        cell.model,
        *([cell.mitigation] if cell.mitigation != "erm" else []),
        f"seed {cell.seed}",
        f"Δ {format_cell(cell.delta_accuracy)}",
    ]
    facts = [
        ("dataset", cell.dataset),
        ("model", cell.model),
        ("mitigation", cell.mitigation),
        *_maze_facts(cell.shortcut, cell.strength, cell.seed),
        *_accuracy_facts(cell.test_accuracy, cell.anti_test_accuracy, cell.delta_accuracy),
    ]
    return CellSource(cell.cell_id, " · ".join(title), facts, cell.delta_accuracy, folder, read)


def _stored(
    store: ResultStore, rows: RowReader, cell_id: str, benchmark_id: str, split: str
) -> SplitPredictions:
    row_ids, truth = rows(benchmark_id, split)
    probabilities = store.probabilities(cell_id, split)
    predicted = predicted_labels(probabilities)
    return SplitPredictions(
        row_ids, truth, predicted, predicted_probability(probabilities, predicted)
    )


def demo_explorer(
    demo_dir: str | Path,
    *,
    per_cell: int = PAIRS_PER_CELL,
    per_page: int = PAIRS_PER_PAGE,
) -> RowExplorer | None:
    """The explorer of the demo folder's cells (``benchmarks/NAME/results/MODEL/``, one cell per
    seed fitted on the saved build); None when no evaluation there wrote ``predictions.csv``."""
    page = _Page(per_cell, per_page)
    sources: list[CellSource] = []
    for manifest in sorted((Path(demo_dir) / BENCHMARKS).glob(f"*/{MANIFEST}")):
        for written in sorted(manifest.parent.glob(f"results/*/{PREDICTIONS}")):
            try:
                sources.extend(_evaluation_sources(manifest.parent, written.parent))
            except (ShortcutlabError, OSError, ValueError, KeyError, TypeError) as exc:
                page.problems.append(f"{written.parent}: not shown ({exc!r})")
    return page.explorer(sources)


def evaluation_explorer(
    results_dir: str | Path,
    benchmark_dir: str | Path,
    *,
    per_cell: int = PAIRS_PER_CELL,
    per_page: int = PAIRS_PER_PAGE,
) -> RowExplorer | None:
    """The explorer of one ``shortcutlab evaluate`` results folder (``predictions.csv``, one cell
    per seed fitted on the saved build) over the texts of the built benchmark it evaluated."""
    page = _Page(per_cell, per_page)
    try:
        sources = _evaluation_sources(Path(benchmark_dir), Path(results_dir))
    except (ShortcutlabError, OSError, ValueError, KeyError, TypeError) as exc:
        page.problems.append(f"{results_dir}: not shown ({exc!r})")
        sources = []
    return page.explorer(sources)


def _evaluation_sources(folder: Path, results_dir: Path) -> list[CellSource]:
    record = json.loads((results_dir / "results.json").read_text(encoding="utf-8"))
    frame = from_people_csv(
        pd.read_csv(
            results_dir / PREDICTIONS,
            dtype={"predicted": str},
            keep_default_na=False,  # a label called "NA" stays a label; no answer is ""
            na_values={"confidence": [""]},
        )
    )
    statistics, model = record["statistics"], record["model"]["name"]
    sources = []
    for run in record["runs"]:
        seed = int(run["seed"])
        rows = frame[frame["seed"] == seed]
        if rows.empty:  # a seed fitted on a re-drawn build: its rows are not saved
            continue
        splits, delta = run["splits"], run["delta"]["accuracy"]
        title = f"{statistics['shortcut']} λ={statistics['strength']:g} · {model} · seed {seed}"
        facts = [
            ("dataset", str(statistics["dataset"])),
            ("model", model),
            *_maze_facts(statistics["shortcut"], statistics["strength"], seed),
            *_accuracy_facts(splits["test"]["accuracy"], splits["anti_test"]["accuracy"], delta),
        ]
        sources.append(
            CellSource(
                f"{folder.name}/{results_dir.name}/seed-{seed}",
                f"{title} · Δ {format_cell(delta)}",
                facts,
                delta,
                folder,
                lambda benchmark, rows=rows: (
                    _written(rows, benchmark, "test"),
                    _written(rows, benchmark, "anti_test"),
                ),
            )
        )
    return sources


def _written(frame: pd.DataFrame, benchmark: Benchmark, split: str) -> SplitPredictions:
    part = frame[frame["split"] == split]
    rows = benchmark[split]
    row_ids = part[ROW_ID].to_numpy(np.int64)
    if not np.array_equal(row_ids, rows[ROW_ID].to_numpy(np.int64)):
        raise DataError(
            f"{PREDICTIONS} does not hold the {split} rows of '{benchmark.path}' in order; "
            "evaluate the benchmark again."
        )
    rank = {str(value): i for i, value in enumerate(benchmark.labels.to_json())}
    unknown = sorted(set(part["predicted"]) - set(rank) - {""})
    if unknown:
        raise DataError(
            f"{PREDICTIONS} predicts labels {listed(unknown)} that the benchmark lacks."
        )
    return SplitPredictions(
        row_ids,
        benchmark.labels.ranks(rows[LABEL], where=f"'{benchmark.path}' {split}"),
        np.array([rank.get(label, INVALID) for label in part["predicted"]], dtype=np.int64),
        part["confidence"].to_numpy(np.float64),
    )


def _maze_facts(shortcut: str, strength: float, seed: int) -> list[tuple[str, str]]:
    return [("shortcut", str(shortcut)), ("λ", f"{strength:g}"), ("seed", str(seed))]


def _accuracy_facts(test: float, anti: float, delta: float) -> list[tuple[str, str]]:
    return [
        ("test accuracy", format_cell(test)),
        ("anti-test accuracy", format_cell(anti)),
        ("Δ accuracy", format_cell(delta)),
    ]


class _Page:
    """Builds the explorer's cells within the page budget and collects what its notes say."""

    def __init__(self, per_cell: int, per_page: int) -> None:
        self.per_cell, self.per_page, self.left = per_cell, per_page, per_page
        self.texts: dict[Path, BenchmarkTexts] = {}
        self.omitted_pairs = self.omitted_cells = 0
        self.problems: list[str] = []

    def explorer(self, sources: list[CellSource]) -> RowExplorer | None:
        # Largest Δ first; a cell without one (NaN) last; ties keep the run's order.
        ordered = sorted(sources, key=lambda s: -s.delta if np.isfinite(s.delta) else np.inf)
        cells = [cell for cell in map(self._cell, ordered) if cell is not None]
        return RowExplorer(NAME, TITLE, cells, self._notes()) if cells else None

    def _cell(self, source: CellSource) -> ExplorerCell | None:
        try:
            texts = self._texts(source.benchmark_dir)
            test, anti = source.read(texts.benchmark)
            pairs = changed_pairs(test, anti)
            shown = min(len(pairs.change_kinds), self.per_cell, self.left)
            rows = explorer_rows(pairs, test, anti, texts, shown)
        except ShortcutlabError as exc:
            self.problems.append(f"{source.title}: not shown ({exc})")
            return None
        self.left -= shown
        omitted = len(pairs.change_kinds) - shown
        self.omitted_pairs += omitted
        self.omitted_cells += omitted > 0
        facts = [*source.facts, ("changed pairs", f"{len(pairs.change_kinds)} of {pairs.paired}")]
        return ExplorerCell(source.key, source.title, facts, rows, omitted)

    def _texts(self, folder: Path) -> BenchmarkTexts:
        if folder not in self.texts:
            self.texts[folder] = BenchmarkTexts(Benchmark.load(folder))  # splits read on first use
        return self.texts[folder]

    def _notes(self) -> list[str]:
        left_out = (
            f"{self.omitted_pairs:,} changed pairs in {self.omitted_cells} cells are left out "
            "(each cell says how many)."
            if self.omitted_pairs
            else "nothing is left out."
        )
        notes = [
            "Per cell, the test rows whose predicted label differs from their anti-test "
            "counterpart's (paired by row id): broke = right on test, wrong on anti-test; fixed = "
            "the reverse; changed = wrong on both (so Δ accuracy = (broke − fixed) / pairs where "
            "the splits pair fully). The cue is marked where the build recorded it. Cells are "
            "listed by Δ accuracy, largest first.",
            f"To keep the page small, it holds at most {self.per_cell} pairs per cell and "
            f"{self.per_page:,} in all; {left_out}",
        ]
        unmarked: dict[str, set[str]] = {}
        for folder, texts in self.texts.items():
            for read in texts.splits.values():
                if read.unmarked:
                    unmarked.setdefault(read.unmarked, set()).add(folder.name)
        for reason, names in sorted(unmarked.items()):
            notes.append(f"No cue is marked in {', '.join(sorted(names))}: {reason}")
        return notes + self.problems
