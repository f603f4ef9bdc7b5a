"""``rewrite-quality``: people score a style rewrite next to its original on the Shortcut Maze's
four criteria (paper 000, appendix A.2.2, figure 7), each on a 1-5 scale: meaning and attitude
faithfulness, no added and no omitted information (5 = fully faithful / nothing added or left out).

Items come from a ``shortcutlab rewrite-quality`` output (rows.csv; its LLM judge's scores, when
it had one, are kept to compare) or from a style build (test rows paired with original_test).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.annotate.kinds import Choice, Field, Form, Item, Summary, TaskPlan
from shortcutlab.annotate.sources import is_benchmark, load_build, read_manifest, source_builds
from shortcutlab.annotate.task_base import ChoiceTask, check_sample, seeded_sample
from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.data.loading import ROW_ID, SHORTCUT, TEXT
from shortcutlab.errors import DataError
from shortcutlab.families.maze.rewrite_quality import CRITERIA
from shortcutlab.shortcuts import SHORTCUTS

ROWS_FILE = "rows.csv"
SCORES = ("1", "2", "3", "4", "5")
NEEDS = (
    "rewrite-quality needs a 'shortcutlab rewrite-quality --out DIR' folder (rows.csv) or a style "
    f"build ('shortcutlab build maze --shortcut {'|'.join(SHORTCUTS.having('family', 'style'))}')"
)
# Figure 7's questions, shortened; the scale ends as the paper words them.
PROMPTS = {
    "meaning": ("How similar are the meanings of the two texts?", "0 % similar", "100 % similar"),
    "attitude": ("How similar are the attitudes of the two texts?", "0 % similar", "100 % similar"),
    "no_added": ("Does the rewrite add information? How much?", "quite a lot", "none"),
    "no_omitted": ("Does the rewrite leave out information? How much?", "quite a lot", "none"),
}


def criteria_form() -> Form:
    fields = []
    for name in CRITERIA:
        question, low, high = PROMPTS[name]
        choices = tuple(
            Choice(
                value=s,
                text=s + (f" ({low})" if s == "1" else f" ({high})" if s == "5" else ""),
                key=s,
            )
            for s in SCORES
        )
        fields.append(Field(name=name, prompt=question, choices=choices))
    return Form(fields=tuple(fields))


class RewriteQualityTask(ChoiceTask):
    name = "rewrite-quality"
    description = (
        "Score style rewrites next to their originals on the Shortcut Maze's four criteria (1-5)."
    )

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        check_sample(sample, seed)
        source = Path(source)
        pairs = _quality_rows(source) if (source / ROWS_FILE).is_file() else _build_rows(source)
        pairs = pairs[pairs["rewrite"].notna() & (pairs["rewrite"].astype(str) != "")]
        pairs = pairs[pairs["rewrite"].astype(str) != pairs["original"].astype(str)]
        if pairs.empty:
            raise DataError(f"'{source}' holds no rewritten rows; {NEEDS}.")
        chosen = pairs.iloc[seeded_sample(len(pairs), sample, seed)]
        judge = [c for c in CRITERIA if c in chosen.columns]
        items = [
            Item(
                item_id=f"{record['style']}/{record[ROW_ID]}",
                payload={
                    "original": str(record["original"]),
                    "rewrite": str(record["rewrite"]),
                    "style": str(record["style"]),
                },
                reference={"row_id": int(record[ROW_ID]), "style": str(record["style"])}
                | {f"judge_{c}": _score(record[c]) for c in judge},
            )
            for record in chosen.to_dict("records")
        ]
        facts = {
            "rewritten_rows": len(pairs),
            "sampled": len(items),
            "styles": sorted(set(pairs["style"])),
        }
        return TaskPlan(
            kind=self.name, source=str(source), form=criteria_form(), items=items, facts=facts
        )

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        reference = {item.item_id: item.reference for item in plan.items}
        scored = answers.assign(
            style=[reference[i]["style"] for i in answers["item_id"]],
            score=answers["value"].astype(int),
        )
        rows = {}
        for (style, criterion), part in scored.groupby(["style", "field"], sort=True):
            counts = part["score"].value_counts()
            judge = [reference[i].get(f"judge_{criterion}") for i in part["item_id"].unique()]
            judge = [j for j in judge if j is not None]
            rows[(style, criterion)] = {
                "answers": len(part),
                "mean": float(part["score"].mean()),
                "sd": float(part["score"].std(ddof=1)) if len(part) > 1 else np.nan,
                **{s: int(counts.get(int(s), 0)) for s in SCORES},
                "judge_mean": float(np.mean(judge)) if judge else np.nan,
            }
        table = pd.DataFrame.from_dict(rows, orient="index")
        table.index = pd.MultiIndex.from_tuples(table.index, names=["style", "criterion"])
        table = table.loc[sorted(table.index, key=lambda k: (k[0], CRITERIA.index(k[1])))]
        if table["judge_mean"].isna().all():
            table = table.drop(columns="judge_mean")
        notes = [
            "Scores 1-5 per criterion (Shortcut Maze paper 000, A.2.2, figure 7): 5 = the same "
            "meaning / attitude, nothing added / left out. mean and sd over every answer "
            "(annotators pooled); columns 1-5 count the answers per score.",
        ]
        if "judge_mean" in table:
            notes.append("judge_mean: the rewrite-quality run's LLM judge on the same rows.")
        return Summary(
            kind=self.name,
            title="Rewrite quality as judged by people",
            tables={"criteria": ("Rewrite quality per style and criterion", table)},
            notes=notes,
        )


def _score(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def _quality_rows(source: Path) -> pd.DataFrame:
    rows = from_people_csv(pd.read_csv(source / ROWS_FILE, keep_default_na=False, na_values=[""]))
    missing = [c for c in (ROW_ID, "style", "original", "rewrite") if c not in rows.columns]
    if missing:
        raise DataError(f"'{source / ROWS_FILE}' lacks {', '.join(missing)}; {NEEDS}.")
    return rows


def _build_rows(source: Path) -> pd.DataFrame:
    if not is_benchmark(source):
        raise DataError(f"'{source}' holds no rewrites; {NEEDS}.")
    shortcut = read_manifest(source).get("arguments", {}).get("shortcut")
    if shortcut not in SHORTCUTS.having("family", "style"):
        raise DataError(f"'{source}' is a {shortcut or 'non-Maze'} build; {NEEDS}.")
    benchmark = load_build(source_builds(source)[0])
    test, original = benchmark["test"], benchmark["original_test"]
    originals = dict(zip(original[ROW_ID], original[TEXT], strict=True))
    return (
        pd.DataFrame(
            {
                ROW_ID: test[ROW_ID].to_numpy(),
                "style": test[SHORTCUT].astype(str).to_numpy(),
                "original": [originals.get(r) for r in test[ROW_ID]],
                "rewrite": test[TEXT].to_numpy(),
            }
        )
        .sort_values([ROW_ID], kind="stable")
        .reset_index(drop=True)
    )


__all__ = ["RewriteQualityTask", "criteria_form"]
