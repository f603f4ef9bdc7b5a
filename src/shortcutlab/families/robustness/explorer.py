"""A robustness run's flipped rows in the report's row explorer: one explorer cell per fit
(dataset, model, seed), each row an original test row beside its perturbed version, the gold
label and the prediction before and after, filterable by perturbation class."""

from __future__ import annotations

from typing import Any

import pandas as pd

from shortcutlab.data.column_names import ROW_ID
from shortcutlab.families.maze.explorer_rows import CHANGES, NO_ANSWER
from shortcutlab.families.robustness.tables import FIT
from shortcutlab.reports.html.document import ExplorerCell, ExplorerRow, RowExplorer

NAME = "robustness-flipped"
TITLE = "Rows whose prediction flipped"


def flipped_explorer(classes: pd.DataFrame, flipped: pd.DataFrame, kept: int) -> RowExplorer | None:
    """The explorer of ``flipped`` (the rows each cell kept, at most ``kept`` per cell);
    ``classes`` gives each class's count of flips, so a cell says how many were left out."""
    if flipped.empty:
        return None
    flips = classes.groupby(FIT, sort=False)["flips"].sum()
    cells = []
    for key, rows in flipped.groupby(FIT, sort=False):
        dataset, model, seed = key
        shown = [_row(row) for row in rows.to_dict("records")]
        total = int(flips.get(key, len(shown)))
        facts = [
            ("dataset", str(dataset)),
            ("model", str(model)),
            ("seed", str(seed)),
            ("flipped rows", f"{total} ({len(shown)} shown)"),
        ]
        title = f"{dataset} · {model} · seed {seed}"
        cells.append(
            ExplorerCell(f"{dataset}/{model}/{seed}", title, facts, shown, total - len(shown))
        )
    notes = [
        "Per fit, the perturbed test rows whose predicted label differs from their original's "
        "(paired by row id): broke = right on the original, wrong on the perturbed row; fixed = "
        "the reverse; changed = neither (wrong on both, or a DIR row right on both). A DIR class's perturbed row is right when it "
        "predicts the class's expected label (shown after the gold label).",
        f"Each cell (a fit's class) keeps its first {kept} flipped rows; the rest are counted.",
    ]
    return RowExplorer(
        NAME,
        TITLE,
        cells,
        notes,
        sides=("original", "perturbed"),
        group_name="perturbation class",
        groups=[str(name) for name in classes["perturbation"].unique()],  # the run's, in spec order
    )


def _row(row: dict[str, Any]) -> ExplorerRow:
    label = str(row["label"])
    expected = label if _missing(row.get("expected")) else str(row["expected"])
    before, after = _answer(row["predicted_original"]), _answer(row["predicted_perturbed"])
    right_before, right_after = before == label, after == expected
    # indices into CHANGES; a DIR row right on both sides (it followed the new label) is "changed"
    change = CHANGES[
        0 if right_before and not right_after else 1 if right_after and not right_before else 2
    ]
    return ExplorerRow(
        row_id=str(row[ROW_ID]),
        label=label if expected == label else f"{label} → {expected}",
        test_text=str(row["original_text"]),
        anti_text=str(row["perturbed_text"]),
        test_spans=[],
        anti_spans=[],
        test_prediction=before,
        anti_prediction=after,
        change=change,
        group=str(row["perturbation"]),
    )


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and pd.isna(value))


def _answer(value: Any) -> str:
    """A stored prediction as shown ("" or missing: the model gave no valid answer)."""
    return NO_ANSWER if _missing(value) or value == "" else str(value)
