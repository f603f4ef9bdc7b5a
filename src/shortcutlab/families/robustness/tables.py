"""The tables of robustness figures: the long tidy table (:mod:`shortcutlab.reports.tidy`), the
per-class table the terminal, tables.md and the HTML report show, and the files ``save`` writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.reports.tidy import CELL_COLUMNS, Measure, long_table

#: The long table's identifying columns: every cell's, and the class's kind (INV or DIR).
ROBUSTNESS_IDENTITY = (*CELL_COLUMNS, "kind")
#: The per-class table's columns (title -> figure), in order.
CLASS_COLUMNS = {
    "kind": "kind",
    "rows": "rows",
    "accuracy original": "accuracy_original",
    "accuracy perturbed": "accuracy_perturbed",
    "drop": "drop",
    "drop 95% CI": None,
    "McNemar p (Holm)": "p_mcnemar_holm",
    "flip rate": "flip_rate",
    "moved to expected": "moved_to_expected",
    "p (moved > 1/K)": "p_expected",
}


def _measures(name: str) -> list[Measure]:
    return [
        Measure(name, "accuracy_original", f"{name}:accuracy_original", n=f"{name}:rows"),
        Measure(name, "accuracy_perturbed", f"{name}:accuracy_perturbed", n=f"{name}:rows"),
        Measure(
            name,
            "accuracy_drop",
            f"{name}:drop",
            ci_low=f"{name}:drop_ci_low",
            ci_high=f"{name}:drop_ci_high",
            p=f"{name}:p_mcnemar",
            p_adjusted=f"{name}:p_mcnemar_holm",
            n=f"{name}:rows",
        ),
        Measure(name, "flip_rate", f"{name}:flip_rate", n=f"{name}:rows"),
        Measure(
            name,
            "moved_to_expected",
            f"{name}:moved_to_expected",
            p=f"{name}:p_expected",
            n=f"{name}:expected_rows",
        ),
    ]


def long_table_of(
    classes: pd.DataFrame, *, dataset: Any, model: Any, seed: int | None = None
) -> pd.DataFrame:
    """One row per class × metric: ``split`` names the class, ``kind`` is INV or DIR (a wide
    row holds its own class's figures only, so ``long_table`` writes that class's measures)."""
    wide, measures = [], []
    for record in classes.to_dict(orient="records"):
        name = record["perturbation"]
        figures = {f"{name}:{key}": value for key, value in record.items()}
        wide.append(
            {"dataset": dataset, "model": model, "kind": record["kind"], "seed": seed, **figures}
        )
        measures += _measures(name)
    identity = ROBUSTNESS_IDENTITY if seed is None else (*ROBUSTNESS_IDENTITY, "seed")
    table = long_table(wide, measures, identity=identity)
    table = table.dropna(subset=["estimate"]).reset_index(drop=True)
    table["interval"] = table["interval"].where(table["ci_low"].notna(), None)
    return table


def class_frame(classes: pd.DataFrame) -> pd.DataFrame:
    """The per-class table as shown: one row per class, figures rounded, the interval as text."""
    rows = {}
    for record in classes.to_dict(orient="records"):
        shown = {}
        for title, key in CLASS_COLUMNS.items():
            if key is None:
                low, high = record.get("drop_ci_low"), record.get("drop_ci_high")
                shown[title] = "" if pd.isna(low) else f"[{low:+.3f}, {high:+.3f}]"
            else:
                shown[title] = _shown(record.get(key))
        rows[record["perturbation"]] = shown
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(CLASS_COLUMNS))
    frame.index.name = "perturbation"
    return frame


def _shown(value: Any) -> Any:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "—"
    if isinstance(value, float):
        return f"{value:.3g}" if value < 0.001 and value > 0 else f"{value:.3f}"
    return value


def tables_markdown(classes: pd.DataFrame, flipped: pd.DataFrame) -> str:
    """tables.md: the per-class table and how many rows flipped per class."""
    parts = [
        "# Perturbation robustness",
        "",
        class_frame(classes).to_markdown(),
        "",
        "Drop: accuracy on the original rows minus on their perturbed rows (the changed rows "
        "only), with a 95 % paired bootstrap interval; McNemar's exact p, Holm-adjusted over the "
        "classes. DIR classes: the share of rows moved to the expected label, one-sided exact "
        "binomial p against 1/K.",
        "",
        f"{len(flipped)} rows flipped (flipped.csv).",
        "",
    ]
    return "\n".join(parts)


def write_tables(classes: pd.DataFrame, flipped: pd.DataFrame, out: Path) -> list[Path]:
    """classes.csv, flipped.csv and tables.md in ``out``."""
    written = [out / "classes.csv", out / "flipped.csv", out / "tables.md"]
    written[0].write_text(classes.to_csv(index=False), encoding="utf-8")
    written[1].write_text(flipped.to_csv(index=False), encoding="utf-8")
    written[2].write_text(tables_markdown(classes, flipped), encoding="utf-8")
    return written
