"""Each mitigation against erm on the same rows: how much it changes the drop Δ, and what it costs
on the test set.

A comparison is one (dataset, model, shortcut, λ, mitigation) next to the erm cells of the same
(dataset, model, shortcut, λ). Seeds are paired: seed ``s`` of the method with seed ``s`` of erm
(the same build, so the same rows). Pairs whose fits are both shared across seeds count once, as
in :mod:`~shortcutlab.engine.summary`.

- Change of Δ = Δ(method) − Δ(erm), negative when the method narrows the drop. Its interval is a
  percentile bootstrap over the paired test / anti-test rows (one row draw serves all four
  predictions), and also over the distinct fit pairs when the seeds varied (``ci_resamples``);
  its p-value is a normal approximation on the bootstrap standard error.
- Test change = test metric(method) − test metric(erm) on every test row: accuracy with the exact
  McNemar test (the largest p over distinct fit pairs), macro-F1 with the bootstrap p.

:func:`apply_comparison_holm` adjusts each p over the family of every comparison of the grid.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.engine.cell import predicted_labels
from shortcutlab.engine.summary import (
    ALPHA,
    BOOTSTRAP_SEED,
    RESAMPLES_ROWS,
    RESAMPLES_ROWS_AND_FITS,
    PairedPredictions,
    mean_std,
    paired_p_value,
)
from shortcutlab.errors import DataError
from shortcutlab.metrics import (
    bootstrap_contrast,
    bootstrap_p_value,
    holm,
    mcnemar_exact,
    percentile_interval,
    split_metric_names,
)

SETTING = ("dataset", "model", "shortcut", "strength")
COMPARISON_IDENTITY = (*SETTING, "mitigation")

#: (cell_id, benchmark_id) -> a cell's paired test / anti-test predictions.
PairedReader = Callable[[str, str], PairedPredictions]
#: (cell_id, benchmark_id) -> (truth, predicted) on every test row.
TestReader = Callable[[str, str], tuple[np.ndarray, np.ndarray]]


def comparison_columns() -> list[str]:
    """The statistics of a comparison row, in order (after the identity columns)."""
    columns = ["baseline", "seeds", "distinct_pairs", "paired_rows", "test_rows", "ci_resamples"]
    columns += ["same_predictions"]
    for metric in split_metric_names():
        columns += [
            f"delta_change_{metric}_{stat}" for stat in ("mean", "std", "ci_low", "ci_high")
        ]
        columns += [f"p_delta_change_{metric}", f"p_delta_change_{metric}_holm"]
        columns += [f"significant_delta_change_{metric}"]
        columns += [f"test_change_{metric}_{stat}" for stat in ("mean", "ci_low", "ci_high")]
        columns += [f"p_test_change_{metric}", f"p_test_change_{metric}_holm"]
        columns += [f"significant_test_change_{metric}"]
    return columns


def compare_with_erm(
    cells: pd.DataFrame,
    scores: Mapping[str, Mapping[str, Any]],
    baseline: str,
    predictions: PairedReader,
    test_predictions: TestReader,
    *,
    n_classes: int,
    n_resamples: int,
) -> pd.DataFrame:
    """One row per (setting, mitigation other than ``baseline``) with erm cells of the same seeds.

    ``cells``: one row per cell with the identity columns, ``seed``, ``cell_id``,
    ``benchmark_id`` and ``fit_id``; ``scores[cell_id]``: its ``cell.score`` output;
    ``predictions(cell_id, benchmark_id)``: its paired test / anti-test predictions;
    ``test_predictions(cell_id, benchmark_id)``: (truth, predicted) on every test row.
    """
    rows = []
    for keys, part in cells.groupby(list(SETTING), sort=False):
        erm = part[part["mitigation"] == baseline].set_index("seed")
        if erm.empty:
            continue
        for mitigation, method in part.groupby("mitigation", sort=False):
            if mitigation == baseline:
                continue
            pairs = _distinct_pairs(method.set_index("seed"), erm)
            if not pairs:
                continue
            identity = dict(zip(SETTING, keys, strict=True)) | {"mitigation": mitigation}
            counts = {
                "baseline": baseline,
                "seeds": len(set(method["seed"]) & set(erm.index)),
                "distinct_pairs": len(pairs),
            }
            rows.append(
                identity
                | counts
                | _pair_statistics(
                    pairs, scores, predictions, test_predictions, n_classes, n_resamples
                )
            )
    return apply_comparison_holm(pd.DataFrame(rows))


def _distinct_pairs(method: pd.DataFrame, erm: pd.DataFrame) -> list[tuple[Any, Any]]:
    """(method cell, erm cell) of each seed both have, the first seed of each distinct fit pair."""
    found: dict[tuple[Hashable, Hashable], tuple[Any, Any]] = {}
    for seed in sorted(set(method.index) & set(erm.index)):
        mine, theirs = method.loc[seed], erm.loc[seed]
        found.setdefault((mine["fit_id"], theirs["fit_id"]), (mine, theirs))
    return list(found.values())


def _pair_statistics(
    pairs: list[tuple[Any, Any]],
    scores: Mapping[str, Mapping[str, Any]],
    predictions: PairedReader,
    test_predictions: TestReader,
    n_classes: int,
    n_resamples: int,
) -> dict[str, Any]:
    """The change of Δ and the test change of one mitigation against erm over its distinct
    (method, erm) fit pairs: means, bootstrap intervals and p-values per metric."""
    varied = len(pairs) > 1
    row: dict[str, Any] = {"ci_resamples": RESAMPLES_ROWS_AND_FITS if varied else RESAMPLES_ROWS}
    paired = [(predictions(*_cell(m)), predictions(*_cell(e))) for m, e in pairs]
    tested = [(test_predictions(*_cell(m)), test_predictions(*_cell(e))) for m, e in pairs]
    truth = _same_rows(
        [p.truth for pair in paired for p in pair], [p.row_ids for pair in paired for p in pair]
    )
    test_truth = _same_rows([t[0] for pair in tested for t in pair], None)
    row["paired_rows"], row["test_rows"] = len(truth), len(test_truth)
    # A method that predicts every row as erm does changes nothing: there is nothing to test.
    row["same_predictions"] = all(
        np.array_equal(m.test, e.test)
        and np.array_equal(m.anti_test, e.anti_test)
        and np.array_equal(tm[1], te[1])
        for (m, e), (tm, te) in zip(paired, tested, strict=True)
    )
    drop_samples, test_samples = _contrast_samples(
        paired, tested, truth, test_truth, n_classes, n_resamples, varied
    )
    # A McNemar metric's test change has an exact paired test on the test rows: every distinct
    # pair must reject, so the largest p is a valid (conservative) p-value, as for the drop.
    test_mcnemar = [
        mcnemar_exact(correct_a=m[1] == m[0], correct_b=e[1] == e[0])["p_value"] for m, e in tested
    ]
    for metric in split_metric_names():
        changes = [_score(scores, m, metric) - _score(scores, e, metric) for m, e in pairs]
        name = f"delta_change_{metric}"
        row[f"{name}_mean"], row[f"{name}_std"] = mean_std(changes)
        row[f"{name}_ci_low"], row[f"{name}_ci_high"] = percentile_interval(drop_samples[metric])
        row[f"p_{name}"] = bootstrap_p_value(drop_samples[metric], row[f"{name}_mean"])
        test_changes = [
            _score(scores, m, metric, "test") - _score(scores, e, metric, "test") for m, e in pairs
        ]
        name = f"test_change_{metric}"
        row[f"{name}_mean"] = float(np.mean(test_changes))
        row[f"{name}_ci_low"], row[f"{name}_ci_high"] = percentile_interval(test_samples[metric])
        row[f"p_{name}"] = paired_p_value(
            metric, test_mcnemar, test_samples[metric], row[f"{name}_mean"]
        )
    if row["same_predictions"]:
        row |= {key: math.nan for key in row if key.startswith("p_")}
    return row


def _cell(cell: Any) -> tuple[str, str]:
    return cell["cell_id"], cell["benchmark_id"]


def _score(
    scores: Mapping[str, Mapping[str, Any]], cell: Any, metric: str, split: str | None = None
) -> float:
    """A cell's Δ of ``metric`` or, with ``split``, its score on that split."""
    found = scores[cell["cell_id"]]
    return found["delta"][metric] if split is None else found["splits"][split][metric]


