"""``shortcutlab demo``: the whole Shortcut Maze pipeline, then an MPS grid, on the embedded corpus.

Generates the review corpus, builds every shortcut type at several strengths (the style shortcuts
with the offline ``rules`` rewriter), evaluates ``tfidf-logreg`` over seeds (by default each seed
re-draws the benchmark too, ``vary="both"``: the fit of ``tfidf-logreg`` does not depend on its
seed, so only a re-drawn benchmark makes VAR(Δ) a measurement), and writes splits, results,
Table-9-style summaries with Holm over the demo's cells, and Δ-vs-λ plots. The MPS section
(:mod:`shortcutlab.demo.mps`) follows in ``mps/``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.corpus import generate_corpus
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import LoadedTable, load_table
from shortcutlab.data.writing import atomic_output_dir, check_output_dir, write_json, write_table
from shortcutlab.demo.mps import SPLIT_FORMAT, run_mps_demo
from shortcutlab.engine.pool import check_jobs, worker_pool
from shortcutlab.engine.replicates import check_vary
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.distractors import distractors_from_columns
from shortcutlab.families.maze.evaluate import EvaluationResult, evaluate_benchmark, family_frame
from shortcutlab.families.maze.tidy_rows import group_long_table
from shortcutlab.families.mps import export as mps_export
from shortcutlab.families.mps.results import MpsRunResults
from shortcutlab.metrics import split_metric_names
from shortcutlab.provenance import environment, tool_record
from shortcutlab.reports.findings import maze_findings
from shortcutlab.reports.plots import plot_delta_vs_strength
from shortcutlab.reports.tables import (
    drop_constant_levels,
    maze_table,
    render,
    table_notes,
    tidy_text,
)
from shortcutlab.shortcuts import SHORTCUTS, make_shortcut
from shortcutlab.shortcuts.base import Shortcut
from shortcutlab.shortcuts.schedule import check_strength
from shortcutlab.webreport.demo import MARKER

DEMO_SHORTCUTS = (
    "single-term",
    "synonym",
    "category",
    "register",
    "author",
    "bible",
    "concept-occurrence",
    "concept-correlation",
)
DEMO_STRENGTHS = (1.0, 0.8, 0.6)
DATASET = "reviews"


@dataclass(repr=False)  # a short __repr__ below
class DemoResult:
    """The demo's evaluations, their statistics with Holm over the demo's cells, and its tables."""

    out: Path
    results: list[EvaluationResult]
    groups: pd.DataFrame
    tables: dict[str, pd.DataFrame]
    mps: MpsRunResults | None = None

    def to_pandas(self, *, wide: bool = False) -> pd.DataFrame:
        """The long, tidy table of the demo's Maze cells (columns in the glossary, "The tidy
        table"); ``wide=True``: a copy of :attr:`groups`, one row per cell. The MPS part is
        ``mps.to_pandas()``."""
        return self.groups.copy() if wide else group_long_table(self.groups)

    def __repr__(self) -> str:
        return f"DemoResult(out='{self.out}', cells={len(self.groups)}, mps={self.mps is not None})"

    def findings(self) -> list[str]:
        """The demo's findings in plain words: each Maze shortcut's drop, then each MPS δ."""
        # No --vary hint: the demo has no such option (it varies both; --seeds above 1 refits).
        found = maze_findings(self.groups, vary_hint=False)
        mps = [] if self.mps is None else mps_export.findings(self.mps, vary_hint=False)
        return found + mps


def default_jobs() -> int:
    return max(
        1,
        min(
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1,
            8,
        ),
    )


def _shortcut_cells(
    root: str,
    shortcut: str,
    strengths: Sequence[float],
    seeds: int,
    seed: int,
    vary: str,
) -> list[EvaluationResult]:
    """Build and evaluate one shortcut at every strength; paths in its records are relative to
    the demo folder. One injector serves every strength and seed: a style shortcut's rewrites of
    a row do not depend on λ, so each input table is rewritten once, not once per cell."""
    tables = {}
    for role in ("train", "test"):
        loaded = load_table(Path(root) / "corpus" / f"{role}.csv", role=role)
        tables[role] = replace(loaded, source=replace(loaded.source, path=f"corpus/{role}.csv"))
    options = {}
    if shortcut in SHORTCUTS.having("family", "concept"):
        options["distractors"] = distractors_from_columns(tables["train"], tables["test"])
    injector = make_shortcut(shortcut, options)
    return [
        _cell(Path(root), tables, (shortcut, injector), strength, seeds, seed, vary)
        for strength in strengths
    ]


def _cell(
    root: Path,
    tables: dict[str, LoadedTable],
    named: tuple[str, Shortcut],
    strength: float,
    seeds: int,
    seed: int,
    vary: str,
) -> EvaluationResult:
    """Build and evaluate one (shortcut, strength) cell into ``benchmarks/NAME``."""
    shortcut, injector = named

    def build(build_seed: int) -> Benchmark:
        return build_maze_benchmark(
            tables["train"],
            tables["test"],
            shortcut=injector,
            strength=strength,
            seed=build_seed,
            val_size=0.1,
        )

    benchmark = build(seed)
    name = cell_name(shortcut, strength)
    # Evaluated before it is saved, so the re-drawn builds of the other seeds are not cached in
    # redraws/: corpus/ and the manifest re-make them byte for byte, and they tripled the folder.
    result = evaluate_benchmark(
        benchmark, model="tfidf-logreg", seeds=seeds, vary=vary, rebuild=build, dataset=DATASET
    )
    folder = root / "benchmarks" / name
    benchmark.save(folder, fmt=SPLIT_FORMAT)
    result.benchmark["path"] = f"benchmarks/{name}"
    result.save(folder / "results" / "tfidf-logreg")
    result.predictions = {}  # not needed by the caller; keeps the inter-process payload small
    return result


def cell_name(shortcut: str, strength: float) -> str:
    """The folder of a cell's build under ``benchmarks/``."""
    return f"{shortcut}-lambda{strength:g}"


