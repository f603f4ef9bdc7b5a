"""What every task's summary holds besides its own tables: each annotator's progress and the
agreement between annotators where two or more judged the same items.

Agreement is Cohen's κ for two annotators (on the items both answered) and Fleiss' κ for three or
more; Fleiss needs the same number of raters per item, so it uses the items with the most common
rater count (ties: the larger count) and says how many items with another count it dropped.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from shortcutlab.annotate.kinds import Form, Summary, TaskPlan
from shortcutlab.annotate.task_base import field_answers
from shortcutlab.metrics.agreement import (
    category_counts,
    cohen_kappa,
    fleiss_kappa,
    observed_agreement,
)

AGREEMENT_NOTE = (
    "κ treats the choices as nominal categories (on a 1-5 scale, 4 vs 5 counts as much as 1 vs 5); "
    "— where fewer than two annotators judged the same items or every answer was the same."
)


def progress_table(plan: TaskPlan, answers: pd.DataFrame) -> pd.DataFrame:
    """Per annotator: items answered, of how many, and the share."""
    total = len(plan.items)
    answered = answers.drop_duplicates(["item_id", "annotator"]).groupby("annotator").size()
    table = pd.DataFrame(
        {
            "answered": answered.astype(int),
            "items": total,
            "share": answered / total if total else np.nan,
        }
    )
    table.index.name = "annotator"
    return table


def agreement_table(form: Form, answers: pd.DataFrame) -> pd.DataFrame | None:
    """One row per form field: the method, annotators, items used and dropped, observed
    agreement and κ; None when fewer than two annotators answered."""
    if answers["annotator"].nunique() < 2:
        return None
    rows = {}
    for field in form.fields:
        wide = field_answers(answers, field.name).pivot(
            index="item_id", columns="annotator", values="value"
        )
        rows[field.name] = _cohen(wide) if wide.shape[1] == 2 else _fleiss(wide)
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "field"
    return table


def _cohen(wide: pd.DataFrame) -> dict[str, object]:
    both = wide.dropna()
    row: dict[str, object] = {
        "method": "Cohen's κ",
        "annotators": 2,
        "raters_per_item": 2,
        "items": len(both),
        "dropped": len(wide) - len(both),
        "observed": np.nan,
        "kappa": np.nan,
    }
    if len(both):
        a, b = both.iloc[:, 0].tolist(), both.iloc[:, 1].tolist()
        row["observed"] = observed_agreement(list(zip(a, b, strict=True)))
        row["kappa"] = cohen_kappa(rater_a=a, rater_b=b)
    return row


def _fleiss(wide: pd.DataFrame) -> dict[str, object]:
    raters = wide.notna().sum(axis=1)
    shared = raters[raters >= 2]
    row: dict[str, object] = {
        "method": "Fleiss' κ",
        "annotators": wide.shape[1],
        "raters_per_item": np.nan,
        "items": 0,
        "dropped": len(wide),
        "observed": np.nan,
        "kappa": np.nan,
    }
    if shared.empty:
        return row
    counts = Counter(shared.tolist())
    size = max(counts, key=lambda n: (counts[n], n))
    used = wide.loc[raters[raters == size].index]
    ratings = [part.dropna().tolist() for _, part in used.iterrows()]
    table, _ = category_counts(ratings)
    row |= {
        "raters_per_item": int(size),
        "items": len(used),
        "dropped": len(wide) - len(used),
        "observed": observed_agreement(ratings),
        "kappa": fleiss_kappa(counts=table),
    }
    return row


def with_common_tables(summary: Summary, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
    """``summary`` with the progress table and, where it applies, the agreement table added."""
    tables = dict(summary.tables)
    tables["progress"] = ("Progress per annotator", progress_table(plan, answers))
    agreement = agreement_table(plan.form, answers)
    notes = list(summary.notes)
    if agreement is not None:
        tables["agreement"] = ("Agreement between annotators", agreement)
        notes.append(AGREEMENT_NOTE)
    return Summary(kind=summary.kind, title=summary.title, tables=tables, notes=notes)


__all__ = ["AGREEMENT_NOTE", "agreement_table", "progress_table", "with_common_tables"]
