"""Where an audit's figures sit in its candidate table, for the long table
(:mod:`shortcutlab.reports.tidy`): one row per candidate × split × metric.

On ``train`` the scan's association (lift with its G-test p, PMI); on ``test`` the candidate's
lift there and, with a model, what it does: the accuracy gap between aligned and conflicting
rows, the shift of the candidate label's probability when the candidate is removed or inserted,
and the redistribution anti-test's accuracy gap.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from shortcutlab.reports.tidy import CELL_COLUMNS, EXACT_INTERVAL, Measure, long_table

AUDIT_IDENTITY = (*CELL_COLUMNS, "candidate", "label")
AUDIT_MEASURES = (
    Measure(
        "train",
        "lift",
        "lift",
        p="p_value",
        p_adjusted="p_adjusted",
        significant="significant",
        n="support",
    ),
    Measure("train", "pmi", "pmi", n="support"),
    Measure("test", "lift", "test_lift", n="test_support"),
    Measure("test", "aligned_accuracy", "aligned_accuracy", n="aligned_rows"),
    Measure("test", "conflicting_accuracy", "conflicting_accuracy", n="conflicting_rows"),
    Measure(
        "test",
        "accuracy_gap",
        "delta",
        ci_low="delta_low",
        ci_high="delta_high",
        p="delta_p",
        p_adjusted="delta_p_adjusted",
        n="delta_rows",
    ),
    *(
        Measure(
            "test",
            f"{edit}_label_shift",
            f"{edit}_label_shift",
            ci_low=f"{edit}_shift_low",
            ci_high=f"{edit}_shift_high",
            p=f"{edit}_label_p",
            p_adjusted=f"{edit}_label_p_adjusted",
            n=f"{edit}_rows",
        )
        for edit in ("removal", "insertion")
    ),
    *(
        Measure(
            "test",
            f"{edit}_flip_rate",
            f"{edit}_changed",
            ci_low=f"{edit}_changed_low",
            ci_high=f"{edit}_changed_high",
            n=f"{edit}_rows",
        )
        for edit in ("removal", "insertion")
    ),
    Measure(
        "anti_test",
        "accuracy_gap",
        "anti_delta",
        ci_low="anti_delta_low",
        ci_high="anti_delta_high",
        n="anti_rows",
    ),
)


def audit_long_table(table: pd.DataFrame, *, dataset: Any, model: Any) -> pd.DataFrame:
    """The ranked candidates of ``table`` as long rows (figures the audit did not measure,
    such as a model's without one, are left out)."""
    ranked = table[table["rank"].notna()].assign(dataset=dataset, model=model)
    long = long_table(ranked, AUDIT_MEASURES, identity=AUDIT_IDENTITY)
    long.loc[long["metric"].str.endswith("_flip_rate"), "interval"] = EXACT_INTERVAL
    return long.dropna(subset=["estimate"]).reset_index(drop=True)