def _contrast_samples(
    paired: list[tuple[PairedPredictions, PairedPredictions]],
    tested: list[tuple[Any, Any]],
    truth: np.ndarray,
    test_truth: np.ndarray,
    n_classes: int,
    n_resamples: int,
    varied: bool,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Bootstrap samples of the change of Δ (method minus erm, on the paired rows) and of the
    test change (on every test row), per metric; rows and, when ``varied``, fit pairs drawn."""
    options = dict(
        n_classes=n_classes, n_resamples=n_resamples, seed=BOOTSTRAP_SEED, resample_fits=varied
    )
    drop_samples = bootstrap_contrast(
        y_true=truth,
        terms=[
            (1.0, np.stack([m.test for m, _ in paired])),
            (-1.0, np.stack([m.anti_test for m, _ in paired])),
            (-1.0, np.stack([e.test for _, e in paired])),
            (1.0, np.stack([e.anti_test for _, e in paired])),
        ],
        **options,
    )
    test_samples = bootstrap_contrast(
        y_true=test_truth,
        terms=[
            (1.0, np.stack([m[1] for m, _ in tested])),
            (-1.0, np.stack([e[1] for _, e in tested])),
        ],
        **options,
    )
    return drop_samples, test_samples


def _same_rows(truths: list[np.ndarray], row_ids: list[np.ndarray] | None) -> np.ndarray:
    """The one set of rows every prediction was made on (builds re-drawn per seed keep the rows)."""
    first = truths[0]
    same = all(np.array_equal(t, first) for t in truths)
    if row_ids is not None:
        same = same and all(np.array_equal(r, row_ids[0]) for r in row_ids)
    if not same:
        raise DataError(
            "A mitigation and erm were tested on different rows, so they cannot be compared on "
            "paired rows. Rebuild the benchmarks from the same test table."
        )
    return first


def apply_comparison_holm(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Holm–Bonferroni over every comparison of the grid, per metric and per question (change of
    Δ, test change); a change is significant when its adjusted p is below ALPHA, either sign. A
    method with erm's very predictions has no p (NaN) and is no member of the family."""
    comparisons = comparisons.copy()
    if comparisons.empty:
        return comparisons.reindex(columns=[*COMPARISON_IDENTITY, *comparison_columns()])
    for metric in split_metric_names():
        for question in ("delta_change", "test_change"):
            p = comparisons[f"p_{question}_{metric}"].to_numpy(dtype=np.float64)
            adjusted = np.full(len(p), math.nan)
            tested = ~np.isnan(p)
            adjusted[tested] = holm(p[tested])
            comparisons[f"p_{question}_{metric}_holm"] = adjusted
            comparisons[f"significant_{question}_{metric}"] = adjusted < ALPHA
    return comparisons[[*COMPARISON_IDENTITY, *comparison_columns()]]


def whole_test_reader(store: Any) -> TestReader:
    """``(cell_id, benchmark_id) -> (truth, predicted)`` on every test row, read from ``store``."""

    def read(cell_id: str, benchmark_id: str) -> tuple[np.ndarray, np.ndarray]:
        _, truth = store.rows(benchmark_id, "test")
        return truth, predicted_labels(store.probabilities(cell_id, "test"))

    return read
