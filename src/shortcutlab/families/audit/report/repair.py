"""The fix tables of ``audit --fix`` (``audit.json``'s ``fix``), as the terminal and the HTML
report show them: one table per candidate, a row per method, a column per evaluation set."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from shortcutlab.families.audit.report.text import interval_text, p_text
from shortcutlab.reports.html.collect import missing
from shortcutlab.reports.html.document import Block, Facts, Paragraphs, Section, Table
from shortcutlab.reports.tables import NOT_MEASURED

NO_TARGETS = (
    "No candidate to repair: the model relies on none that the audit could test, and none was "
    "named with --candidate."
)

#: Column headers of the evaluation sets.
SET_TITLES = {
    "anti": "anti-test",
    "counterfactual": "counterfactual",
    "plain": "plain test",
    "without": "rows without it",
    "original": "Ori-Test",
}


def _cell(figures: Mapping[str, Any] | None) -> str:
    """``0.816 (+0.293 [+0.251, +0.336], p 1e-20)``; erm's bare accuracy; — where not built."""
    if not figures or figures.get("accuracy") is None:
        return NOT_MEASURED
    accuracy = f"{figures['accuracy']:.3f}"
    if figures.get("same_as_baseline"):
        return f"{accuracy} (same predictions as erm)"
    if figures.get("difference") is None:
        return accuracy
    difference = interval_text(figures["difference"], figures["low"], figures["high"])
    return f"{accuracy} ({difference}, p {p_text(figures.get('p_adjusted'))})"


def fix_frame(target: Mapping[str, Any]) -> pd.DataFrame:
    """One candidate's table: a row per method (skipped ones with dashes)."""
    rows = []
    # Ori-Test only for a Maze build: a column of dashes elsewhere says nothing.
    built = {
        name: title
        for name, title in SET_TITLES.items()
        if name != "original"
        or any((m.get(name) or {}).get("accuracy") is not None for m in target["methods"])
    }
    for method in target["methods"]:
        row = {
            "method": method["method"] + (" ✓" if method["method"] == target["recommended"] else "")
        }
        for name, title in built.items():
            row[title] = NOT_MEASURED if method["skipped"] else _cell(method.get(name))
        share = method.get("changed_share")
        row["rows changed"] = NOT_MEASURED if share is None else f"{share:.1%}"
        rows.append(row)
    return pd.DataFrame(rows, dtype=object).set_index("method")


def fix_title(target: Mapping[str, Any]) -> str:
    return (
        f"Repairs of {target['candidate']} → {target['label']} ({target['reason']}; "
        f"{target['training_rows_with']} of {target['training_rows']} training rows have it)"
    )


def fix_notes(fix: Mapping[str, Any], target: Mapping[str, Any]) -> list[str]:
    """What the table's sets are, which methods were skipped and why, the recommendation and
    the label-signal warning."""
    sets = target["sets"]
    notes = [
        "Each cell: accuracy (difference from erm on the same rows [95 % paired bootstrap], "
        "Holm-adjusted exact McNemar p). " + fix["note"],
        f"Sets: anti-test {_rows(sets['anti'])}; counterfactual {_rows(sets['counterfactual'])}; "
        f"plain test {_rows(sets['plain'])}; rows without the candidate {_rows(sets['without'])}"
        + (
            f"; Ori-Test (the Maze build's test rows before the cue) {_rows(sets['original'])}."
            if (sets.get("original") or {}).get("rows") is not None
            else "."
        ),
        "rows changed: share of the training rows a repair edited, dropped or reweighted, plus "
        "the rows it added; — for methods that change how the model is trained, not the rows.",
    ]
    for method in target["methods"]:
        if method["skipped"]:
            notes.append(f"{method['method']}: skipped: {method['skipped'].splitlines()[0]}")
    notes.append("Rule: " + fix["rule"])
    notes.append(target["recommendation"])
    if target.get("label_signal"):
        notes.append(target["label_signal"])
    return notes


def _rows(chosen: Mapping[str, Any]) -> str:
    rows = chosen.get("rows")
    note = chosen.get("note")
    if rows is None:
        return f"not built ({note})" if note else "not built"
    return f"{rows} rows" + (f" ({note})" if note else "")


def fix_section(fix: Mapping[str, Any]) -> Section:
    """The report's "Repairs" section: a table per candidate, its notes under it."""
    targets = fix.get("targets") or []
    blocks: list[Block] = []
    if not targets:
        blocks.append(missing(NO_TARGETS))
    for position, target in enumerate(targets, start=1):
        blocks.append(
            Table(
                name=f"audit-fix-{position}",
                title=fix_title(target),
                frame=fix_frame(target),
                notes=fix_notes(fix, target),
            )
        )
    if targets:
        blocks.append(Paragraphs([t["recommendation"] for t in targets]))
    return Section(
        id="audit-fix",
        title=f"Repairs of {fix.get('model', 'the model')}: each against erm",
        intro="For each candidate the model relies on (or that was named), erm and each repair "
        "fitted on the training rows and compared on the same evaluation rows.",
        blocks=blocks,
    )


def recommended_repairs(fix: Mapping[str, Any], label: Callable[[Any], str] = str) -> Facts:
    """What ``--fix`` recommends, a line per candidate repaired (``label`` writes its label),
    for the top of the report; the tables stay in :func:`fix_section`."""
    items = [
        (f"{target['candidate']} → {label(target.get('label'))}", target["recommendation"])
        for target in fix.get("targets") or []
    ]
    return Facts(
        title=f"Recommended repairs of {fix.get('model', 'the model')} (--fix; the tables are in "
        "the Repairs section)",
        items=items or [(NOT_MEASURED, NO_TARGETS)],
    )


__all__ = [
    "SET_TITLES",
    "fix_frame",
    "fix_notes",
    "fix_section",
    "fix_title",
    "recommended_repairs",
]
