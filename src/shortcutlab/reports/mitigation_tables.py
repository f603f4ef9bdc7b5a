"""Mitigation tables of a Maze run: the Shortcut Maze's Table 3 layout (Test / Anti / Δ per
mitigation) and each mitigation against erm on the same rows, with their footnotes.

Presentation only: every number comes from a tidy row of ``RunResults.groups`` or
``RunResults.comparisons`` (:mod:`shortcutlab.families.maze.mitigation_summary`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import ConfigError
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.metrics.catalog import MCNEMAR, PAIRED_TESTS
from shortcutlab.params import check_choice
from shortcutlab.reports.tables import statistic_cell

SETTING = ["dataset", "model", "shortcut", "strength"]
SETTING_NAMES = ["dataset", "model", "shortcut", "λ"]
TABLE3_COLUMNS = {"Test": "Test", "Anti": "Anti-Test", "Δ": "Δ"}
RESAMPLED = {"rows": "rows", "rows,fits": "rows, fits"}
SAME = "0 (same predictions)"
NOT_TESTED = "—"


def table3(groups: pd.DataFrame, *, metric: str = "accuracy", marked: bool = True) -> pd.DataFrame:
    """Rows (dataset, model, shortcut, λ), columns (mitigation, Test | Anti | Δ) in spec order;
    ``marked`` stars a significant drop (the Holm family of every group of the run)."""
    check_choice("metric", metric, split_metric_names())
    if groups.empty or "mitigation" not in groups:
        raise ConfigError("table3 needs the group statistics of a run (RunResults.groups).")
    mitigations = list(dict.fromkeys(groups["mitigation"]))
    found = {(*(row[c] for c in SETTING), row["mitigation"]): row for _, row in groups.iterrows()}
    settings = list(dict.fromkeys(tuple(row[c] for c in SETTING) for _, row in groups.iterrows()))
    data = [
        [
            statistic_cell(found[(*setting, mitigation)], row, metric, marked)
            if (*setting, mitigation) in found
            else np.nan
            for mitigation in mitigations
            for row in TABLE3_COLUMNS.values()
        ]
        for setting in settings
    ]
    return pd.DataFrame(
        data,
        index=pd.MultiIndex.from_tuples(settings, names=SETTING_NAMES),
        columns=pd.MultiIndex.from_product(
            [mitigations, list(TABLE3_COLUMNS)], names=["mitigation", ""]
        ),
    )


def vs_erm_table(comparisons: pd.DataFrame, *, metric: str = "accuracy") -> pd.DataFrame:
    """Rows (dataset, model, shortcut, λ, mitigation): the change of Δ against erm (``*``:
    significant after Holm) with its 95 % interval, what the interval resamples, its p and Holm
    p; the test-set change with its p (exact McNemar for accuracy) and Holm p."""
    check_choice("metric", metric, split_metric_names())
    index, data = [], []
    for _, row in comparisons.iterrows():
        index.append((*(row[c] for c in SETTING), row["mitigation"]))
        drop, test = f"delta_change_{metric}", f"test_change_{metric}"
        if row["same_predictions"]:
            data.append([SAME, *[NOT_TESTED] * 4, SAME, *[NOT_TESTED] * 2])
            continue
        data.append(
            [
                _signed(row[f"{drop}_mean"], row[f"significant_{drop}"]),
                f"[{row[f'{drop}_ci_low']:+.3f}, {row[f'{drop}_ci_high']:+.3f}]",
                RESAMPLED.get(row["ci_resamples"], row["ci_resamples"]),
                _p(row[f"p_{drop}"]),
                _p(row[f"p_{drop}_holm"]),
                _signed(row[f"{test}_mean"], row[f"significant_{test}"]),
                _p(row[f"p_{test}"]),
                _p(row[f"p_{test}_holm"]),
            ]
        )
    columns = [
        "Δ change",
        "95% CI",
        "CI over",
        "p",
        "p Holm",
        "Test change",
        "Test p",
        "Test p Holm",
    ]
    return pd.DataFrame(
        data,
        index=pd.MultiIndex.from_tuples(index, names=[*SETTING_NAMES, "mitigation"])
        if index
        else pd.MultiIndex.from_arrays([[]] * 5, names=[*SETTING_NAMES, "mitigation"]),
        columns=columns,
    )


def vs_erm_notes(comparisons: pd.DataFrame, *, metric: str = "accuracy") -> list[str]:
    """Footnotes of :func:`vs_erm_table`: what each figure is and what its interval accounts for."""
    if comparisons.empty:
        return []
    name = METRICS.get(metric).title
    tests = int((~comparisons["same_predictions"]).sum())
    baseline = comparisons["baseline"].iloc[0]
    test_p = (
        "exact McNemar on the test rows (the largest p over distinct fit pairs)"
        if METRICS.get(metric).paired_test == MCNEMAR
        else PAIRED_TESTS[METRICS.get(metric).paired_test]
    )
    notes = [
        f"Δ change = Δ(mitigation) − Δ({baseline}) in {name}, on the same rows and seeds; "
        f"negative: the mitigation narrows the drop. Test change = Test(mitigation) − "
        f"Test({baseline}): the cost on the test set.",
        f"* significant change (either sign): Holm–Bonferroni-adjusted p < 0.05 over the {tests} "
        f"comparison{'s' if tests != 1 else ''} of this run, for Δ change and for Test change "
        f"separately. Δ change p: a normal approximation on the paired bootstrap standard error; "
        f"Test p: {test_p}.",
    ]
    if comparisons["same_predictions"].any():
        notes.append(
            f"{SAME}: the mitigation predicted every test and anti-test row as {baseline} did, so "
            "there is no change to test (— : no interval or p; left out of the Holm family)."
        )
    rows_only = (comparisons["ci_resamples"] == "rows") & ~comparisons["same_predictions"]
    if rows_only.any():
        notes.append(
            "CI over rows: percentile bootstrap over the paired test / anti-test rows (one draw "
            "serves both methods), conditional on the fitted models: nothing varied between seeds "
            "(one fit each), so training variance is not included."
        )
    if ((comparisons["ci_resamples"] != "rows") & ~comparisons["same_predictions"]).any():
        notes.append(
            "CI over rows, fits: two-level percentile bootstrap over the paired rows and the "
            "distinct (mitigation, erm) fit pairs of the seeds."
        )
    return notes


def group_notes(groups: pd.DataFrame) -> list[str]:
    """Where the group-aware mitigations of the run read their groups from."""
    if "group_source" not in groups:
        return []
    read = groups[groups["group_source"].fillna("") != ""]
    if read.empty:
        return []
    notes = []
    for (source, labels), part in read.groupby(["group_source", "group_labels"], sort=False):
        methods = part.drop_duplicates("mitigation")
        readers = "; ".join(
            f"{row['mitigation']} on the {row['group_rows']} rows" for _, row in methods.iterrows()
        )
        notes.append(
            f"Groups: (label, value) from the '{source}' column, group_labels: {labels}; "
            f"read by {readers}."
        )
    return notes


def _signed(value: float, significant: Any) -> str:
    return f"{value:+.3f}{'*' if bool(significant) else ''}"


def _p(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.2g}"
