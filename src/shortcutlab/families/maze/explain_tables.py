"""The Shortcut Maze Table 4 layout of ``explain`` results: mean SHAP value per label of the cue's
tokens and of the other tokens, one row block per method (the paper's BERT and AFR)."""

from __future__ import annotations

from typing import Any

import pandas as pd

TABLES = {False: "table", True: "table_abs"}


def share_text(value: float | None) -> str:
    """A share as a whole percentage, ``—`` when not measured.

    Examples:
        >>> share_text(0.833), share_text(None)
        ('83 %', '—')
    """
    return "—" if value is None else f"{100 * value:.0f} %"


def number_text(value: float | None) -> str:
    """An attribution (a probability difference) with four decimals, ``—`` when not measured."""
    return "—" if value is None else f"{value:.4f}"


def interval_text(entry: dict[str, Any]) -> str:
    """``0.1234 [0.1000, 0.1500]``: a mean with its 95 % interval over rows (or why it has none)."""
    if entry["interval_95"] is None:
        return f"{number_text(entry['mean'])} (no interval: fewer than 2 rows)"
    low, high = entry["interval_95"]
    return f"{number_text(entry['mean'])} [{number_text(low)}, {number_text(high)}]"


def token_frame(results: dict[str, Any], *, absolute: bool = False) -> pd.DataFrame:
    """Rows: per method, the token groups (the cue's sides, then ``others``); columns: how many
    tokens, then one per label. Methods are row blocks, not side by side, so the table stays
    narrow enough for a terminal with any number of labels."""
    labels = results["labels"]
    index: list[tuple[str, str]] = []
    rows: list[list[Any]] = []
    for method, summary in results["methods"].items():
        for group, entry in summary[TABLES[absolute]].items():
            index.append((method, group))
            rows.append([entry["count"], *(entry[label] for label in labels)])
    return pd.DataFrame(
        rows,
        columns=["count", *map(str, labels)],
        index=pd.MultiIndex.from_tuples(index, names=["method", "tokens"]),
    )
