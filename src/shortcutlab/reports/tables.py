"""Paper-style result tables as pandas DataFrames, and plain Markdown rendering.

Presentation only: every number comes from an :class:`EvaluationResult`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return str(value)  # counts stay whole numbers
    return f"{value:.{digits}f}"


def grouped_rows(table: pd.DataFrame) -> Iterator[tuple[list[str], list[Any], bool]]:
    """Rows as (index labels, values, starts a new top-level group), each group label shown once."""
    previous: tuple[Any, ...] = ()
    for position, key in enumerate(table.index):
        keys = key if isinstance(key, tuple) else (key,)
        shown = [str(k) for k in keys]
        for level in range(len(keys) - 1):
            if previous[: level + 1] == keys[: level + 1]:
                shown[level] = ""
        new_group = bool(previous) and len(keys) > 1 and previous[:1] != keys[:1]
        previous = keys
        yield shown, [table.iat[position, i] for i in range(table.shape[1])], new_group


def to_markdown(table: pd.DataFrame, *, digits: int = 3) -> str:
    """A GitHub-flavoured Markdown table (index levels become the leading columns)."""
    index_names = [
        n or "" for n in (table.index.names if table.index.nlevels > 1 else [table.index.name])
    ]
    if table.columns.nlevels > 1:
        leaves = [" ".join(str(part) for part in column) for column in table.columns]
    else:
        leaves = [format_cell(c, 1) if isinstance(c, float) else str(c) for c in table.columns]
    lines = [
        "| " + " | ".join([*index_names, *leaves]) + " |",
        "|" + "|".join(["---"] * len(index_names) + ["---:"] * len(leaves)) + "|",
    ]
    for shown, values, _ in grouped_rows(table):
        lines.append("| " + " | ".join([*shown, *(format_cell(v, digits) for v in values)]) + " |")
    return "\n".join(lines) + "\n"


_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "\\": r"\textbackslash{}",
}
_LATEX_SYMBOLS = {"Δ": r"$\Delta$", "λ": r"$\lambda$", "−": "-"}


def latex_escape(text: Any) -> str:
    out = "".join(_LATEX_ESCAPES.get(ch, ch) for ch in str(text))
    for symbol, command in _LATEX_SYMBOLS.items():
        out = out.replace(symbol, command)
    return out


def to_latex(table: pd.DataFrame, *, digits: int = 3, caption: str | None = None) -> str:
    """A booktabs ``tabular``: index levels as leading columns, two-level columns as grouped headers."""
    index_names = [
        latex_escape(n or "")
        for n in (table.index.names if table.index.nlevels > 1 else [table.index.name])
    ]
    n_index, n_values = len(index_names), len(table.columns)
    lines = [r"\begin{tabular}{" + "l" * n_index + "r" * n_values + "}", r"\toprule"]
    if table.columns.nlevels > 1:
        groups: list[tuple[str, int]] = []
        for top in table.columns.get_level_values(0):
            if groups and groups[-1][0] == top:
                groups[-1] = (top, groups[-1][1] + 1)
            else:
                groups.append((top, 1))
        header, rules, start = [""] * n_index, [], n_index + 1
        for top, width in groups:
            header.append(rf"\multicolumn{{{width}}}{{c}}{{{latex_escape(top)}}}")
            rules.append(rf"\cmidrule(lr){{{start}-{start + width - 1}}}")
            start += width
        lines += [" & ".join(header) + r" \\", "".join(rules)]
        leaves = [latex_escape(c) for c in table.columns.get_level_values(-1)]
    else:
        leaves = [
            latex_escape(format_cell(c, 1) if isinstance(c, float) else c) for c in table.columns
        ]
    lines += [" & ".join([*index_names, *leaves]) + r" \\", r"\midrule"]
    for shown, values, new_group in grouped_rows(table):
        if new_group:
            lines.append(r"\midrule")
        lines.append(
            " & ".join(
                [
                    *(latex_escape(k) for k in shown),
                    *(latex_escape(format_cell(v, digits)) for v in values),
                ]
            )
            + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines = [
            r"\begin{table}[t]",
            r"\centering",
            *lines,
            rf"\caption{{{latex_escape(caption)}}}",
            r"\end{table}",
        ]
    return "\n".join(lines) + "\n"


def render(table: pd.DataFrame, fmt: str, *, digits: int = 3) -> str:
    """The table as Markdown (``md``), CSV (``csv``) or LaTeX (``latex``)."""
    check_choice("format", fmt, ("md", "csv", "latex"))
    if fmt == "md":
        return to_markdown(table, digits=digits)
    if fmt == "latex":
        return to_latex(table, digits=digits)
    return table.to_csv(lineterminator="\n")