def run_demo(
    out: str | Path = "shortcutlab-demo",
    *,
    train_size: int = 4000,
    test_size: int = 2000,
    levels: int = 5,
    shortcuts: Sequence[str] = DEMO_SHORTCUTS,
    strengths: Sequence[float] = DEMO_STRENGTHS,
    seeds: int = 3,
    seed: int = 0,
    vary: str = "both",
    jobs: int | None = None,
    mps: bool = True,
    overwrite: bool = False,
    on_progress: Callable[[str, int, int], None] | None = None,
    after: Callable[[Path, DemoResult], None] | None = None,
) -> DemoResult:
    """Run the demo into ``out``; a previous demo folder there is replaced, anything else is refused.

    ``after(folder, result)`` runs last inside the atomic block, on the still-temporary folder
    (the HTML report is written this way): if it fails, nothing is written.
    """
    out = Path(out)
    strengths = [check_strength("strength", s) for s in strengths]
    check_vary(vary)
    jobs = _checked_jobs(jobs)
    previous_demo = out.is_dir() and (out / MARKER).exists()
    check_output_dir(out, overwrite=overwrite or previous_demo)
    cells = [(shortcut, strength) for shortcut in shortcuts for strength in strengths]
    progress = on_progress or (lambda message, done, total: None)
    with atomic_output_dir(out, overwrite=overwrite or previous_demo) as tmp:
        progress("generating corpus", 0, len(cells))
        corpus = generate_corpus(
            train_size=train_size, test_size=test_size, levels=levels, seed=seed
        )
        (tmp / "corpus").mkdir()
        for name, frame in corpus.items():
            write_table(frame, tmp / "corpus" / f"{name}.csv")
        arguments = [(str(tmp), s, list(strengths), seeds, seed, vary) for s in shortcuts]
        ordered = _evaluate_cells(arguments, jobs, progress)
        groups, tables = _write_summaries(tmp, ordered)
        mps_results = None
        if mps:
            mps_results = run_mps_demo(
                tmp,
                train_size=train_size,
                test_size=test_size,
                levels=levels,
                seeds=seeds,
                seed=seed,
                vary=vary,
                jobs=jobs,
                on_progress=lambda message, done, total: progress(f"MPS: {message}", done, total),
            )
        write_json(tmp / "results.json", [r.to_json() for r in ordered])
        settings = {
            "train_size": train_size,
            "test_size": test_size,
            "levels": levels,
            "shortcuts": list(shortcuts),
            "strengths": strengths,
            "seeds": seeds,
            "seed": seed,
            "vary": vary,
            "mps": mps,
            "model": "tfidf-logreg",
        }
        write_json(
            tmp / MARKER,
            {"tool": tool_record(), "environment": environment(), "arguments": settings},
        )
        result = DemoResult(out=out, results=ordered, groups=groups, tables=tables, mps=mps_results)
        if after is not None:
            after(tmp, result)
    return result


def _checked_jobs(jobs: Any) -> int:
    """Worker processes: the machine's default when None, else a positive integer."""
    return default_jobs() if jobs is None else check_jobs(jobs)


def _evaluate_cells(
    arguments: list[tuple[Any, ...]], jobs: int, progress: Callable[[str, int, int], None]
) -> list[EvaluationResult]:
    """Every cell's evaluation, one task per shortcut (``_shortcut_cells(*arguments[i])``), in
    the cells' order; with ``jobs`` > 1 in worker processes, reporting each as it finishes."""
    results: dict[int, list[EvaluationResult]] = {}
    total = sum(len(args[2]) for args in arguments)
    done = 0

    def finished(i: int, cells: list[EvaluationResult]) -> None:
        nonlocal done
        results[i] = cells
        for cell in cells:
            done += 1
            progress(f"{arguments[i][1]} λ={cell.benchmark['strength']:g}", done, total)

    if jobs == 1:
        for i, args in enumerate(arguments):
            finished(i, _shortcut_cells(*args))
    else:
        # Last first: the concept shortcuts, listed last, take longest (15 s against 9 s for a
        # term on one core), so started first no worker waits alone at the end.
        with worker_pool(jobs, "run_demo") as pool:
            futures = {
                pool.submit(_shortcut_cells, *arguments[i]): i
                for i in reversed(range(len(arguments)))
            }
            for future in as_completed(futures):
                finished(futures[future], future.result())
    return [cell for i in range(len(arguments)) for cell in results[i]]


def _write_summaries(
    folder: Path, ordered: list[EvaluationResult]
) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The demo's statistics (Holm over all of its cells; each cell's own results file is a
    family of one, as a single 'shortcutlab evaluate') and their tables, written into ``folder``:
    summary_<metric>.md, delta_vs_strength_<metric>.png and summary.csv."""
    groups = family_frame(ordered)
    notes = table_notes(groups)
    tables = {
        metric: drop_constant_levels(maze_table(groups, metric=metric, marked=True))
        for metric in split_metric_names()
    }
    for metric, table in tables.items():
        (folder / f"summary_{metric}.md").write_text(
            render(table, "md", notes=notes), encoding="utf-8"
        )
        plot_delta_vs_strength(
            ordered,
            folder / f"delta_vs_strength_{metric}.png",
            metric=metric,
            title=f"Embedded corpus: {metric.replace('_', '-')} drop",
        )
    (folder / "summary.csv").write_text(tidy_text(groups, "csv"), encoding="utf-8")
    return groups, tables
