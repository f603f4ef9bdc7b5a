"""The statistics of one group over seeds: the one engine behind ``evaluate``, the demo and ``results``.

A group is one (dataset, model, mitigation, shortcut, λ) measured over seeds. Seeds that share a fit (a
seed-independent model on one benchmark build) count once: they are one measurement, not several.
:func:`group_statistics` returns one tidy row (the columns of ``groups.csv``): mean and standard
deviation of every metric, Δ = test − anti-test with VAR(Δ), a bootstrap 95 % interval of the mean
Δ and a p-value for the drop. :func:`apply_holm` adds the Holm–Bonferroni adjustment over a family
of groups, which only the caller knows (a grid, the demo's cells, or one evaluation alone).

Where only one distinct fit exists nothing varied between seeds: spreads are left empty (NaN),
never 0, and the interval resamples rows only, so it is conditional on that fit. Fits whose
predictions are identical on the same build count as one (:func:`distinct_outcomes`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.engine.cell import EVAL_SPLITS
from shortcutlab.errors import DataError
from shortcutlab.metrics import (
    METRICS,
    bootstrap_deltas,
    bootstrap_p_value,
    holm,
    percentile_interval,
    split_metric_names,
)
from shortcutlab.metrics.catalog import MCNEMAR

ALPHA = 0.05
# One convention everywhere: the same predictions give the same interval in evaluate and results.
BOOTSTRAP_SEED = 0
IDENTITY = ("dataset", "model", "mitigation", "shortcut", "strength")
#: Where a mitigation's groups came from: the column, the spec's group_labels, the rows read.
GROUP_PROVENANCE = ("group_source", "group_labels", "group_rows")
RESAMPLES_ROWS_AND_FITS = "rows,fits"
RESAMPLES_ROWS = "rows"


def group_provenance(metrics: Mapping[str, Any]) -> dict[str, str]:
    """A cell's group columns from its stored metrics ("" where its method read no groups)."""
    read = metrics.get("groups") or {}
    return {
        column: read.get(key, "")
        for column, key in zip(GROUP_PROVENANCE, ("source", "labels", "rows"), strict=True)
    }


def group_provenance_of(part: pd.DataFrame, cells: pd.DataFrame) -> dict[str, str]:
    """A group's provenance columns (its first cell's), only when some method of the run read
    groups, so a run without them keeps its columns."""
    if not cells["group_source"].astype(bool).any():
        return {}
    return {column: part[column].iloc[0] for column in GROUP_PROVENANCE}


@dataclass(frozen=True)
class SeedOutcome:
    """One seed of a group: its scores (``cell.score`` output) and which fit and build it used."""

    seed: int
    fit: Hashable  # seeds with equal keys share one fit
    build: Hashable  # the benchmark build the fit was trained and tested on
    scores: Mapping[str, Any]


@dataclass(frozen=True)
class PairedPredictions:
    """One fit's predicted label ranks on its build's paired test / anti-test rows."""

    row_ids: np.ndarray
    truth: np.ndarray
    test: np.ndarray
    anti_test: np.ndarray


def statistic_columns() -> list[str]:
    """The statistics of a tidy row, in order (after the identity columns)."""
    columns = ["seeds", "distinct_fits", "distinct_builds", "paired_rows", "ci_resamples"]
    for metric in split_metric_names():
        for split in EVAL_SPLITS:
            columns += [f"{split}_{metric}_mean", f"{split}_{metric}_std"]
        columns += [
            f"delta_{metric}_{stat}" for stat in ("mean", "var", "std", "ci_low", "ci_high")
        ]
        columns += [f"p_{metric}", f"p_{metric}_holm", f"significant_{metric}"]
    return columns


def group_statistics(
    outcomes: Sequence[SeedOutcome],
    predictions: Mapping[Hashable, PairedPredictions],
    *,
    n_classes: int,
    n_resamples: int,
) -> dict[str, Any]:
    """The tidy statistics of one group (without Holm: see :func:`apply_holm`).

    ``predictions`` holds each distinct fit's paired predictions, keyed like ``SeedOutcome.fit``.
    """
    distinct, row = distinct_outcomes(outcomes, predictions)
    varied = len(distinct) > 1
    for metric in split_metric_names():
        for split in EVAL_SPLITS:
            if all(split in o.scores["splits"] for o in distinct):
                values = [o.scores["splits"][split][metric] for o in distinct]
                row[f"{split}_{metric}_mean"], row[f"{split}_{metric}_std"] = mean_std(values)
        deltas = np.array([o.scores["delta"][metric] for o in distinct], dtype=np.float64)
        row[f"delta_{metric}_mean"] = float(deltas.mean())
        # VAR(Δ) of the paper's Table 9: the sample variance (ddof=1) over distinct fits.
        row[f"delta_{metric}_var"] = float(deltas.var(ddof=1)) if varied else math.nan
        row[f"delta_{metric}_std"] = float(deltas.std(ddof=1)) if varied else math.nan
    paired = _aligned([predictions[o.fit] for o in distinct])
    row["paired_rows"] = len(paired[0].truth)
    row["ci_resamples"] = RESAMPLES_ROWS_AND_FITS if varied else RESAMPLES_ROWS
    samples = bootstrap_deltas(
        y_true=paired[0].truth,
        pred_a=np.stack([p.test for p in paired]),
        pred_b=np.stack([p.anti_test for p in paired]),
        n_classes=n_classes,
        n_resamples=n_resamples,
        seed=BOOTSTRAP_SEED,
        resample_fits=varied,
    )
    for metric in split_metric_names():
        low, high = percentile_interval(samples[metric])
        row[f"delta_{metric}_ci_low"], row[f"delta_{metric}_ci_high"] = low, high
        row[f"p_{metric}"] = paired_p_value(
            metric,
            [o.scores["mcnemar"]["p_value"] for o in distinct],
            samples[metric],
            row[f"delta_{metric}_mean"],
        )
    return row


