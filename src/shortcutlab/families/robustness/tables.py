"""The tables of robustness figures: the long tidy table (:mod:`shortcutlab.reports.tidy`), the
per-class table the terminal, tables.md and the HTML report show, and the files ``save`` writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.reports.tidy import CELL_COLUMNS, EXACT_INTERVAL, Measure, long_table

#: The columns naming one fit of a run (a model fitted once on one build).
FIT = ["dataset", "model", "seed"]
#: The long table's identifying columns: every cell's, and the class's kind (INV or DIR).
ROBUSTNESS_IDENTITY = (*CELL_COLUMNS, "kind")
#: The per-class table's columns (title -> figure), in order.
CLASS_COLUMNS = {
    "kind": "kind",
    "rows": "rows",
    "accuracy original": "accuracy_original",
    "accuracy perturbed": "accuracy_perturbed",
    "drop": "drop",
    "drop 95% CI": "drop",
    "McNemar p (Holm)": "p_mcnemar_holm",
    "flip rate": "flip_rate",
    "toward expected": "toward_expected",
    "toward 95% CI": "toward_expected",
    "sign p (Holm)": "p_toward_expected_holm",
    "label moved to expected": "moved_to_expected",
}
#: What the per-class table's figures are, under it wherever it is shown.
CLASS_NOTE = (
    "Per class, on the rows it changed: drop = original − perturbed accuracy, 95 % paired "
    "bootstrap interval (where no row's correctness changed, ± the exact 95 % upper bound on the "
    "share that could); McNemar's exact p, Holm-adjusted over the classes. DIR: toward expected "
    "= of the rows where the expected label's probability changed, the share where it went up "
    "(exact 95 % interval; exact two-sided sign test against 0.5, Holm over the DIR classes); "
    "label moved to expected = of the rows not predicted as the expected label, the share whose "
    "prediction switched to it."
)


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
        Measure(
            name,
            "flip_rate",
            f"{name}:flip_rate",
            ci_low=f"{name}:flip_rate_ci_low",
            ci_high=f"{name}:flip_rate_ci_high",
            n=f"{name}:rows",
        ),
        Measure(
            name,
            "toward_expected",
            f"{name}:toward_expected",
            ci_low=f"{name}:toward_expected_ci_low",
            ci_high=f"{name}:toward_expected_ci_high",
            p=f"{name}:p_toward_expected",
            p_adjusted=f"{name}:p_toward_expected_holm",
            n=f"{name}:direction_rows",
        ),
        Measure(name, "moved_to_expected", f"{name}:moved_to_expected", n=f"{name}:expected_rows"),
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
    table.loc[table["metric"].isin(["toward_expected", "flip_rate"]), "interval"] = EXACT_INTERVAL
    drops = table["metric"].eq("accuracy_drop") & table["interval"].notna()
    # A class without a discordant pair has an exact bound, not a bootstrap (statistics.py).
    said = {
        record["perturbation"]: record.get("drop_interval") for record in classes.to_dict("records")
    }
    table.loc[drops, "interval"] = [
        said.get(split) if isinstance(said.get(split), str) else interval
        for split, interval in zip(
            table.loc[drops, "split"], table.loc[drops, "interval"], strict=True
        )
    ]
    return table


def class_frame(classes: pd.DataFrame) -> pd.DataFrame:
    """The per-class table as shown: one row per class, figures rounded, the interval as text."""
    rows = {}
    for record in classes.to_dict(orient="records"):
        shown = {}
        for title, key in CLASS_COLUMNS.items():
            if title.endswith("95% CI"):
                low, high = record.get(f"{key}_ci_low"), record.get(f"{key}_ci_high")
                sign = "+" if key == "drop" else ""
                shown[title] = "—" if _missing(low) else f"[{low:{sign}.3f}, {high:{sign}.3f}]"
            else:
                shown[title] = _shown(record.get(key))
        rows[record["perturbation"]] = shown
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(CLASS_COLUMNS))
    frame.index.name = "perturbation"
    return frame


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and pd.isna(value))


def _shown(value: Any) -> Any:
    if _missing(value):
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
        CLASS_NOTE,
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
