"""The audit's terminal output: the ranked candidates, partial inputs, leakage and what it means."""

from __future__ import annotations

from typing import Any

import pandas as pd
from rich.console import Console

from shortcutlab.cli.output import Section, show
from shortcutlab.families.audit.report.candidate_table import candidate_table
from shortcutlab.reports.findings_audit import METHODS

DASH = "—"


def print_audit(
    console: Console, record: dict[str, Any], *, top: int, fmt: str = "table", details: bool = False
) -> None:
    """The ranked candidates in ``fmt`` (table, md or latex), the partial-input and leakage
    lines, and with ``details`` what the star, the lift and the model's Δ mean."""
    notes = audit_notes(record, details=details)
    # The terminal gets the compact table, which fits it; md and latex (text for a paper or a
    # page) every column. audit.csv and the report's folded table have them all.
    frame = audit_frame(record, top=top, full=fmt != "table")
    show(fmt, [Section(frame, notes=notes)], console=console)


def audit_frame(record: dict[str, Any], *, top: int, full: bool = True) -> pd.DataFrame:
    """The top candidates as the terminal shows them: the report's table (one definition,
    families/audit/report/candidate_table.py), every column with ``full``."""
    return candidate_table(record, top=top, full=full)


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
            "relied on 'yes' when a counterfactual test (the candidate removed from the rows that "
            "have it, or inserted into rows of the labels it avoids) changes predictions toward "
            "its label or costs accuracy, adjusted p < alpha; 'not visible' when its "
            "tokenizer drops the candidate or its vocabulary lacks it (no reliance figure then); "
            "changed: share of the edited rows whose prediction changed. Association Δ: within "
            "each gold label, accuracy on rows where the candidate agrees with the label minus "
            "rows where it disagrees, averaged over labels by rows; it compares different rows, "
            f"so it is no evidence of reliance. {measurement['note']} A dash: not measured "
            "(beyond --measure-top), no test applies, or too few rows. audit.csv adds the "
            "tests' accuracies, shifts and p-values and the redistribution anti-test figures."
        )
    return lines


def _leakage_lines(leakage: dict[str, Any]) -> list[str]:
    lines = []
    for row in leakage.get("summary", []):
        lines.append(f"Leakage: {row['candidate']}: {row['detail']}")
    return lines
