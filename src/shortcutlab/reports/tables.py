"""Paper-style result tables as pandas DataFrames, their footnotes, and text rendering.

Presentation only: every number comes from a tidy statistics row (``EvaluationResult.statistics``
or a row of ``RunResults.groups``), computed by :mod:`shortcutlab.engine.summary`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.csv_text import csv_text
from shortcutlab.errors import ConfigError, knob
from shortcutlab.html_table import NOT_MEASURED, format_cell
from shortcutlab.metrics import METRICS, metric_titles, split_metric_names
from shortcutlab.metrics.catalog import PAIRED_TESTS
from shortcutlab.params import check_choice

SPLIT_TITLES = {"test": "Test", "original_test": "Ori-Test", "anti_test": "Anti-Test"}
TABLE9_ROWS = ("Test", "Ori-Test", "Anti-Test", "Δ", "VAR(Δ)", "Δ 95% CI")


def statistic_cell(group: Mapping[str, Any], row: str, metric: str, marked: bool) -> Any:
    """The value of one Table-9 row for one group (a tidy statistics row). ``marked`` gives the
    printed form: ``*`` on a significant Δ, VAR(Δ) to two significant digits."""
    if row == "Δ":
        value = group[f"delta_{metric}_mean"]
        return f"{value:.3f}{'*' if group[f'significant_{metric}'] else ''}" if marked else value
    if row == "VAR(Δ)":
        variance = group.get(f"delta_{metric}_var")
        if _missing(variance):
            return NOT_MEASURED
        # Variances over seeds are often below 0.001: three decimals would print a measured 0.000.
        return f"{variance:.2g}" if marked else variance
    if row == "Δ 95% CI":
        return "[{:.3f}, {:.3f}]".format(
            group[f"delta_{metric}_ci_low"], group[f"delta_{metric}_ci_high"]
        )
    split = {title: key for key, title in SPLIT_TITLES.items()}[row]
    value = group.get(f"{split}_{metric}_mean")
    return np.nan if _missing(value) else value


def result_table(result: Any, *, marked: bool = True) -> pd.DataFrame:
    """One evaluation: rows Test / Ori-Test / Anti-Test / Δ / VAR(Δ) / Δ 95% CI, a column per metric."""
    statistics = result.statistics
    return pd.DataFrame(
        {
            title: [statistic_cell(statistics, row, metric, marked) for row in TABLE9_ROWS]
            for metric, title in metric_titles(split_metric_names()).items()
        },
        index=list(TABLE9_ROWS),
    )


def per_label_table(result: Any) -> pd.DataFrame:
    """Mean accuracy within each true label, per evaluated split."""
    splits = result.summary["splits"]
    return pd.DataFrame(
        {
            SPLIT_TITLES[s]: [splits[s]["per_label_accuracy"][str(v)] for v in result.labels]
            for s in SPLIT_TITLES
            if s in splits
        },
        index=[str(v) for v in result.labels],
    ).T


def with_mitigations(groups: pd.DataFrame) -> bool:
    """Whether rows need a mitigation level: the groups hold a method other than plain erm."""
    return "mitigation" in groups and bool((groups["mitigation"] != "erm").any())


def table1(groups: pd.DataFrame, *, marked: bool = False) -> pd.DataFrame:
    """Table-1 style at each dataset's strongest λ: rows (model, [mitigation,] dataset, shortcut),
    columns Test / Anti / Δ for every per-split metric (accuracy, macro-F1). ``marked`` appends
    ``*`` to significant drops."""
    strongest = groups.groupby("dataset")["strength"].transform("max")
    top = groups[groups["strength"] == strongest]
    titles = metric_titles(split_metric_names())
    columns = pd.MultiIndex.from_product([list(titles.values()), ["Test", "Anti", "Δ"]])
    names = ["model", *(["mitigation"] if with_mitigations(groups) else []), "dataset", "shortcut"]
    rows = []
    for _, group in top.iterrows():
        values: list[Any] = []
        for metric in titles:
            values += [
                statistic_cell(group, "Test", metric, marked),
                statistic_cell(group, "Anti-Test", metric, marked),
                statistic_cell(group, "Δ", metric, marked),
            ]
        rows.append((tuple(group[n] for n in names), values))
    index = pd.MultiIndex.from_tuples([r[0] for r in rows], names=names)
    return pd.DataFrame([r[1] for r in rows], index=index, columns=columns)


def maze_table(
    groups: pd.DataFrame, *, metric: str = "accuracy", marked: bool = False
) -> pd.DataFrame:
    """Table-9 style: rows (dataset, model, [mitigation,] shortcut, Test / Ori-Test / Anti-Test /
    Δ / VAR(Δ) / Δ 95% CI), columns λ (descending). ``groups`` holds tidy statistics rows."""
    check_choice("metric", metric, split_metric_names())
    if not isinstance(groups, pd.DataFrame) or groups.empty:
        raise ConfigError(
            "maze_table needs a DataFrame of group statistics (RunResults.groups, or "
            "EvaluationResult.to_frame() for one evaluation)."
        )
    # Split files evaluated as they are may not know their shortcut or λ: a "—" row or column.
    groups = groups.assign(
        shortcut=[NOT_MEASURED if _missing(v) else v for v in groups["shortcut"]],
        strength=[NOT_MEASURED if _missing(v) else v for v in groups["strength"]],
    )
    known = {s for s in groups["strength"] if s != NOT_MEASURED}
    unknown = [NOT_MEASURED] if len(known) < len(set(groups["strength"])) else []
    strengths = sorted(known, reverse=True) + unknown
    levels = ["dataset", "model", *(["mitigation"] if with_mitigations(groups) else []), "shortcut"]
    index, data = [], []
    for keys, part in groups.groupby(levels, sort=False):
        by_strength = {row["strength"]: row for _, row in part.iterrows()}
        for name in TABLE9_ROWS:
            index.append((*keys, name))
            data.append(
                [
                    statistic_cell(by_strength[s], name, metric, marked)
                    if s in by_strength
                    else np.nan
                    for s in strengths
                ]
            )
    return pd.DataFrame(
        data,
        index=pd.MultiIndex.from_tuples(index, names=[*levels, "row"]),
        columns=pd.Index(strengths, name="λ"),
    )


def drop_constant_levels(table: pd.DataFrame) -> pd.DataFrame:
    """Leave out leading index levels with one value (the one dataset and model of the demo)."""
    constant = [
        name
        for position, name in enumerate(table.index.names[:-2])
        if table.index.get_level_values(position).nunique() == 1
    ]
    return table.droplevel(constant) if constant else table


def table_notes(groups: pd.DataFrame, *, marked: bool = True) -> list[str]:
    """Footnotes saying what the figures of these groups' tables account for."""
    notes = []
    if marked:
        notes.append(
            f"* significant drop: Holm–Bonferroni-adjusted p < 0.05 over the {len(groups)} "
            f"test{'s' if len(groups) != 1 else ''} of this family, per metric. {p_value_note()}"
        )
    one_fit = groups["ci_resamples"] == "rows"
    if not one_fit.all():
        notes.append(
            "Δ 95% CI: two-level percentile bootstrap over the paired test rows and the distinct "
            "fits (seeds, builds)"
            + ("; where VAR(Δ) is —, over the rows only." if one_fit.any() else ".")
        )
    else:
        notes.append(
            "Δ 95% CI: percentile bootstrap over the paired test rows only, conditional on the "
            "fitted model: training and data-draw variance are not included."
        )
    if groups["delta_accuracy_var"].isna().any():
        notes.append(nothing_varied_note("VAR(Δ)"))
    return notes


