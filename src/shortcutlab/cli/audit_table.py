"""The audit's terminal output: the ranked candidates, partial inputs, leakage and what it means."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from shortcutlab.families.audit.text import interval_text, p_text

DASH = "—"


def print_audit(console: Console, record: dict[str, Any], *, top: int) -> None:
    candidates = record["candidates"][:top]
    measured = record["measurement"] is not None
    drift = "test" in record["data"]["rows"]
    if not console.is_terminal:  # a pipe or a file: no terminal width to respect
        console = Console(file=console.file, width=max(console.width, 160), highlight=False)
    table = Table(show_edge=False, header_style="bold", pad_edge=False)
    for name, justify in (
        ("#", "right"),
        ("candidate", "left"),
        ("kind", "left"),
        ("label", "left"),
        ("support", "right"),
        ("p(label|c)", "right"),
        ("lift", "right"),
        ("p adj.", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    if drift:
        table.add_column("test lift", justify="right")
        table.add_column("drift p adj.", justify="right")
    if measured:
        table.add_column("model Δ [95 %]", justify="right")
        table.add_column("Δ p adj.", justify="right")
    for row in candidates:
        cells = [
            str(row["rank"]),
            row["candidate"] + (" *" if row["significant"] else ""),
            row["kind"],
            _text(row["label"]),
            _int(row["support"]),
            _number(row["p_label_given_candidate"]),
            _number(row["lift"], digits=2),
            _p(row["p_adjusted"]),
        ]
        if drift:
            cells += [_number(row["test_lift"], digits=2), _p(row["drift_p_adjusted"])]
        if measured:
            cells += [_delta(row), _p(row["delta_p_adjusted"])]
        table.add_row(*cells)
    console.print(table)
    correction = record["correction"]
    method = {"bh": "Benjamini–Hochberg", "holm": "Holm"}[correction["method"]]
    console.print(
        f"* significant: {method}-adjusted p < {correction['alpha']} over all "
        f"{correction['tests']:,} tests of this scan (each indicator's rows against the others by "
        "label, a likelihood-ratio test of independence, and the partial-input baselines); "
        "label: the one the candidate raises most, lift = p(label | candidate) / p(label). "
        f"{record['significant_total']:,} of {record['candidates_total']:,} candidates are significant.",
        markup=False,
    )
    for row in record["partial_input"]:
        console.print(f"Partial input: {row['candidate']}: {row['detail']}", markup=False)
    for line in _leakage_lines(record["leakage"]):
        console.print(line, markup=False)
    if measured:
        measurement = record["measurement"]
        console.print(
            f"Model Δ: {measurement['model']} on {measurement['evaluated_on']} "
            f"({measurement['rows']:,} rows): within each gold label, accuracy on rows where the "
            "candidate agrees with the label (present on its label, absent on the others) minus "
            "rows where it disagrees, averaged over labels by rows, so label difficulty cancels. "
            f"{measurement['note']} A dash: not measured (beyond --measure-top) or too few rows. "
            "audit.csv adds removal and "
            "redistribution anti-test figures.",
            markup=False,
        )


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
