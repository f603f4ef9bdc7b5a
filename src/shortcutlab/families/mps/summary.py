"""The statistics of one MPS group (dataset, attribute, model, mitigation) over seeds.

Like :mod:`shortcutlab.engine.summary` for the Maze Δ: seeds that share a fit, or whose fits
predicted the same labels on the same build, count once;
where only one distinct fit exists nothing varied, so spreads are NaN (printed ``—``) and the
interval resamples test rows only, conditional on that fit; with several fits the paired
bootstrap also resamples the fits. δ and Δ get a two-sided p-value from the bootstrap standard
error; :func:`apply_mps_holm` adjusts them over the whole table (every δ and Δ of the grid).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.engine.summary import (
    ALPHA,
    BOOTSTRAP_SEED,
    GROUP_PROVENANCE,
    RESAMPLES_ROWS,
    RESAMPLES_ROWS_AND_FITS,
    SeedOutcome,
    distinct_outcomes,
    mean_std,
)
from shortcutlab.metrics import (
    adjust_p,
    bootstrap_mps_gaps,
    bootstrap_p_value,
    fit_metric_names,
    percentile_interval,
)
from shortcutlab.reports.tidy import CELL_COLUMNS, Measure, long_table

MPS_IDENTITY = ("dataset", "attribute", "model", "mitigation")
#: The metrics of the cross-testing table (A.7 Table 9), in its column order.
CROSS_METRICS = ("w_acc", "accuracy")
GAPS = ("delta_isolated", "delta_overall", "zeta")
TESTED = ("delta_isolated", "delta_overall")  # ζ is a dispersion, not a test of the attribute
# Only δ is starred: Δ = ζ + δ, and ζ > 0 whenever per-label accuracies differ at all, so Δ = 0 is
# rejected even when the attribute does nothing; Δ keeps its interval and unadjusted p.
STARRED = ("delta_isolated",)


@dataclass(frozen=True)
class FitPair:
    """One distinct fit pair's predicted label ranks on its build's test rows; predictions are
    (rows,) or (epochs, rows)."""

    row_ids: np.ndarray
    truth: np.ndarray
    imbalanced: np.ndarray
    balanced: np.ndarray


def mps_statistic_columns() -> list[str]:
    columns = ["seeds", "distinct_fits", "distinct_builds", "test_rows", "ci_resamples", "epochs"]
    for metric in fit_metric_names():
        for fit in ("imbalanced", "balanced"):
            columns += [f"{metric}_{fit}_mean", f"{metric}_{fit}_std"]
    columns += ["worst_label_imbalanced", "worst_label_balanced", "smallest_group_rows"]
    for gap in GAPS:
        columns += [f"{gap}_{stat}" for stat in ("mean", "std", "ci_low", "ci_high")]
    columns += ["p_delta_overall"]
    for gap in STARRED:
        columns += [f"p_{gap}", f"p_{gap}_holm", f"significant_{gap}"]
    # Why a figure is empty: its builds cannot measure it (families/mps/measurable.py).
    return [*columns, "not_measurable"]


def mps_group_statistics(
    seeds: Sequence[SeedOutcome],
    predictions: Mapping[Hashable, FitPair],
    *,
    n_classes: int,
    n_resamples: int,
) -> dict[str, Any]:
    """The tidy statistics of one group (without Holm). Each seed's ``scores`` is its flat row of
    ``MpsRunResults.cells`` (own test set); ``predictions`` holds each distinct fit's pair."""
    distinct, row = distinct_outcomes(seeds, predictions)
    varied = len(distinct) > 1
    row |= {
        "ci_resamples": RESAMPLES_ROWS_AND_FITS if varied else RESAMPLES_ROWS,
        "epochs": distinct[0].scores.get("epochs"),
    }
    for metric in fit_metric_names():
        for fit in ("imbalanced", "balanced"):
            name = f"{metric}_{fit}"
            row[f"{name}_mean"], row[f"{name}_std"] = mean_std([s.scores[name] for s in distinct])
    for fit in ("imbalanced", "balanced"):
        labels = Counter(s.scores[f"worst_label_{fit}"] for s in distinct)
        row[f"worst_label_{fit}"] = min(labels, key=lambda label: (-labels[label], label))
    row["smallest_group_rows"] = min(s.scores["smallest_group_rows"] for s in distinct)
    pairs = [predictions[s.fit] for s in distinct]
    shared = len({s.build for s in distinct}) == 1
    row["test_rows"] = len(pairs[0].truth)
    samples = bootstrap_mps_gaps(
        y_true=pairs[0].truth if shared else [p.truth for p in pairs],
        pred_imbalanced=np.stack([p.imbalanced for p in pairs])
        if shared
        else [p.imbalanced for p in pairs],
        pred_balanced=np.stack([p.balanced for p in pairs])
        if shared
        else [p.balanced for p in pairs],
        n_classes=n_classes,
        n_resamples=n_resamples,
        seed=BOOTSTRAP_SEED,
        resample_fits=varied,
    )
    for gap in GAPS:
        values = [s.scores[gap] for s in distinct]
        row[f"{gap}_mean"], row[f"{gap}_std"] = mean_std(values)
        row[f"{gap}_ci_low"], row[f"{gap}_ci_high"] = percentile_interval(samples[gap])
    for gap in TESTED:
        row[f"p_{gap}"] = bootstrap_p_value(samples[gap], row[f"{gap}_mean"])
    return row


