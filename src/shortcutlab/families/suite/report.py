"""Report sections of a Shortcut Suite evaluation (``shortcutlab suite evaluate --out``): the
tables of its tables.md (accuracy per set, Table 2; change against standard; predicted-label
distribution, 5.2.3, also as a figure; accuracy per position, Table 3; explanation scores,
Table 4; error types, 5.2.4) from results.json."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.reading import results_with
from shortcutlab.families.suite import tables
from shortcutlab.families.suite.plots import predicted_label_figure
from shortcutlab.reports.html.collect import ReportInput, header_frame, missing, svg_figure
from shortcutlab.reports.html.document import Block, Facts, Paragraphs, Section, Table

SUITE_KEYS = ("suite", "model", "labels", "two_class_sets", "strategies")
# name, title, header + rows, how many leading columns name a row, notes
OPTIONAL = (
    (
        "suite-change",
        "Change against standard",
        tables.change_rows,
        2,
        [
            "Derived sets are compared on the standard rows they came from (exact McNemar); the "
            "others as independent samples (two-proportion z-test)."
        ],
    ),
    ("suite-position", "Accuracy per position (Table 3, %)", tables.position_rows, 2, []),
    ("suite-explanations", "Explanation quality (Table 4, %)", tables.explanation_rows, 2, []),
    ("suite-error-types", "Error types of wrong answers (counts)", tables.error_type_rows, 2, []),
)


def recognises(path: Path) -> bool:
    return results_with(path, SUITE_KEYS) is not None


def sections(found: ReportInput) -> list[Section]:
    results = results_with(found.path, SUITE_KEYS)
    if results is None:
        notice = missing(f"'{found.path}' no longer holds a Suite results.json.")
        return [Section(id="suite", title="Shortcut Suite", blocks=[notice])]
    model = results["model"]
    blocks: list[Block] = [
        Facts(
            title="Evaluation",
            items=[
                ("model", f"{model['name']} (seed {model['seed']})"),
                ("suite", str(results["suite"]["path"])),
                (
                    "sets",
                    ", ".join(f"{n} ({rows} rows)" for n, rows in results["suite"]["sets"].items()),
                ),
                (
                    "trained on",
                    str(results["train"]["path"] or "—") + f" ({results['train']['rows']} rows)",
                ),
                ("labels", ", ".join(results["labels"])),
            ],
        ),
        Table(
            name="suite-accuracy",
            title="Accuracy per set (Table 2, %)",
            frame=header_frame(*tables.accuracy_rows(results), index=1),
            notes=["E / ¬E are the entailment and non-entailment halves of the 2-class sets."],
        ),
    ]
    for name, title, rows_of, index, notes in OPTIONAL[:1]:
        blocks += _optional(name, title, rows_of(results), index, notes)
    blocks.append(
        Table(
            name="suite-label-distribution",
            title="Predicted-label distribution (% of rows)",
            frame=header_frame(*tables.distribution_rows(results), index=2),
        )
    )
    blocks += _distribution_figures(results)
    for name, title, rows_of, index, notes in OPTIONAL[1:]:
        blocks += _optional(name, title, rows_of(results), index, notes)
    if results["notes"]:
        blocks.append(Paragraphs(list(results["notes"])))
    return [
        Section(
            id="suite",
            title=f"Shortcut Suite: {model['name']}",
            blocks=blocks,
            intro="Every set of the Suite folder under each prompting strategy (paper section 5); "
            "the same tables as the evaluation's tables.md.",
        )
    ]


def _optional(
    name: str, title: str, found: tables.Rows | None, index: int, notes: list[str]
) -> list[Block]:
    if found is None:
        return []
    return [Table(name=name, title=title, frame=header_frame(*found, index=index), notes=notes)]


def _distribution_figures(results: dict[str, Any]) -> list[Block]:
    figures: list[Block] = []
    for number, run in enumerate(results["strategies"]):
        strategy = run["strategy"] or "model"
        shares = pd.DataFrame(
            {
                name: {
                    label: count / scored["rows"]
                    for label, count in scored["label_distribution"].items()
                }
                for name, scored in run["sets"].items()
            }
        ).T
        title = f"Predicted labels per set ({strategy})"
        figure = predicted_label_figure(shares)  # the heading above names it
        figures.append(svg_figure(figure, name=f"suite-label-distribution-{number}", title=title))
    return figures
