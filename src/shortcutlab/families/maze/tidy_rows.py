"""Where the Maze figures sit in its wide rows, for the long table (:mod:`shortcutlab.reports.tidy`).

A group's wide row is :func:`shortcutlab.engine.summary.group_statistics`'s; a seed's is
:func:`flat_scores` of its stored scores (``RunResults.cells`` and ``EvaluationResult.runs``).
Δ rows have the split ``delta`` (test − anti-test on the paired rows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from shortcutlab.engine.cell import EVAL_SPLITS
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.metrics.catalog import MCNEMAR
from shortcutlab.reports.tidy import CELL_COLUMNS, DELTA, Measure, long_table

#: What a seed's long rows add to a group's: the seed, and the label of a predicted-label share.
SEED_IDENTITY = (*CELL_COLUMNS, "seed")
SEED_KEYS = ("label",)
#: The descriptions of a split that a seed's scores may carry, by their wide column suffix.
SEED_DESCRIPTIONS = ("confidence", "confident_accuracy", "ece")


def group_long_table(wide: pd.DataFrame | Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The long table of Maze group rows: each split's mean per metric, then Δ with its interval."""
    measures = [
        Measure(
            split, metric, f"{split}_{metric}_mean", std=f"{split}_{metric}_std", n="paired_rows"
        )
        for split in EVAL_SPLITS
        for metric in split_metric_names()
    ] + [
        Measure(
            DELTA,
            metric,
            f"delta_{metric}_mean",
            std=f"delta_{metric}_std",
            ci_low=f"delta_{metric}_ci_low",
            ci_high=f"delta_{metric}_ci_high",
            p=f"p_{metric}",
            p_adjusted=f"p_{metric}_holm",
            significant=f"significant_{metric}",
            n="paired_rows",
        )
        for metric in split_metric_names()
    ]
    return long_table(wide, measures)


def flat_scores(scores: Mapping[str, Any]) -> dict[str, Any]:
    """One seed's stored scores (``cell.score``'s record) as flat columns: per split each metric,
    its rows, invalid answers, each predicted label's share and verbalized confidence; per metric
    Δ; the exact McNemar p of the paired rows."""
    row: dict[str, Any] = {}
    for split in EVAL_SPLITS:
        if split not in scores["splits"]:
            continue
        values = scores["splits"][split]
        for metric in split_metric_names():
            row[f"{split}_{metric}"] = values[metric]
        row[f"{split}_rows"] = values.get("rows")
        row[f"{split}_invalid"] = values.get("invalid", 0)
        for label, count in values.get("label_distribution", {}).items():
            row[f"{split}_share:{label}"] = count / max(values["rows"], 1)
        if "confidence" in values:
            row[f"{split}_confidence"] = values["confidence"]["mean"]
            row[f"{split}_confident_accuracy"] = values["confidence"]["accuracy"]
            row[f"{split}_ece"] = values["confidence"]["ece"]
    for key, value in (scores.get("usage") or {}).items():
        row[f"usage_{key}"] = value
    for metric in split_metric_names():
        row[f"delta_{metric}"] = scores["delta"][metric]
    row["mcnemar_p"] = scores["mcnemar"]["p_value"]
    return row


def seed_long_table(seeds: pd.DataFrame) -> pd.DataFrame:
    """The long table of seed rows (:func:`flat_scores` columns with the cell's identity and
    ``seed``): each split's metrics and verbalized confidence, each predicted label's share
    (``label`` names it; ``invalid``: answers with no valid label), then Δ, with the seed's exact McNemar p where the metric's paired test is McNemar."""
    measures = []
    for split in EVAL_SPLITS:
        measures += [
            Measure(split, metric, f"{split}_{metric}", n=f"{split}_rows")
            for metric in (*split_metric_names(), *SEED_DESCRIPTIONS)
        ]
        prefix = f"{split}_share:"
        measures += [
            Measure(
                split,
                "predicted_share",
                column,
                n=f"{split}_rows",
                keys={"label": column[len(prefix) :]},
            )
            for column in seeds.columns
            if column.startswith(prefix)
        ]
    measures += [
        Measure(
            DELTA,
            metric,
            f"delta_{metric}",
            p="mcnemar_p" if METRICS.get(metric).paired_test == MCNEMAR else None,
            n="test_rows",
        )
        for metric in split_metric_names()
    ]
    table = long_table(seeds, measures, identity=SEED_IDENTITY, keys=SEED_KEYS)
    return table.dropna(subset=["estimate"]).reset_index(drop=True)


def evaluation_long_table(
    statistics: Mapping[str, Any], runs: Sequence[Mapping[str, Any]], *, per_seed: bool
) -> pd.DataFrame:
    """An evaluation's long table: of its group row ``statistics``, or of each seed's ``runs``."""
    if not per_seed:
        return group_long_table([statistics])
    cell = {column: statistics.get(column) for column in CELL_COLUMNS}
    return seed_long_table(
        pd.DataFrame([cell | {"seed": run["seed"]} | flat_scores(run) for run in runs])
    )