def apply_mps_holm(groups: pd.DataFrame) -> pd.DataFrame:
    """Holm–Bonferroni over every δ test of ``groups`` (one family: the table) and the ``*``
    decision: adjusted two-sided p below ALPHA, whichever the sign. A δ that is not measurable
    (p empty) is no test and does not count."""
    groups = groups.copy()
    p_values = np.concatenate([groups[f"p_{gap}"].to_numpy(dtype=np.float64) for gap in STARRED])
    adjusted = adjust_p(p_values, "holm").reshape(len(STARRED), len(groups))
    for gap, values in zip(STARRED, adjusted, strict=True):
        groups[f"p_{gap}_holm"] = values
        # Empty (not False) where δ was not measured: no test was made.
        groups[f"significant_{gap}"] = pd.Series(
            np.where(np.isnan(values), None, values < ALPHA), index=groups.index, dtype=object
        )
    columns = [*MPS_IDENTITY, *mps_statistic_columns(), *GROUP_PROVENANCE]
    return groups[[c for c in columns if c in groups]]


def worst_group_accuracy(
    groups: Mapping[str, Mapping[str, Any]], min_size: int
) -> tuple[float, int, int]:
    """Traditional worst-group accuracy over the (label, value) groups with at least ``min_size``
    test rows, how many groups that uses, and the smallest group's size (A.5.2).

    Examples:
        >>> worst_group_accuracy({"a": {"accuracy": 0.0, "rows": 2}, "b": {"accuracy": 0.7, "rows": 30}}, 10)
        (0.7, 1, 2)
    """
    used = [g["accuracy"] for g in groups.values() if g["rows"] >= min_size]
    smallest = min(g["rows"] for g in groups.values())
    return (min(used) if used else math.nan), len(used), smallest


def mps_long_table(wide: pd.DataFrame, *, per_seed: bool = False) -> pd.DataFrame:
    """The long table (:mod:`shortcutlab.reports.tidy`) of MPS group rows, or of cell rows with
    ``per_seed``: on the attribute's test set, each fit's metrics (``trained_on`` names the
    fit's training split), then δ, Δ and ζ, which compare the two fits (``trained_on`` empty)."""
    stat = "" if per_seed else "_mean"
    measures = [
        Measure(
            "test",
            metric,
            f"{metric}_{fit}{stat}",
            std=None if per_seed else f"{metric}_{fit}_std",
            n=None if per_seed else "test_rows",
            keys={"trained_on": fit},
        )
        for metric in fit_metric_names()
        for fit in ("imbalanced", "balanced")
    ]
    for gap in GAPS:
        figures = (
            {}
            if per_seed
            else {
                "std": f"{gap}_std",
                "ci_low": f"{gap}_ci_low",
                "ci_high": f"{gap}_ci_high",
                "p": f"p_{gap}" if gap in TESTED else None,
                "p_adjusted": f"p_{gap}_holm" if gap in STARRED else None,
                "significant": f"significant_{gap}" if gap in STARRED else None,
                "n": "test_rows",
            }
        )
        measures.append(Measure("test", gap, f"{gap}{stat}", **figures))
    identity = (*CELL_COLUMNS, "attribute", *(("seed",) if per_seed else ()))
    return long_table(wide, measures, identity=identity, keys=("trained_on",))
