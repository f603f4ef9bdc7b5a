"""Results of a run: per-cell metrics, per-group statistics over seeds, paper-style tables.

A group is (dataset, model, shortcut, λ). For each group: mean and standard deviation of every
metric over seeds, VAR(Δ), a paired bootstrap 95 % interval of the mean Δ, a p-value for the drop
(accuracy: the largest exact-McNemar p over seeds; macro-F1: the paired bootstrap), and the
Holm-Bonferroni adjustment across all groups of the grid, which decides the paper's ``*``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import DataError
from shortcutlab.experiments.cell import EVAL_SPLITS, METRICS, predicted_labels
from shortcutlab.experiments.store import ResultStore
from shortcutlab.metrics import bootstrap_deltas, bootstrap_p_value, holm, percentile_interval
from shortcutlab.registry import check_choice

ALPHA = 0.05
GROUP = ["dataset", "model", "shortcut", "strength"]
SPLIT_TITLES = {"test": "Test", "original_test": "Ori-Test", "anti_test": "Anti-Test"}
METRIC_TITLES = {"accuracy": "Accuracy", "macro_f1": "Macro-F1"}


@dataclass
class RunResults:
    """Everything ``shortcutlab results`` shows, as DataFrames."""

    run_dir: Path
    spec: dict[str, Any]
    cells: pd.DataFrame
    groups: pd.DataFrame

    def table1(self, *, marked: bool = False) -> pd.DataFrame:
        """Table-1 style at each dataset's strongest λ: rows (model, dataset, shortcut), columns
        Test / Anti / Δ for accuracy and macro-F1. ``marked`` appends ``*`` to significant drops."""
        strongest = self.groups.groupby("dataset")["strength"].transform("max")
        top = self.groups[self.groups["strength"] == strongest]
        columns = pd.MultiIndex.from_product([list(METRIC_TITLES.values()), ["Test", "Anti", "Δ"]])
        rows = []
        for _, g in top.iterrows():
            values: list[Any] = []
            for metric in METRICS:
                delta = g[f"delta_{metric}_mean"]
                values += [
                    g[f"test_{metric}_mean"],
                    g[f"anti_test_{metric}_mean"],
                    _mark(delta, g[f"significant_{metric}"]) if marked else delta,
                ]
            rows.append(((g["model"], g["dataset"], g["shortcut"]), values))
        index = pd.MultiIndex.from_tuples(
            [r[0] for r in rows], names=["model", "dataset", "shortcut"]
        )
        return pd.DataFrame([r[1] for r in rows], index=index, columns=columns)

    def table9(self, metric: str = "accuracy", *, marked: bool = False) -> pd.DataFrame:
        """Table-9 style: rows (dataset, model, shortcut, Test / Ori-Test / Anti-Test / Δ / VAR(Δ)), columns λ."""
        check_choice("metric", metric, METRICS)
        strengths = sorted(self.groups["strength"].unique(), reverse=True)
        row_names = ["Test", "Ori-Test", "Anti-Test", "Δ", "VAR(Δ)"]
        index, data = [], []
        for (dataset, model, shortcut), part in self.groups.groupby(
            ["dataset", "model", "shortcut"], sort=False
        ):
            by_strength = {row["strength"]: row for _, row in part.iterrows()}
            for name in row_names:
                index.append((dataset, model, shortcut, name))
                data.append(
                    [_table9_cell(by_strength.get(s), name, metric, marked) for s in strengths]
                )
        return pd.DataFrame(
            data,
            index=pd.MultiIndex.from_tuples(index, names=["dataset", "model", "shortcut", "row"]),
            columns=pd.Index(strengths, name="λ"),
        )

    def label_distribution(self) -> pd.DataFrame:
        """Share of each predicted label (and of invalid answers) per group and split, mean over seeds."""
        return self._per_split(
            lambda split: [c for c in self.cells.columns if c.startswith(f"{split}_share:")],
            "share:",
        )

    def calibration(self) -> pd.DataFrame:
        """Verbalized confidence vs accuracy and ECE per group and split (LLM cells that gave one)."""
        return self._per_split(
            lambda split: [
                f"{split}_{n}"
                for n in ("accuracy", "confidence", "ece", "invalid")
                if f"{split}_confidence" in self.cells
            ],
            "",
        )

    def usage(self) -> pd.DataFrame:
        """LLM usage summed per model: requests, cache hits, retries, failures, tokens."""
        columns = [c for c in self.cells.columns if c.startswith("usage_")]
        if not columns:
            return pd.DataFrame()
        # Seeds that shared one fit report the same usage once.
        distinct = (
            self.cells.drop_duplicates(["benchmark_id", "model"])
            if self.cells["shared_fit"].all()
            else self.cells
        )
        return (
            distinct.groupby("model", sort=False)[columns]
            .sum()
            .rename(columns=lambda c: c[len("usage_") :])
        )

    def _per_split(self, columns_of: Any, prefix: str) -> pd.DataFrame:
        """One row per (group, split), in table order, with the split's columns minus their prefix."""
        frames = []
        for split in EVAL_SPLITS:
            columns = columns_of(split)
            if not columns:
                continue
            part = self.cells.groupby(GROUP, sort=False)[columns].mean()
            part.columns = [c[len(split) + 1 :].removeprefix(prefix) for c in columns]
            frames.append(part.assign(split=SPLIT_TITLES[split]).set_index("split", append=True))
        if not frames:
            return pd.DataFrame()
        combined = pd.concat(frames)
        group_rank = {
            key: i for i, key in enumerate(self.groups[GROUP].itertuples(index=False, name=None))
        }
        split_rank = {title: i for i, title in enumerate(SPLIT_TITLES.values())}
        order = sorted(
            range(len(combined)),
            key=lambda i: (group_rank[combined.index[i][:-1]], split_rank[combined.index[i][-1]]),
        )
        return combined.iloc[order]

    def delta_frame(self, dataset: str, metric: str) -> pd.DataFrame:
        """Rows for the Δ-vs-λ figure of one dataset: series (shortcut / model), λ, Δ and its interval."""
        part = self.groups[self.groups["dataset"] == dataset]
        several_models = part["model"].nunique() > 1
        return pd.DataFrame(
            {
                "series": [
                    f"{s} / {m}" if several_models else s
                    for s, m in zip(part["shortcut"], part["model"], strict=True)
                ],
                "strength": part["strength"],
                "delta": part[f"delta_{metric}_mean"],
                "low": part[f"delta_{metric}_ci_low"],
                "high": part[f"delta_{metric}_ci_high"],
            }
        )