def nothing_varied_note(spread: str) -> str:
    """The footnote of every table that prints a spread as ``—`` (NOT_MEASURED)."""
    return (
        f"{NOT_MEASURED} : nothing varied between seeds (one distinct fit of one benchmark build: "
        f"the seeds shared one fit, or their fits predicted the same labels), so {spread} is not "
        f"measured. Use {knob('vary', 'data')} or {knob('vary', 'both')}, or a model that "
        "depends on its seed."
    )


def p_value_note() -> str:
    """How each per-split metric's p-value is computed ("Accuracy p: the largest exact McNemar p
    over distinct fits; macro-F1 p: a normal approximation on the bootstrap standard error.")."""
    parts = []
    for name in split_metric_names():
        metric = METRICS.get(name)
        parts.append(
            f"{metric.title[0].lower()}{metric.title[1:]} p: {PAIRED_TESTS[metric.paired_test]}"
        )
    sentence = "; ".join(parts)
    return f"{sentence[:1].upper()}{sentence[1:]}."


def tidy_text(groups: pd.DataFrame, fmt: str) -> str:
    """The tidy statistics as CSV or JSON records (NaN as an empty field / null)."""
    check_choice("format", fmt, ("csv", "json"))
    if fmt == "csv":
        return csv_text(groups, for_people=True)
    plain = groups.astype(object).where(groups.notna(), None).to_dict(orient="records")
    return json.dumps(plain, indent=1, ensure_ascii=False, default=_json_value) + "\n"


def _json_value(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


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
    "<": r"$<$",
    ">": r"$>$",
}
_LATEX_SYMBOLS = {
    "Δ": r"$\Delta$",
    "δ": r"$\delta$",
    "ζ": r"$\zeta$",
    "λ": r"$\lambda$",
    "±": r"$\pm$",
    "−": "-",
}


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


def render(table: pd.DataFrame, fmt: str, *, digits: int = 3, notes: Sequence[str] = ()) -> str:
    """A paper-layout table as Markdown (``md``) or LaTeX (``latex``), its footnotes below it."""
    check_choice("format", fmt, ("md", "latex"))
    if fmt == "md":
        return to_markdown(table, digits=digits) + "".join(f"\n{note}\n" for note in notes)
    return to_latex(table, digits=digits) + "".join(
        f"\\par\\smallskip{{\\footnotesize {latex_escape(note)}}}\n" for note in notes
    )
