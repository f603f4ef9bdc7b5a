"""``verify-attribute``: is an MPS build's attribute (concept) label right for its text?

MPS (paper 002, §2.2 and A.2) checks a 10 % sample of the LLM concept labels by hand; its
annotators gave a 1-10 alignment score and counted 6 or more as aligned. Here a person answers
yes / no / unsure, and the annotator method's accuracy is the share of yes among the yes-or-no
answers (unsure left out), per annotator and per attribute value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.annotate.kinds import Form, Item, Summary, TaskPlan
from shortcutlab.annotate.sources import (
    is_run,
    load_build,
    read_manifest,
    source_builds,
)
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
from shortcutlab.data.loading import ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.errors import DataError
from shortcutlab.families import FAMILIES, family_of_manifest, run_family

FIELD = "correct"
NEEDS = (
    "verify-attribute needs an MPS build ('shortcutlab build mps') or an MPS run "
    "('shortcutlab run' on an MPS spec)"
)


def annotator_method(attribute: dict[str, Any]) -> str:
    """The attribute and, for the concept annotators, its method (llm, embedding, keywords)."""
    method = attribute.get("method")
    return f"{attribute.get('name')} ({method})" if method else str(attribute.get("name"))


class VerifyAttributeTask(ChoiceTask):
    name = "verify-attribute"
    description = (
        "Judge an MPS build's attribute (concept) labels: the annotator method's accuracy."
    )

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        check_sample(sample, seed)
        source = Path(source)
        if is_run(source) and not FAMILIES.capabilities(run_family(source))["attribute_groups"]:
            raise DataError(f"'{source}' is a {run_family(source)} run; {NEEDS}.")
        items: list[Item] = []
        facts: dict[str, Any] = {"builds": {}}
        for number, build in enumerate(source_builds(source, benchmark=options.get("benchmark"))):
            manifest = read_manifest(build.folder)
            column = manifest.get("column")
            built_by = family_of_manifest(str(manifest.get("kind")))  # a build names its kind
            grouped = (
                built_by is not None and FAMILIES.capabilities(built_by.name)["attribute_groups"]
            )
            if not grouped or not column:
                raise DataError(f"'{build.folder}' holds no attribute labels; {NEEDS}.")
            benchmark = load_build(build)
            rows = (
                pd.concat([benchmark[s] for s in benchmark.splits], ignore_index=True)
                .drop_duplicates(ROW_ID)
                .sort_values(ROW_ID, kind="stable")
            )
            rows = rows[rows[column].notna() & (rows[column].astype(str) != "")]
            chosen = rows.iloc[seeded_sample(len(rows), sample, seed + number)]
            attribute = manifest.get("attribute") or {"name": column}
            method = annotator_method(attribute)
            described = {
                str(c.get("name")): str(c.get("description") or "")
                for c in attribute.get("categories") or []
                if isinstance(c, dict)
            }
            facts["builds"][build.benchmark_id] = {
                "dataset": build.dataset,
                "attribute": method,
                "labelled_rows": len(rows),
                "sampled": len(chosen),
            }
            for record in chosen.to_dict("records"):
                payload = {"text": str(record[TEXT]), "concept": str(record[column])}
                if described.get(payload["concept"]):
                    payload["description"] = described[payload["concept"]]
                if record.get(TEXT_PAIR) is not None:
                    payload["text_pair"] = str(record[TEXT_PAIR])
                items.append(
                    Item(
                        item_id=f"{build.benchmark_id}/{record[ROW_ID]}",
                        payload=payload,
                        reference={
                            "value": str(record[column]),
                            "build": build.benchmark_id,
                            "dataset": build.dataset,
                            "attribute": method,
                            "row_id": int(record[ROW_ID]),
                        },
                    )
                )
        form = Form(
            fields=(
                yes_no_unsure(
                    FIELD,
                    "Is this concept label right for the text (does it summarise its core theme)?",
                ),
            )
        )
        return TaskPlan(kind=self.name, source=str(source), form=form, items=items, facts=facts)

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        reference = {item.item_id: item.reference for item in plan.items}
        judged = field_answers(answers, FIELD)
        judged = judged.assign(
            attribute=[reference[i]["attribute"] for i in judged["item_id"]],
            dataset=[reference[i]["dataset"] for i in judged["item_id"]],
            concept=[reference[i]["value"] for i in judged["item_id"]],
        )
        by_annotator = []
        for (dataset, attribute), part in judged.groupby(["dataset", "attribute"], sort=False):
            table = share_table(
                part.assign(field=FIELD)[["item_id", "annotator", "field", "value"]],
                FIELD,
                "accuracy",
            )
            table.index = pd.MultiIndex.from_tuples(
                [(dataset, attribute, who) for who in table.index],
                names=["dataset", "attribute", "annotator"],
            )
            by_annotator.append(table)
        per_value = pooled_share_table(judged, "accuracy", by=["dataset", "attribute", "concept"])
        tables = {
            "accuracy": (
                "Accuracy of the annotator method per annotator",
                pd.concat(by_annotator),
            )
        }
        if judged["annotator"].nunique() > 1:
            pooled = pooled_share_table(judged, "accuracy", by=["dataset", "attribute"])
            tables["accuracy_pooled"] = (
                "Accuracy of the annotator method, all annotators pooled",
                pooled,
            )
        tables["per_concept"] = ("Accuracy per concept label (all annotators pooled)", per_value)
        return Summary(
            kind=self.name,
            title="Accuracy of the attribute annotator, as judged by people",
            tables=tables,
            notes=[
                "accuracy = yes / (yes + no); unsure answers are counted but left out. MPS "
                "(paper 002, A.2) asked for a 1-10 alignment score and counted 6 or more as right.",
                INTERVAL_NOTE,
                POOLED_NOTE,
            ],
        )


__all__ = ["VerifyAttributeTask", "annotator_method"]
