"""Results of a CAT run: one row per cell, one per (dataset, model, augment) group.

A group's attentiveness pools the per-set figures of all its seeds (k sets each): the mean and the
sample standard deviation over those sets (paper 003 reports mean ± std over k = 5 draws). The
accuracy is the mean over seeds; with one seed (or a model that ignores its seed) nothing varied
between fits and its spread is ``None`` (printed ``—``). An augmented group also carries its
accuracy change against the plain fit of the same model and seed, tested on the paired test rows
(exact McNemar; section 6 asks whether augmentation keeps accuracy).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.engine.cell import predicted_labels
from shortcutlab.engine.store import ResultStore
from shortcutlab.metrics import mcnemar_exact
from shortcutlab.metrics.attentiveness import spread
from shortcutlab.reports.html.document import Block
from shortcutlab.reports.html.notebook import RunResultsView
from shortcutlab.reports.tidy import CELL_COLUMNS, Measure, long_table

GROUP = ("dataset", "model", "augment")


@dataclass(repr=False)  # the short repr of RunResultsView
class CatRunResults(RunResultsView):
    """What ``shortcutlab results`` shows of a CAT run, as DataFrames."""

    run_dir: Path
    spec: dict[str, Any]
    cells: pd.DataFrame
    groups: pd.DataFrame

    family = "cat"

    def report_tables(self) -> list[Block]:
        from shortcutlab.families.cat.report import table_blocks

        return table_blocks(self)

    def long_table(self, *, per_seed: bool) -> pd.DataFrame:
        """On the test rows: accuracy, attentiveness (over the k sets), the partial-input and
        majority baselines, and an augmented group's accuracy change against the plain fit."""
        spread = {} if per_seed else {"std": "accuracy_std"}
        measures = [
            Measure("test", "accuracy", "accuracy", **spread),
            Measure("test", "attentiveness", "attentiveness", std="attentiveness_std"),
            Measure(
                "test",
                "partial_input_accuracy",
                "partial_input_accuracy",
                p="partial_vs_majority_p",
            ),
            Measure("test", "majority_accuracy", "majority_accuracy"),
            Measure("test", "accuracy_change", "accuracy_change", p="accuracy_change_p"),
        ]
        identity = (*CELL_COLUMNS, "augment", *(("seed",) if per_seed else ()))
        frame = self.cells if per_seed else self.groups
        table = long_table(frame, measures, identity=identity)
        return table.dropna(subset=["estimate"]).reset_index(drop=True)


def load_cat_results(
    run_dir: Path, store: ResultStore, spec: dict[str, Any], *, bootstrap: int | None = None
) -> CatRunResults:
    """Per-cell and per-group CAT figures of a run folder's current cells."""
    frame = store.spec_cells()
    cells = pd.DataFrame([_cell_row(record) for record in frame.itertuples()])
    order = {m["id"]: i for i, m in enumerate(spec.get("models", []))}
    cells = cells.sort_values(
        ["dataset", "model", "augment", "seed"],
        key=lambda c: c.map(order) if c.name == "model" else c,
    ).reset_index(drop=True)
    changes = _augmentation_changes(store, cells)
    groups = [
        _group_row(keys, part) | changes.get(keys, {})
        for keys, part in cells.groupby(list(GROUP), sort=False)
    ]
    return CatRunResults(run_dir=run_dir, spec=spec, cells=cells, groups=pd.DataFrame(groups))


def _augmentation_changes(store: ResultStore, cells: pd.DataFrame) -> dict[tuple, dict[str, Any]]:
    """Per augmented group: the mean accuracy change against the plain fit of the same seed and
    the largest exact McNemar p over those seeds (every seed must reject), on paired test rows."""
    changes: dict[tuple, dict[str, Any]] = {}
    for (dataset, model), part in cells.groupby(["dataset", "model"], sort=False):
        plain = part[~part["augment"]].set_index("seed")
        augmented = part[part["augment"]].set_index("seed")
        seeds = sorted(set(plain.index) & set(augmented.index))
        if not seeds:
            continue
        deltas, p_values = [], []
        for seed in seeds:
            _, truth = store.rows(plain.at[seed, "benchmark_id"], "test")
            correct = [
                predicted_labels(store.probabilities(cell_id, "test")) == truth
                for cell_id in (augmented.at[seed, "cell_id"], plain.at[seed, "cell_id"])
            ]
            deltas.append(float(correct[0].mean() - correct[1].mean()))
            p_values.append(mcnemar_exact(correct_a=correct[0], correct_b=correct[1])["p_value"])
        changes[(dataset, model, True)] = {
            "accuracy_change": float(np.mean(deltas)),
            "accuracy_change_p": float(max(p_values)),
        }
    return changes


def _cell_row(record: Any) -> dict[str, Any]:
    metrics = record.metrics
    cat = metrics["attentiveness"]
    base = metrics["baselines"]
    return {
        "cell_id": record.cell_id,
        "benchmark_id": record.benchmark_id,
        "dataset": record.dataset,
        "model": record.model,
        "augment": bool(metrics["config"]["augment"]),
        "seed": int(record.seed),
        "default_label": metrics["config"]["default_label"],
        "accuracy": metrics["accuracy"]["value"],
        "attentiveness": cat["mean"],
        "attentiveness_std": cat["std"],
        "per_set": cat["per_set"],
        "rows_kept": cat["rows_kept"],
        "rows_total": cat["rows_total"],
        "partial_input_accuracy": base["partial_input"]["value"],
        "majority_accuracy": base["majority"]["value"],
        "partial_vs_majority_p": base["partial_vs_majority"]["p_value"],
        "naive_partial_input_accuracy": base["naive_partial_input"]["value"],
    }


def _group_row(keys: tuple[Any, ...], part: pd.DataFrame) -> dict[str, Any]:
    sets = [value for per_set in part["per_set"] for value in per_set]
    accuracies = part["accuracy"].tolist()
    return dict(zip(GROUP, keys, strict=True)) | {
        "seeds": len(part),
        "accuracy": float(np.mean(accuracies)),
        "accuracy_std": spread(accuracies) if len(set(accuracies)) > 1 else None,
        "attentiveness": float(np.mean(sets)),
        "attentiveness_std": spread(sets),
        "sets": len(sets),
        "rows_kept": float(part["rows_kept"].mean()),
        "partial_input_accuracy": float(part["partial_input_accuracy"].mean()),
        "majority_accuracy": float(part["majority_accuracy"].mean()),
        "partial_vs_majority_p": float(part["partial_vs_majority_p"].max()),
    }