def _mark(value: float, significant: bool) -> str:
    return f"{value:.3f}{'*' if significant else ''}"


def _table9_cell(group: Any, name: str, metric: str, marked: bool) -> Any:
    if group is None:
        return np.nan
    if name == "Δ":
        value = group[f"delta_{metric}_mean"]
        return _mark(value, group[f"significant_{metric}"]) if marked else value
    if name == "VAR(Δ)":
        return group[f"delta_{metric}_var"]
    split = {v: k for k, v in SPLIT_TITLES.items()}[name]
    return group.get(f"{split}_{metric}_mean", np.nan)


def load_results(run_dir: str | Path, *, bootstrap: int | None = None) -> RunResults:
    """Read a run folder's store and compute the per-group statistics of the current spec's cells."""
    run_dir = Path(run_dir)
    with ResultStore.for_run(run_dir) as store:
        spec = store.spec()
        wanted = set(json.loads(store.meta("cell_ids") or "[]"))
        frame = store.cells()
        if wanted:
            frame = frame[frame["cell_id"].isin(wanted)]
        if frame.empty:
            raise DataError(
                f"'{run_dir}' has no finished cells yet. Run 'shortcutlab run' on its spec first."
            )
        cells = _flatten(frame, spec)
        groups = _groups(cells, store, bootstrap or int(spec.get("bootstrap", 1000)))
    return RunResults(run_dir=run_dir, spec=spec, cells=cells, groups=groups)


