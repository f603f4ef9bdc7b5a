"""Paper-style result tables as pandas DataFrames, and plain Markdown rendering.

Presentation only: every number comes from an :class:`EvaluationResult`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import ConfigError
from shortcutlab.registry import check_choice

ROW_NAMES = {"test": "Test", "original_test": "Ori-Test", "anti_test": "Anti-Test"}
METRIC_NAMES = {"accuracy": "Accuracy", "macro_f1": "Macro-F1"}
TABLE9_ROWS = ("Test", "Ori-Test", "Anti-Test", "Δ", "VAR(Δ)")


def result_table(result: Any) -> pd.DataFrame:
    """One evaluation: rows Test / Ori-Test / Anti-Test / Δ / VAR(Δ) / 95 % CI, columns per metric."""
    summary = result.summary
    data: dict[str, list[Any]] = {}
    for metric, title in METRIC_NAMES.items():
        column = [
            summary["splits"][s][metric]["mean"] if s in summary["splits"] else np.nan
            for s in ROW_NAMES
        ]
        delta = summary["delta"][metric]
        column += [delta["mean"], delta["var"], "[{:.3f}, {:.3f}]".format(*delta["ci95"])]
        data[title] = column
    return pd.DataFrame(data, index=[*ROW_NAMES.values(), "Δ", "VAR(Δ)", "Δ 95% CI"])


def per_label_table(result: Any) -> pd.DataFrame:
    """Mean accuracy within each true label, per evaluated split."""
    splits = result.summary["splits"]
    return pd.DataFrame(
        {
            ROW_NAMES[s]: [splits[s]["per_label_accuracy"][str(v)] for v in result.labels]
            for s in ROW_NAMES
            if s in splits
        },
        index=[str(v) for v in result.labels],
    ).T


def maze_table(results: Sequence[Any], *, metric: str = "accuracy") -> pd.DataFrame:
    """Table-9 style: rows (shortcut, Test / Ori-Test / Anti-Test / Δ / VAR(Δ)), columns λ (descending)."""
    check_choice("metric", metric, tuple(METRIC_NAMES))
    if not results:
        raise ConfigError("maze_table needs at least one evaluation result.")
    shortcuts = list(dict.fromkeys(r.benchmark["shortcut"] for r in results))
    strengths = sorted({r.benchmark["strength"] for r in results}, reverse=True)
    index = pd.MultiIndex.from_product([shortcuts, TABLE9_ROWS], names=["shortcut", "row"])
    table = pd.DataFrame(np.nan, index=index, columns=pd.Index(strengths, name="λ"), dtype=object)
    for r in results:
        splits, delta = r.summary["splits"], r.summary["delta"][metric]
        values = [splits.get(s, {}).get(metric, {}).get("mean", np.nan) for s in ROW_NAMES] + [
            delta["mean"],
            delta["var"],
        ]
        for row, value in zip(TABLE9_ROWS, values, strict=True):
            table.loc[(r.benchmark["shortcut"], row), r.benchmark["strength"]] = value
    return table


def format_cell(value: Any, digits: int = 3) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def to_markdown(table: pd.DataFrame, *, digits: int = 3) -> str:
    """A GitHub-flavoured Markdown table (index levels become the leading columns)."""
    index_names = [
        n or "" for n in (table.index.names if table.index.nlevels > 1 else [table.index.name])
    ]
    header = [
        *index_names,
        *(format_cell(c, 1) if isinstance(c, float) else str(c) for c in table.columns),
    ]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] * len(index_names) + ["---:"] * len(table.columns)) + "|",
    ]
    previous: tuple[Any, ...] = ()
    for key, row in table.iterrows():
        keys = key if isinstance(key, tuple) else (key,)
        shown = [str(k) for k in keys]
        if len(keys) > 1 and previous[:1] == keys[:1]:
            shown[0] = ""  # a group label is printed once, on its first row
        previous = keys
        lines.append(
            "| " + " | ".join([*shown, *(format_cell(v, digits) for v in row.tolist())]) + " |"
        )
    return "\n".join(lines) + "\n"
