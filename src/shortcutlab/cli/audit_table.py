"""The audit's terminal output: the ranked candidates, partial inputs, leakage and what it means."""

from __future__ import annotations

from typing import Any

import pandas as pd
from rich.console import Console

from shortcutlab.cli.output import Section, show
from shortcutlab.families.audit.text import interval_text, p_text
from shortcutlab.reports.findings_audit import METHODS, NOT_VISIBLE, RELIED_ON, verdict

DASH = "—"


def print_audit(
    console: Console, record: dict[str, Any], *, top: int, fmt: str = "table", details: bool = False
) -> None:
    """The ranked candidates in ``fmt`` (table, md or latex), the partial-input and leakage
    lines, and with ``details`` what the star, the lift and the model's Δ mean."""
    notes = audit_notes(record, details=details)
    show(fmt, [Section(audit_frame(record, top=top), notes=notes)], console=console)


def audit_frame(record: dict[str, Any], *, top: int) -> pd.DataFrame:
    """The top candidates as the terminal shows them: one row each, ``*`` on significant ones."""
    measured = record["measurement"] is not None
    drift = "test" in record["data"]["rows"]
    rows = []
    for row in record["candidates"][:top]:
        cells = {
            "candidate": row["candidate"] + (" *" if row["significant"] else ""),
            "kind": row["kind"],
            "label": _text(row["label"]),
            "support": _int(row["support"]),
            "p(label|c)": _number(row["p_label_given_candidate"]),
            "lift": _number(row["lift"], digits=2),
            "p adj.": _p(row["p_adjusted"]),
        }
        if drift:
            cells["test lift"] = _number(row["test_lift"], digits=2)
            cells["drift p adj."] = _p(row["drift_p_adjusted"])
        if measured:
            cells |= _model_cells(row)
        rows.append(cells)
    frame = pd.DataFrame(
        rows, index=pd.Index([r["rank"] for r in record["candidates"][:top]], name="#")
    )
    return frame


def audit_notes(record: dict[str, Any], *, details: bool = True) -> list[str]:
    """Partial inputs and leakage; with ``details`` first what the table's marks and columns
    mean, and last what the model's Δ measures."""
    measured = record["measurement"] is not None
    found = [
        f"Partial input: {row['candidate']}: {row['detail']}" for row in record["partial_input"]
    ]
    found += _leakage_lines(record["leakage"])
    if not details:
        return found
    lines = []
    correction = record["correction"]
    method = METHODS[correction["method"]]
    lines.append(
        f"* significant: {method}-adjusted p < {correction['alpha']} over all "
        f"{correction['tests']:,} tests of this scan (each indicator's rows against the others by "
        "label, a likelihood-ratio test of independence, and the partial-input baselines); "
        "label: the one the candidate raises most, lift = p(label | candidate) / p(label). "
        f"{record['significant_total']:,} of {record['candidates_total']:,} candidates are significant."
    )
    lines += found
    if measured:
        measurement = record["measurement"]
        lines.append(
            f"Reliance: {measurement['model']} on {measurement['evaluated_on']} "
            f"({measurement['rows']:,} rows), read through the model's own tokenizer: "
            f"'{RELIED_ON}' when a counterfactual test (the candidate removed from the rows that "
            "have it, or inserted into rows of the labels it avoids) changes predictions toward "
            "its label or costs accuracy, adjusted p < alpha; 'not visible to the model' when its "
            "tokenizer drops the candidate or its vocabulary lacks it (no reliance figure then); "
            "changed: share of the edited rows whose prediction changed. Association Δ: within "
            "each gold label, accuracy on rows where the candidate agrees with the label minus "
            "rows where it disagrees, averaged over labels by rows; it compares different rows, "
            f"so it is no evidence of reliance. {measurement['note']} A dash: not measured "
            "(beyond --measure-top), no test applies, or too few rows. audit.csv adds the "
            "tests' accuracies, shifts and p-values and the redistribution anti-test figures."
        )
    return lines


def _model_cells(row: dict[str, Any]) -> dict[str, str]:
    """The model's columns, led by the reliance verdict the counterfactual tests give; a
    candidate the model cannot see gets no reliance figure."""
    shown = verdict(row.get("visible"), row.get("relied_on"))
    unseen = shown == NOT_VISIBLE
    return {
        "reliance": shown or DASH,
        "removal changed": DASH if unseen else _number(row.get("removal_changed")),
        "insertion changed": DASH if unseen else _number(row.get("insertion_changed")),
        "association Δ [95 %]": _delta(row),
        "assoc. Δ p adj.": _p(row.get("delta_p_adjusted")),
    }


def _leakage_lines(leakage: dict[str, Any]) -> list[str]:
    lines = []
    for row in leakage.get("summary", []):
        lines.append(f"Leakage: {row['candidate']}: {row['detail']}")
    return lines


def _delta(row: dict[str, Any]) -> str:
    return interval_text(row.get("delta"), row.get("delta_low"), row.get("delta_high")) or DASH


def _text(value: Any) -> str:
    return DASH if value is None else str(value)


def _int(value: Any) -> str:
    return DASH if value is None else f"{int(value):,}"


def _number(value: Any, digits: int = 3) -> str:
    return DASH if value is None else f"{float(value):.{digits}f}"


def _p(value: Any) -> str:
    return p_text(value) or DASH
