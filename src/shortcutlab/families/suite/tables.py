"""Markdown tables of a Suite evaluation, laid out like the paper's Tables 2-4 (percentages).

Presentation only: every number comes from ``results.json``; a metric that was not computed
prints "—".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shortcutlab.models.prompts import ERROR_TYPES

DASH = "—"
POSITION_ORDER = ("premise_front", "premise_end", "hypothesis_front", "hypothesis_end")
CHANGE_NOTE = (
    "Derived sets are compared on the standard rows they came from (exact McNemar); the others "
    "as independent samples (two-proportion z-test)."
)


def percent(value: float | None) -> str:
    """A share as a percentage with one decimal, or "—".

    Examples:
        >>> percent(0.8567), percent(None)
        ('85.7', '—')
    """
    return DASH if value is None else f"{100 * value:.1f}"


Rows = tuple[list[str], list[list[str]]]  # a table's header and its rows of text


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _strategy(run: dict[str, Any]) -> str:
    return run["strategy"] or "model"


def accuracy_table(results: dict[str, Any]) -> str:
    """Table 2: accuracy per set, E and ¬E apart for the 2-class sets."""
    return _table(*accuracy_rows(results))


def accuracy_rows(results: dict[str, Any]) -> Rows:
    """The header and rows of :func:`accuracy_table`."""
    two_class = set(results["two_class_sets"])
    sets = list(results["suite"]["sets"])
    header = ["strategy"]
    for name in sets:
        header += [f"{name} E", f"{name} ¬E"] if name in two_class else [name]
    rows = []
    for run in results["strategies"]:
        row = [_strategy(run)]
        for name in sets:
            scored = run["sets"][name]
            if name in two_class:
                row += [
                    percent(scored["accuracy_entailment"]),
                    percent(scored["accuracy_non_entailment"]),
                ]
            else:
                row.append(percent(scored["accuracy"]))
        rows.append(row)
    return header, rows


def change_table(results: dict[str, Any]) -> str | None:
    """Accuracy change against standard per set, with the test used and its p-value (None for a
    folder without standard)."""
    found = change_rows(results)
    return None if found is None else _table(*found)


def change_rows(results: dict[str, Any]) -> Rows | None:
    """The header and rows of :func:`change_table` (None for a folder without standard)."""
    rows = []
    for run in results["strategies"]:
        for name, scored in run["sets"].items():
            change = scored.get("change")
            if change is None:
                continue
            rows.append(
                [
                    _strategy(run),
                    name,
                    percent(scored["accuracy"]),
                    percent(change["standard_accuracy"]),
                    f"{100 * change['delta']:+.1f}",
                    change["test"],
                    str(change["rows_paired"]) if change["rows_paired"] else DASH,
                    f"{change['p_value']:.3g}",
                ]
            )
    if not rows:
        return None
    header = ["strategy", "set", "accuracy", "standard", "change", "test", "paired rows", "p"]
    return header, rows


def distribution_table(results: dict[str, Any]) -> str:
    """Section 5.2.3: the predicted-label distribution per set (% of rows)."""
    return _table(*distribution_rows(results))


def distribution_rows(results: dict[str, Any]) -> Rows:
    """The header and rows of :func:`distribution_table`."""
    runs = results["strategies"]
    parsed = any("invalid" in s["label_distribution"] for r in runs for s in r["sets"].values())
    labels = [*results["labels"], *(["invalid"] if parsed else [])]
    rows = []
    for run in runs:
        for name, scored in run["sets"].items():
            counts = scored["label_distribution"]
            shares = (
                percent(counts[label] / scored["rows"]) if label in counts else "—"
                for label in labels
            )
            rows.append([_strategy(run), name, *shares])
    return ["strategy", "set", *labels], rows


def position_table(results: dict[str, Any]) -> str | None:
    """Table 3: accuracy per position of the repeated tautology (None without a position set)."""
    found = position_rows(results)
    return None if found is None else _table(*found)


def position_rows(results: dict[str, Any]) -> Rows | None:
    """The header and rows of :func:`position_table`."""
    rows = []
    positions: list[str] = []
    for run in results["strategies"]:
        for scored in run["sets"].values():
            for position in scored.get("position_accuracy", {}):
                if position not in positions:
                    positions.append(position)
    if not positions:
        return None
    positions.sort(
        key=lambda p: (POSITION_ORDER.index(p) if p in POSITION_ORDER else len(POSITION_ORDER), p)
    )
    for run in results["strategies"]:
        for name, scored in run["sets"].items():
            if "position_accuracy" in scored:
                by_position = scored["position_accuracy"]
                rows.append(
                    [_strategy(run), name, *(percent(by_position.get(p)) for p in positions)]
                )
    return ["strategy", "set", *positions], rows


def _count(value: int | None) -> str:
    return DASH if value is None else str(value)


def explanation_table(results: dict[str, Any]) -> str | None:
    """Table 4 and section 5.2.2: SFS, ICS, EQS and CFS (with the accuracy it claims) per set.

    ICS is over the explanations whose step pairs were all scored (an LLM judge's unparseable
    answers are counted apart); beside it, the mean over explanations with a step pair of their
    largest p(contradiction): ICS only says whether it passed 1/3, this says by how much.
    """
    found = explanation_rows(results)
    return None if found is None else _table(*found)


def explanation_rows(results: dict[str, Any]) -> Rows | None:
    """The header and rows of :func:`explanation_table`."""
    runs = results["strategies"]
    explained_sets = [
        (run, name, scored["explanations"])
        for run in runs
        for name, scored in run["sets"].items()
        if scored.get("explanations") is not None
    ]
    if not explained_sets:
        return None
    # Only an LLM judge's answers can fail to parse; for other scorers nothing could vary there.
    parsed = any(e.get("ics_unparsed_pairs") is not None for _, _, e in explained_sets)
    rows = []
    for run, name, explained in explained_sets:
        rows.append(
            [
                _strategy(run),
                name,
                percent(explained["sfs"]),
                percent(explained["ics"]),
                _count(explained["ics_explanations"]),
                *([_count(explained["ics_unparsed_pairs"])] if parsed else []),
                percent(explained["max_contradiction_mean"]),
                _count(explained["max_contradiction_explanations"]),
                percent(explained["eqs"]),
                percent(explained["cfs"]),
                percent(explained["cfs_accuracy"]),
                str(explained["explanations"]),
                DASH if explained["steps_mean"] is None else f"{explained['steps_mean']:.1f}",
            ]
        )
    header = [
        "strategy",
        "set",
        "SFS",
        "ICS",
        "ICS explanations",
        *(["unparsed pairs"] if parsed else []),
        "max p(contradiction)",
        "max p explanations",
        "EQS",
        "CFS",
        "accuracy (stated rows)",
        "explanations",
        "steps",
    ]
    return header, rows


def error_type_table(results: dict[str, Any]) -> str | None:
    """Section 5.2.4: error types of wrong CoT answers per set."""
    found = error_type_rows(results)
    return None if found is None else _table(*found)


def error_type_rows(results: dict[str, Any]) -> Rows | None:
    """The header and rows of :func:`error_type_table`."""
    kinds = [*ERROR_TYPES, "unparsed"]
    rows = [
        [_strategy(run), name, *(str(scored["error_types"][k]) for k in kinds)]
        for run in results["strategies"]
        for name, scored in run["sets"].items()
        if "error_types" in scored
    ]
    return (["strategy", "set", *kinds], rows) if rows else None


def suite_markdown(results: dict[str, Any], *, details: bool = True) -> str:
    """All tables of one evaluation as one Markdown document; the line saying which test each
    change uses only with ``details``."""
    model = results["model"]
    parts = [
        f"# Shortcut Suite: {model['name']}",
        "Accuracy (%) per set; E / ¬E are the entailment and non-entailment halves of the 2-class sets (Table 2).",
        accuracy_table(results),
    ]
    changes = change_table(results)
    if changes is not None:
        parts += [
            "## Change against standard",
            *([CHANGE_NOTE] if details else []),
            changes,
        ]
    parts += ["## Predicted-label distribution (% of rows)", distribution_table(results)]
    for title, table in (
        ("## Accuracy per position (Table 3)", position_table(results)),
        ("## Explanation quality (Table 4, %)", explanation_table(results)),
        ("## Error types of wrong answers (counts)", error_type_table(results)),
    ):
        if table is not None:
            parts += [title, table]
    if results["notes"]:
        parts += ["## Notes", *(f"- {note}" for note in results["notes"])]
    return "\n\n".join(parts) + "\n"
