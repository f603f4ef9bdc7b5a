"""A Suite evaluation as the long table (:mod:`shortcutlab.reports.tidy`): one row per strategy ×
set × metric; ``split`` names the set, ``strategy`` the prompting strategy (empty for a fit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from shortcutlab.reports.tidy import CELL_COLUMNS, Measure, long_table

SUITE_IDENTITY = (*CELL_COLUMNS, "strategy")


def suite_long_table(results: Mapping[str, Any]) -> pd.DataFrame:
    """Each set's accuracy (per gold class on the 2-class sets) and its change against the
    standard set, with that test's p."""
    wide, measures = [], {}
    for run in results["strategies"]:
        for name, scored in run["sets"].items():
            change = scored.get("change") or {}
            wide.append(
                {
                    "dataset": results["suite"]["path"],
                    "model": results["model"]["name"],
                    "strategy": run["strategy"],
                    "rows": scored["rows"],
                    **{
                        f"{name}:{key}": scored.get(key)
                        for key in ("accuracy", "accuracy_entailment", "accuracy_non_entailment")
                    },
                    f"{name}:accuracy_change": change.get("delta"),
                    f"{name}:change_p": change.get("p_value"),
                    f"{name}:change_rows": change.get("rows_paired") or scored["rows"],
                }
            )
            measures[name] = [
                Measure(name, key, f"{name}:{key}", n="rows")
                for key in ("accuracy", "accuracy_entailment", "accuracy_non_entailment")
            ] + [
                Measure(
                    name,
                    "accuracy_change",
                    f"{name}:accuracy_change",
                    p=f"{name}:change_p",
                    n=f"{name}:change_rows",
                )
            ]
    every = [m for ms in measures.values() for m in ms]
    table = long_table(wide, every, identity=SUITE_IDENTITY)
    return table.dropna(subset=["estimate"]).reset_index(drop=True)