def paired_p_value(
    metric: str, mcnemar_p: Sequence[float], samples: np.ndarray, estimate: float
) -> float:
    """The p-value of a paired difference of ``metric`` by the registry's paired test: for a
    McNemar metric (accuracy) every distinct fit's exact test must reject, so the largest of
    ``mcnemar_p`` is a valid, conservative p-value; other metrics have no exact paired test, so
    a normal approximation on the bootstrap standard error of ``samples``."""
    if METRICS.get(metric).paired_test == MCNEMAR:
        return float(max(mcnemar_p))
    return bootstrap_p_value(samples, estimate)


def distinct_outcomes(
    outcomes: Sequence[SeedOutcome], predictions: Mapping[Hashable, Any] | None = None
) -> tuple[list[SeedOutcome], dict[str, int]]:
    """The first seed of each distinct fit (seeds sharing a fit are one measurement), and the
    counts of seeds, distinct fits and distinct builds.

    With ``predictions`` (each fit's predictions, a dataclass of arrays keyed like
    ``SeedOutcome.fit``), fits of one build that predicted exactly the same labels are one
    measurement too: a model that takes a seed but ignores it (a linear SVM's solver converging
    to one optimum) varies nothing, and its seeds' spread would be a measured-looking 0."""
    first_of_fit: dict[Hashable, SeedOutcome] = {}
    for outcome in sorted(outcomes, key=lambda o: o.seed):
        first_of_fit.setdefault(outcome.fit, outcome)
    distinct: list[SeedOutcome] = []
    for outcome in first_of_fit.values():
        if predictions is None or not any(
            kept.build == outcome.build
            and same_predictions(predictions[kept.fit], predictions[outcome.fit])
            for kept in distinct
        ):
            distinct.append(outcome)
    counts = {
        "seeds": len(outcomes),
        "distinct_fits": len(distinct),
        "distinct_builds": len({o.build for o in outcomes}),
    }
    return distinct, counts


def same_predictions(first: Any, second: Any) -> bool:
    """Whether two fits' predictions (dataclasses of arrays: rows, truth, predicted labels) are
    equal field by field; every metric is a function of these labels, so its values are too."""
    return all(
        np.array_equal(getattr(first, f.name), getattr(second, f.name)) for f in fields(first)
    )


def apply_holm(groups: pd.DataFrame) -> pd.DataFrame:
    """Holm–Bonferroni over the rows of ``groups`` (one family per metric) and the ``*`` decision:
    a drop is significant when its adjusted p is below ALPHA and Δ goes the way of a drop
    (positive, or negative for a metric where lower is better)."""
    groups = groups.copy()
    for metric in split_metric_names():
        direction = 1 if METRICS.get(metric).higher_is_better else -1
        groups[f"p_{metric}_holm"] = holm(groups[f"p_{metric}"].to_numpy(dtype=np.float64))
        groups[f"significant_{metric}"] = (groups[f"p_{metric}_holm"] < ALPHA) & (
            direction * groups[f"delta_{metric}_mean"] > 0
        )
    return groups[[c for c in [*IDENTITY, *statistic_columns(), *GROUP_PROVENANCE] if c in groups]]


def records(groups: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as plain JSON values (NaN becomes None)."""
    return [
        {key: _plain(value) for key, value in row.items()}
        for row in groups.to_dict(orient="records")
    ]


def _aligned(paired: list[PairedPredictions]) -> list[PairedPredictions]:
    """Every fit must predict the same paired rows, so one row resample serves them all."""
    first = paired[0]
    for other in paired[1:]:
        if not (
            np.array_equal(other.row_ids, first.row_ids)
            and np.array_equal(other.truth, first.truth)
        ):
            raise DataError(
                "The seeds of one group were tested on different paired rows, so their drops cannot "
                "be bootstrapped together. Rebuild the benchmarks from the same test table."
            )
    return paired


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof=1); the spread of one value is NaN, not 0."""
    array = np.asarray(values, dtype=np.float64)
    return float(array.mean()), float(array.std(ddof=1)) if len(array) > 1 else math.nan


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
