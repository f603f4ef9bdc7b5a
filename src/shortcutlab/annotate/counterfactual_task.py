"""``verify-counterfactual``: does a CAT counterfactual pair have the task's default label?

CAT (paper 003, §3.3) pairs a row's kept part x2 with another row's x1' and assumes the new pair
has the default label (§4.2: neutral for 3-class NLI, non-entailment, not-paraphrase, no-answer),
so an attentive model's prediction should change. §4.2 checks this by hand on 50 pairs per data
set; the assumption rate is the share of pairs where it holds (92-100 % on the paper's data sets,
70 % on SNLI, which it dropped: its limitations section). The pairs are those ``shortcutlab cat --export-check N``
wrote to ``check.csv``: the model predicted a non-default label on their original.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.annotate.kinds import Form, Item, Summary, TaskPlan
from shortcutlab.annotate.task_base import (
    INTERVAL_NOTE,
    ChoiceTask,
    check_sample,
    seeded_sample,
    share_table,
    yes_no_unsure,
)
from shortcutlab.data.loading import TEXT, TEXT_PAIR
from shortcutlab.errors import DataError
from shortcutlab.experiments.cat import CHECK, RESULTS
from shortcutlab.splits.cat import CHECK_COLUMNS

FIELD = "default_label_holds"
FIX = "run 'shortcutlab cat ... --out DIR --export-check 50' and pass DIR"


class VerifyCounterfactualTask(ChoiceTask):
    name = "verify-counterfactual"
    description = (
        "Judge CAT counterfactual pairs: the rate at which the default-label assumption holds."
    )

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        check_sample(sample, seed)
        source = Path(source)
        check = source / CHECK
        if not check.is_file():
            what = (
                "a CAT output without check.csv" if (source / RESULTS).is_file() else "no CAT pairs"
            )
            raise DataError(
                f"'{source}' holds {what}; verify-counterfactual judges CAT counterfactual pairs: {FIX}."
            )
        pairs = pd.read_csv(check, dtype=str, keep_default_na=False)
        missing = [c for c in CHECK_COLUMNS if c not in pairs.columns and c != "assumption_holds"]
        if missing or pairs.empty:
            raise DataError(
                f"'{check}' is not a CAT check file ({'missing ' + ', '.join(missing) if missing else 'no rows'}); {FIX}."
            )
        defaults = sorted(set(pairs["default_label"]))
        if len(defaults) != 1:
            raise DataError(
                f"'{check}' names several default labels ({', '.join(defaults)}); {FIX}."
            )
        chosen = pairs.iloc[seeded_sample(len(pairs), sample, seed)]
        items = [
            Item(
                item_id=f"{record['row_id']}<-{record['donor_row_id']}",
                payload={
                    "text": record[TEXT],
                    "text_pair": record[TEXT_PAIR],
                    "default_label": defaults[0],
                },
                reference={
                    column: record[column]
                    for column in CHECK_COLUMNS
                    if column not in (TEXT, TEXT_PAIR, "assumption_holds")
                },
            )
            for record in chosen.to_dict("records")
        ]
        form = Form(
            fields=(
                yes_no_unsure(
                    FIELD,
                    f"Does this pair have the label '{defaults[0]}' (no relation between the two parts)?",
                ),
            )
        )
        facts = {
            "default_label": defaults[0],
            "pairs_in_check_file": len(pairs),
            "sampled": len(items),
        }
        return TaskPlan(kind=self.name, source=str(source), form=form, items=items, facts=facts)

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        table = share_table(answers, FIELD, "assumption_rate")
        return Summary(
            kind=self.name,
            title=f"CAT label-flip assumption: does a counterfactual pair have the label '{plan.facts['default_label']}'?",
            tables={"assumption": ("Assumption rate (CAT §4.2)", table)},
            notes=[
                "assumption_rate = yes / (yes + no); unsure answers are counted but left out. CAT "
                "(paper 003, §4.2) found 92-100 % on its data sets and dropped SNLI at 70 %.",
                INTERVAL_NOTE,
            ],
        )


__all__ = ["VerifyCounterfactualTask"]
