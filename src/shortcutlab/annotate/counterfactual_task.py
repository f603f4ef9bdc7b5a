"""``verify-counterfactual``: does a CAT counterfactual pair have the task's default label?

CAT (paper 003, §3.3) pairs a row's kept part x2 with another row's x1' and assumes the new pair
has the default label (§4.2: neutral for 3-class NLI, non-entailment, not-paraphrase, no-answer),
so an attentive model's prediction should change. §4.2 checks this by hand on 50 pairs per data
set; the assumption rate is the share of pairs where it holds (92-100 % on the paper's data sets,
70 % on SNLI, which it dropped: its limitations section). The pairs are those ``shortcutlab cat --export-check N``
wrote to ``check.csv``, or those of a CAT grid run redrawn from its seed; either way the model
predicted a non-default label on their original.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.annotate.kinds import Form, Item, Summary, TaskPlan
from shortcutlab.annotate.sources import is_run
from shortcutlab.annotate.task_base import (
    INTERVAL_NOTE,
    POOLED_NOTE,
    ChoiceTask,
    check_sample,
    field_answers,
    pooled_share_table,
    seeded_sample,
    share_table,
    yes_no_unsure,
)
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.engine.run_folder import BENCHMARKS
from shortcutlab.engine.store import ResultStore
from shortcutlab.errors import DataError, listed
from shortcutlab.families import FAMILIES, run_family
from shortcutlab.families.cat.run import CHECK, RESULTS, counterfactual_seed
from shortcutlab.families.cat.runner import PLAIN
from shortcutlab.shortcuts.counterfactuals import (
    CHECK_COLUMNS,
    counterfactual_donors,
    counterfactual_frame,
)

FIELD = "default_label_holds"
FIX = (
    "pass a CAT run folder ('shortcutlab run' on a CAT spec) or run 'shortcutlab cat ... --out DIR "
    "--export-check 50' and pass DIR"
)


class VerifyCounterfactualTask(ChoiceTask):
    name = "verify-counterfactual"
    description = (
        "Judge CAT counterfactual pairs: the rate at which the default-label assumption holds."
    )

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        check_sample(sample, seed)
        source = Path(source)
        if is_run(source) and FAMILIES.capabilities(run_family(source))["counterfactuals"]:
            pairs = run_pairs(source)
        else:
            pairs = check_pairs(source)
        defaults = sorted(set(pairs["default_label"]))
        if len(defaults) != 1:
            raise DataError(f"'{source}' names several default labels ({listed(defaults)}); {FIX}.")
        chosen = pairs.iloc[seeded_sample(len(pairs), sample, seed)]
        items = [
            Item(
                item_id=f"{record['prefix']}{record['row_id']}<-{record['donor_row_id']}",
                payload={
                    "text": record[TEXT],
                    "text_pair": record[TEXT_PAIR],
                    "default_label": defaults[0],
                },
                reference={
                    column: record[column]
                    for column in chosen.columns
                    if column not in (TEXT, TEXT_PAIR, "assumption_holds", "prefix")
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
        facts = {"default_label": defaults[0], "pairs": len(pairs), "sampled": len(items)}
        return TaskPlan(kind=self.name, source=str(source), form=form, items=items, facts=facts)

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        table = share_table(answers, FIELD, "assumption_rate")
        tables = {"assumption": ("Assumption rate per annotator (CAT §4.2)", table)}
        notes = [
            "assumption_rate = yes / (yes + no); unsure answers are counted but left out. CAT "
            "(paper 003, §4.2) found 92-100 % on its data sets and dropped SNLI at 70 %.",
            INTERVAL_NOTE,
        ]
        if len(table) > 1:
            pooled = pooled_share_table(field_answers(answers, FIELD), "assumption_rate")
            tables["assumption_pooled"] = ("Assumption rate, all annotators pooled", pooled)
            notes.append(POOLED_NOTE)
        return Summary(
            kind=self.name,
            title=f"CAT label-flip assumption: does a counterfactual pair have the label '{plan.facts['default_label']}'?",
            tables=tables,
            notes=notes,
        )


def check_pairs(source: Path) -> pd.DataFrame:
    """The pairs ``shortcutlab cat --export-check N`` wrote (check.csv)."""
    check = source / CHECK
    if not check.is_file():
        what = "a CAT output without check.csv" if (source / RESULTS).is_file() else "no CAT pairs"
        raise DataError(
            f"'{source}' holds {what}; verify-counterfactual judges CAT counterfactual pairs: {FIX}."
        )
    pairs = from_people_csv(pd.read_csv(check, dtype=str, keep_default_na=False))
    missing = [c for c in CHECK_COLUMNS if c not in pairs.columns and c != "assumption_holds"]
    if missing or pairs.empty:
        raise DataError(
            f"'{check}' is not a CAT check file ({'missing ' + ', '.join(missing) if missing else 'no rows'}); {FIX}."
        )
    return pairs.assign(prefix="")


def run_pairs(source: Path) -> pd.DataFrame:
    """The first counterfactual set of each data set of a CAT grid run, redrawn from its seed
    (as the run drew it), over the test rows the model predicted a non-default label for (§3.3):
    the plain (not augmented) cell with the lowest seed per data set and model order."""
    with ResultStore.for_run(source) as store:
        cells = store.spec_cells()
        plain = cells[cells["shortcut"] == PLAIN].sort_values(
            ["dataset", "seed", "model"], kind="stable"
        )
        parts = []
        for _, cell in plain.drop_duplicates("dataset").iterrows():
            config = cell["metrics"]["config"]
            test = Benchmark.load(source / BENCHMARKS / cell["benchmark_id"])["test"]
            labels = [str(v) for v in cell["metrics"]["data"]["labels"]]
            stored_ids, _ = store.rows(cell["benchmark_id"], "test")
            predicted = predicted_labels(store.probabilities(cell["cell_id"], "test"))
            by_row = dict(zip(stored_ids.tolist(), predicted.tolist(), strict=True))
            ranks = np.array([by_row[int(r)] for r in test[ROW_ID]])
            default = str(config["default_label"])
            kept = np.flatnonzero((ranks >= 0) & (ranks != labels.index(default)))
            replace = config["replace"]
            donors = counterfactual_donors(
                test[replace].tolist(), k=1, seed=counterfactual_seed(int(config["seed"]))
            )[0]
            pairs = counterfactual_frame(test, donors, kept, replace)
            parts.append(
                pd.DataFrame(
                    {
                        "prefix": f"{cell['dataset']}/",
                        "dataset": cell["dataset"],
                        "row_id": pairs[ROW_ID].astype(str),
                        "donor_row_id": pairs["donor_row_id"].astype(str),
                        TEXT: pairs[TEXT].astype(str),
                        TEXT_PAIR: pairs[TEXT_PAIR].astype(str),
                        "replaced_text": test[replace].astype(str).to_numpy()[kept],
                        "gold_label": test[LABEL].astype(str).to_numpy()[kept],
                        "predicted_label": [labels[r] for r in ranks[kept]],
                        "default_label": default,
                    }
                )
            )
    if not parts:
        raise DataError(f"'{source}' has no finished plain CAT cell; {FIX}.")
    return pd.concat(parts, ignore_index=True)


__all__ = ["VerifyCounterfactualTask", "check_pairs", "run_pairs"]
