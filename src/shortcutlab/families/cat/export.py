"""Print and write a CAT run's table (``shortcutlab results`` on a CAT run folder).

``md`` and ``latex``: attentiveness (mean ± std over the k counterfactual sets of every seed,
paper 003 section 3.3) next to accuracy per dataset × model × augmentation, with the rows kept
and the hypothesis-only (partial-input) and majority baselines. ``csv`` and ``json``: the tidy
group figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.writing import write_table
from shortcutlab.families.maze.export import FORMATS, SUFFIX, TIDY, sections_text
from shortcutlab.params import check_choice
from shortcutlab.reports.tables import tidy_text

TITLE = "CAT attentiveness and accuracy per dataset × model (paper 003, Table 7 layout)"
NOTES = [
    "Attentiveness: share of kept rows (prediction not the default label) whose prediction "
    "changes when x1 comes from another row; mean ± sample std over the k sets of all seeds.",
    "Accuracy: mean over seeds; its ± is the std between seeds (— where no seed differed).",
    "p: exact McNemar, partial-input model vs majority baseline on the same test rows (the "
    "largest p over seeds).",
    "Accuracy change: the augmented fit minus the plain fit of the same model and seed, mean over "
    "seeds, with the exact McNemar p on the paired test rows (the largest over seeds).",
]


def percent_text(value: float | None) -> str:
    """A share as a percentage with one decimal, ``—`` when not measured.

    Examples:
        >>> percent_text(0.8567), percent_text(None)
        ('85.7', '—')
    """
    return "—" if value is None else f"{100 * value:.1f}"


def accuracy_text(entry: dict[str, Any]) -> str:
    """``81.0 [75.2, 86.0]``: a results.json accuracy entry with its 95 % interval."""
    low, high = entry["interval_95"]
    return f"{percent_text(entry['value'])} [{percent_text(low)}, {percent_text(high)}]"


def _percent(value: Any, spread: Any = None) -> str:
    if value is None or pd.isna(value):
        return "—"
    shown = f"{100 * value:.1f}"
    if spread is None or pd.isna(spread):
        return f"{shown} ± —"
    return f"{shown} ± {100 * spread:.1f}"


def _change(group: Any) -> str:
    change = getattr(group, "accuracy_change", None)
    if change is None or pd.isna(change):
        return "—"  # a plain fit, or no plain fit of the same seed to compare with
    return f"{100 * change:+.1f} ({group.accuracy_change_p:.2g})"


def cat_table(groups: pd.DataFrame) -> pd.DataFrame:
    """The paper-layout table: one row per dataset × model × augmentation."""
    rows = []
    for group in groups.itertuples():
        rows.append(
            {
                "dataset": group.dataset,
                "model": group.model,
                "CAT augmentation": "yes" if group.augment else "no",
                "accuracy": _percent(group.accuracy, group.accuracy_std),
                "attentiveness": _percent(group.attentiveness, group.attentiveness_std),
                "rows kept": f"{group.rows_kept:g}",
                "partial input": _percent(group.partial_input_accuracy).removesuffix(" ± —"),
                "majority": _percent(group.majority_accuracy).removesuffix(" ± —"),
                "p": f"{group.partial_vs_majority_p:.2g}",
                "accuracy change (p)": _change(group),
            }
        )
    return pd.DataFrame(rows).set_index(["dataset", "model", "CAT augmentation"])


def summary_frame(results: dict[str, Any]) -> pd.DataFrame:
    """One ``shortcutlab cat`` run as a table, in percent: accuracy and the baselines with their
    95 % interval, attentiveness (overall and per predicted label) with its sd over the k sets."""
    cat_ = results["attentiveness"]
    base = results["baselines"]
    rows: dict[str, dict[str, Any]] = {"accuracy": _interval_row(results["accuracy"])}
    rows["attentiveness"] = _spread_row(cat_["mean"], cat_["std"], cat_["rows_kept"])
    for label, entry in cat_["per_label"].items():
        rows[f"attentiveness, predicted {label}"] = _spread_row(
            entry["mean"], entry["std"], entry["rows"]
        )
    part = base["partial_input"]
    rows[f"partial input ({part['trained_on']} only)"] = {
        **_interval_row(part),
        "p vs majority": base["partial_vs_majority"]["p_value"],
    }
    rows[f"majority ({base['majority']['label']})"] = _interval_row(base["majority"])
    naive = base["naive_partial_input"]
    rows[f"naive partial input ({naive['evaluated_on']})"] = _interval_row(naive)
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "measure"
    columns = ["%", "95 % low", "95 % high", "± sd", "rows", "p vs majority"]
    return frame.reindex(columns=columns)


def _interval_row(entry: dict[str, Any]) -> dict[str, Any]:
    low, high = entry["interval_95"]
    return {"%": _pct(entry["value"]), "95 % low": _pct(low), "95 % high": _pct(high)}


def _spread_row(mean: Any, std: Any, rows: int) -> dict[str, Any]:
    return {"%": _pct(mean), "± sd": _pct(std), "rows": rows}


def _pct(value: Any) -> float:
    return float("nan") if value is None else 100 * float(value)


def tables(results: Any, fmt: str, metric: str = "accuracy", *, details: bool = True) -> str:
    """What ``shortcutlab results`` prints for a CAT run (one table: accuracy beside
    attentiveness, so ``metric`` changes nothing); its footnotes only with ``details``."""
    check_choice("format", fmt, FORMATS)
    if fmt in TIDY:
        return tidy_text(results.groups, fmt)
    return sections_text(table_sections(results), fmt, details=details)


def table_sections(
    results: Any, metric: str = "accuracy"
) -> list[tuple[str, pd.DataFrame, list[str]]]:
    """The one (title, table, footnotes) of a CAT run (``metric`` changes nothing)."""
    return [(TITLE, cat_table(results.groups), NOTES)]


def write(results: Any, out: Path, fmt: str) -> list[Path]:
    """Into ``out``: the table in ``fmt``, plus groups.csv and cells.csv."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / f"cat{SUFFIX[fmt]}"]
    written[0].write_text(tables(results, fmt), encoding="utf-8")
    for name, frame in (("groups", results.groups), ("cells", results.cells)):
        path = out / f"{name}.csv"
        write_table(frame, path, for_people=True)
        written.append(path)
    return written
