"""The report of one ``shortcutlab evaluate`` results folder (``results.json``, ``results.csv``,
``predictions.csv``): what was evaluated, the Table-9 rows with their footnotes, Δ with its
interval, accuracy per true label, the findings in plain words, and the rows whose prediction
changed (read from the built benchmark the evaluation names)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shortcutlab.data.benchmark import MANIFEST
from shortcutlab.data.existing_splits import EXISTING_SPLITS
from shortcutlab.data.reading import results_with
from shortcutlab.families.maze.evaluate import EvaluationResult
from shortcutlab.families.maze.explorer import evaluation_explorer
from shortcutlab.families.maze.report import delta_block
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.reports.findings import maze_findings
from shortcutlab.reports.html.collect import ReportInput, missing
from shortcutlab.reports.html.document import Block, Facts, Paragraphs, Section, Table
from shortcutlab.reports.tables import NOT_MEASURED, per_label_table, result_table, table_notes
from shortcutlab.reports.tidy import delta_rows

# The keys of an evaluation's results.json (cat, suite and explain folders hold other keys).
EVALUATION_KEYS = ("benchmark", "model", "seeds", "vary", "statistics", "summary", "runs")


def recognises(path: Path) -> bool:
    """A folder written by ``shortcutlab evaluate``: a results.json with the evaluation keys."""
    return results_with(path, EVALUATION_KEYS) is not None


def title(found: ReportInput) -> tuple[str, str]:
    result = EvaluationResult.load(found.path)
    return "shortcutlab evaluate", f"{result.model['name']} on {_evaluated(result)}"


def sections(found: ReportInput) -> list[Section]:
    if not recognises(found.path):  # recognised, then changed under us: say so, not fail
        notice = missing(f"'{found.path}' no longer holds an evaluation's results.json.")
        return [Section(id="evaluation", title="Evaluation", blocks=[notice])]
    result = EvaluationResult.load(found.path)
    frame = result.to_frame()
    found_sections = [
        Section(id="overview", title="Overview", blocks=[_overview(result)]),
        Section(
            id="evaluation",
            title="Test, anti-test and Δ",
            intro="Accuracy and macro-F1 on the test set (the cue as in training), the original "
            "test set and the anti-test set (the cue reversed); Δ = test − anti-test.",
            blocks=[
                Table("evaluation", "Table 9 rows", result_table(result), table_notes(frame)),
                Table("per-label", "Accuracy per true label", per_label_table(result)),
                *_delta_figures(result),
            ],
        ),
        Section(
            id="findings",
            title="Findings",
            blocks=[Paragraphs(maze_findings(frame) or ["Nothing to say: no drop measured."])],
        ),
    ]
    return found_sections + [_rows_section(found.path, result)]


def _evaluated(result: EvaluationResult) -> str:
    bench = result.benchmark
    strength = NOT_MEASURED if bench.get("strength") is None else f"{bench['strength']:g}"
    return f"{bench.get('shortcut') or NOT_MEASURED} (λ={strength})"


def _overview(result: EvaluationResult) -> Facts:
    bench, model = result.benchmark, result.model
    sizes = ", ".join(f"{split} {rows:,}" for split, rows in bench.get("splits", {}).items())
    return Facts(
        title="What was evaluated",
        items=[
            ("model", str(model["name"])),
            ("benchmark", f"{bench.get('path', NOT_MEASURED)} · {_evaluated(result)}"),
            ("rows", sizes or NOT_MEASURED),
            ("seeds", ", ".join(map(str, result.seeds))),
            ("vary", f"{result.vary} ({model.get('fits', NOT_MEASURED)} distinct fits)"),
        ],
    )


def _delta_figures(result: EvaluationResult) -> list[Block]:
    """Δ with its interval per metric, at the benchmark's λ (none for split files whose λ is not
    recorded)."""
    if result.benchmark.get("strength") is None:
        return []
    table = result.to_pandas()
    return [
        delta_block(
            delta_rows(table, metric),
            metric,
            f"delta-{metric}",
            f"{METRICS.get(metric).title} drop Δ",
        )
        for metric in split_metric_names()
    ]


def _rows_section(folder: Path, result: EvaluationResult) -> Section:
    """The rows whose prediction changed, from the built benchmark's texts where it is found."""
    benchmark = _benchmark_dir(folder, result.benchmark)
    explorer = None if benchmark is None else evaluation_explorer(folder, benchmark)
    if explorer is not None:
        return Section(id="explorer", title="Rows behind the numbers", blocks=[explorer])
    if result.benchmark.get("kind") == EXISTING_SPLITS:
        why = "Split files evaluated as they are have no built benchmark to read rows from."
    elif benchmark is None:
        why = (
            f"The benchmark folder '{result.benchmark.get('path')}' this evaluation names is not "
            "found from here (run 'shortcutlab report' from where 'evaluate' ran)."
        )
    else:
        why = "predictions.csv holds no rows of the benchmark's own build (each seed re-drew it)."
    return Section(id="explorer", title="Rows behind the numbers", blocks=[Paragraphs([why])])


def _benchmark_dir(folder: Path, bench: dict[str, Any]) -> Path | None:
    """The built benchmark evaluated: its recorded path (as given to ``evaluate``, relative to
    where it ran), or the folder two levels up (the default ``BENCHMARK/results/MODEL``)."""
    recorded = bench.get("path")
    for candidate in ([Path(recorded)] if recorded else []) + [folder.parent.parent]:
        if (candidate / MANIFEST).is_file():
            return candidate
    return None