def _flatten(frame: pd.DataFrame, spec: dict[str, Any]) -> pd.DataFrame:
    rows = []
    for record in frame.itertuples():
        metrics = record.metrics
        row: dict[str, Any] = {
            c: getattr(record, c)
            for c in (
                "cell_id",
                "benchmark_id",
                "dataset",
                "model",
                "shortcut",
                "strength",
                "seed",
                "shared_fit",
            )
        }
        for split in EVAL_SPLITS:
            if split not in metrics["splits"]:
                continue
            values = metrics["splits"][split]
            for metric in METRICS:
                row[f"{split}_{metric}"] = values[metric]
            row[f"{split}_invalid"] = values.get("invalid", 0)
            for label, count in values.get("label_distribution", {}).items():
                row[f"{split}_share:{label}"] = count / max(values["rows"], 1)
            if "confidence" in values:
                row[f"{split}_confidence"] = values["confidence"]["mean"]
                row[f"{split}_confident_accuracy"] = values["confidence"]["accuracy"]
                row[f"{split}_ece"] = values["confidence"]["ece"]
        for key, value in (metrics.get("usage") or {}).items():
            row[f"usage_{key}"] = value
        for metric in METRICS:
            row[f"delta_{metric}"] = metrics["delta"][metric]
        row["mcnemar_p"] = metrics["mcnemar"]["p_value"]
        rows.append(row)
    cells = pd.DataFrame(rows)
    # Spec order for datasets, models and shortcuts; strongest λ first; seeds ascending.
    rank = {
        "dataset": {d["name"]: i for i, d in enumerate(spec["datasets"])},
        "model": {m["id"]: i for i, m in enumerate(spec["models"])},
        "shortcut": {label: i for i, label in enumerate(_shortcut_labels(spec))},
    }
    keys = cells.assign(
        **{f"_{c}": cells[c].map(rank[c]) for c in rank}, _strength=-cells["strength"]
    )
    order = keys.sort_values(
        ["_dataset", "_model", "_shortcut", "_strength", "seed"], kind="stable"
    ).index
    return cells.loc[order].reset_index(drop=True)


def _shortcut_labels(spec: dict[str, Any]) -> list[str]:
    from shortcutlab.experiments.grid import shortcut_label
    from shortcutlab.experiments.spec import ShortcutSpec

    return [
        shortcut_label(ShortcutSpec(s["name"], {k: v for k, v in s.items() if k != "name"}))
        for s in spec["shortcuts"]
    ]


def _groups(cells: pd.DataFrame, store: ResultStore, n_resamples: int) -> pd.DataFrame:
    rows = []
    for keys, part in cells.groupby(GROUP, sort=False):
        row: dict[str, Any] = dict(zip(GROUP, keys, strict=True))
        row["seeds"] = len(part)
        for split in EVAL_SPLITS:
            for metric in METRICS:
                column = f"{split}_{metric}"
                if column in part:
                    row[f"{column}_mean"] = float(part[column].mean())
                    row[f"{column}_std"] = float(part[column].std(ddof=1)) if len(part) > 1 else 0.0
        for metric in METRICS:
            values = part[f"delta_{metric}"]
            row[f"delta_{metric}_mean"] = float(values.mean())
            row[f"delta_{metric}_std"] = float(values.std(ddof=1)) if len(part) > 1 else 0.0
            row[f"delta_{metric}_var"] = float(values.var(ddof=1)) if len(part) > 1 else 0.0
        samples = _bootstrap(part, store, n_resamples)
        for metric in METRICS:
            row[f"delta_{metric}_ci_low"], row[f"delta_{metric}_ci_high"] = percentile_interval(
                samples[metric]
            )
        # Accuracy: every seed's exact McNemar must reject (max p is a valid, conservative p-value).
        row["p_accuracy"] = float(part["mcnemar_p"].max())
        row["p_macro_f1"] = bootstrap_p_value(samples["macro_f1"], row["delta_macro_f1_mean"])
        rows.append(row)
    groups = pd.DataFrame(rows)
    for metric in METRICS:
        groups[f"p_{metric}_holm"] = holm(groups[f"p_{metric}"].to_numpy())
        groups[f"significant_{metric}"] = (groups[f"p_{metric}_holm"] < ALPHA) & (
            groups[f"delta_{metric}_mean"] > 0
        )
    return groups


def _bootstrap(part: pd.DataFrame, store: ResultStore, n_resamples: int) -> dict[str, np.ndarray]:
    benchmark_id = part["benchmark_id"].iloc[0]
    test_ids, truth = store.rows(benchmark_id, "test")
    anti_ids, _ = store.rows(benchmark_id, "anti_test")
    if not np.array_equal(test_ids, anti_ids):
        raise DataError(
            f"Benchmark {benchmark_id}: test and anti-test rows are not paired in order."
        )
    # Seeds that shared one fit have identical predictions: one copy gives the same mean.
    distinct = part.drop_duplicates("benchmark_id") if part["shared_fit"].all() else part
    pred_test = np.stack(
        [predicted_labels(store.probabilities(c, "test")) for c in distinct["cell_id"]]
    )
    pred_anti = np.stack(
        [predicted_labels(store.probabilities(c, "anti_test")) for c in distinct["cell_id"]]
    )
    n_classes = store.probabilities(distinct["cell_id"].iloc[0], "test").shape[1]
    return bootstrap_deltas(
        y_true=truth,
        pred_a=pred_test,
        pred_b=pred_anti,
        n_classes=n_classes,
        n_resamples=n_resamples,
        seed=0,
    )
