"""Cell texts of the audit report: a value the audit left empty (None) stays None, which the page
renders as ``—``, so nothing unmeasured reads as a number.

Examples:
    >>> rate_rows(None, 0), rate_rows(0.75, 40), number(0.1234, 2, signed=True)
    ('— (0)', '0.750 (40)', '+0.12')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shortcutlab.reports.tables import NOT_MEASURED


def number(value: float | None, digits: int, *, signed: bool = False) -> str | None:
    return None if value is None else f"{value:{'+' if signed else ''}.{digits}f}"


def rate_rows(rate: float | None, rows: int | None) -> str | None:
    if rows is None:
        return None
    return f"{NOT_MEASURED} (0)" if rate is None else f"{rate:.3f} ({rows})"


def before_after(before: float | None, after: float | None) -> str | None:
    if before is None or after is None:
        return None
    return f"{before:.3f} → {after:.3f}"


def optional(value: Any) -> str | None:
    return None if value is None else str(value)


def plain(value: Any) -> str:
    return NOT_MEASURED if value is None else str(value)


def source_text(source: Mapping[str, Any] | None, rows: int | None) -> str:
    if not source:
        return f"{NOT_MEASURED} (none given)"
    digest = source.get("sha256")
    described = f"{source.get('path') or 'in-memory table'} ({plain(rows)} rows"
    return described + (f", sha256 {digest[:12]}…)" if digest else ")")


def label_counts(labels: list[str], counts: Sequence[int] | None) -> str:
    if counts is None:
        return ", ".join(labels) or NOT_MEASURED
    return ", ".join(f"{label} ({count})" for label, count in zip(labels, counts, strict=False))


def scalar_items(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A JSON object's entries as facts: scalars as they are, lists by length, objects by their
    scalar entries (``near.threshold``); nulls as ``—``."""
    items: list[tuple[str, str]] = []
    for key, value in record.items():
        if isinstance(value, Mapping):
            items += [(f"{key}.{k}", v) for k, v in scalar_items(value) if "." not in k]
        elif isinstance(value, list):
            shown = (
                ", ".join(map(str, value))
                if all(isinstance(v, str | int | float) for v in value)
                else ""
            )
            items.append((key, shown if value and len(shown) <= 120 else f"{len(value)} entries"))
        else:
            items.append((key, plain(value)))
    return items
