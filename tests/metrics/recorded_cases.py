"""Fixed inputs for every resampling statistic and test statistic, and the outputs they gave before
the statistics moved into one home (recorded at fbc29ed, before the refactor of issue 20).

``test_recorded_statistics`` compares each case's output with ``recorded_statistics.json`` to the
last bit: intervals and p-values must not move when code is rearranged. Arrays are compared by the
sha256 of their float64 bytes (plus their mean, for a readable failure); floats by ``repr``.

Run this module (``python tests/metrics/recorded_cases.py OUT.json``) to print the outputs of the
current code in the recorded form, e.g. to see which case moved.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp


def fingerprint(value: Any) -> Any:
    """Outputs in a JSON form that keeps every bit: arrays by hash, floats by repr."""
    if isinstance(value, dict):
        return {str(k): fingerprint(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [fingerprint(v) for v in value]
    if isinstance(value, np.ndarray):
        array = np.ascontiguousarray(value, dtype=np.float64)
        return {
            "sha256": hashlib.sha256(array.tobytes()).hexdigest(),
            "shape": list(array.shape),
            "mean": repr(float(array.mean())) if array.size else "empty",
        }
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    return value


def _predictions(seed: int, fits: int, rows: int, k: int, right: float) -> tuple[Any, Any]:
    """Truth (rows,) and (fits, rows) predictions right with probability ``right``; some -1."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(k, size=rows)
    wrong = (truth[None, :] + rng.integers(1, k, size=(fits, rows))) % k
    predicted = np.where(rng.random((fits, rows)) < right, truth[None, :], wrong)
    predicted[rng.random((fits, rows)) < 0.02] = -1
    return truth, predicted


def _contrast_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.metrics import (
        bootstrap_contrast,
        bootstrap_delta,
        bootstrap_deltas,
        bootstrap_p_value,
        percentile_interval,
    )

    truth, test = _predictions(1, 3, 300, 4, 0.8)
    _, anti = _predictions(2, 3, 300, 4, 0.6)
    big_truth, big_test = _predictions(3, 1, 5000, 3, 0.7)
    _, big_anti = _predictions(4, 1, 5000, 3, 0.5)

    def summarised(samples: dict[str, np.ndarray]) -> dict[str, Any]:
        return {
            name: {
                "samples": values,
                "interval": percentile_interval(values),
                "p": bootstrap_p_value(values, float(values.mean())),
            }
            for name, values in samples.items()
        }

    return {
        "deltas_rows_one_fit": lambda: summarised(
            bootstrap_deltas(
                y_true=truth, pred_a=test[0], pred_b=anti[0], n_classes=4, n_resamples=400, seed=7
            )
        ),
        "deltas_rows_three_fits": lambda: summarised(
            bootstrap_deltas(y_true=truth, pred_a=test, pred_b=anti, n_classes=4, n_resamples=300)
        ),
        "deltas_two_level": lambda: summarised(
            bootstrap_deltas(
                y_true=truth,
                pred_a=test,
                pred_b=anti,
                n_classes=4,
                n_resamples=300,
                seed=5,
                resample_fits=True,
            )
        ),
        "deltas_chunked": lambda: summarised(
            bootstrap_deltas(
                y_true=big_truth, pred_a=big_test, pred_b=big_anti, n_classes=3, n_resamples=900
            )
        ),
        "contrast_four_terms": lambda: summarised(
            bootstrap_contrast(
                y_true=truth,
                terms=[(1.0, test), (-1.0, anti), (-1.0, anti[::-1]), (1.0, test[::-1])],
                n_classes=4,
                n_resamples=250,
                seed=11,
                resample_fits=True,
            )
        ),
        "delta_interval": lambda: bootstrap_delta(
            y_true=truth, pred_a=test, pred_b=anti, n_classes=4, n_resamples=200, seed=2
        ),
    }


def _proportion_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.metrics.proportions import (
        bootstrap_mean_difference,
        bootstrap_means,
        two_proportion_z_test,
    )

    rng = np.random.default_rng(21)
    binary = (rng.random(400) < 0.3).astype(float)
    real = rng.normal(size=250)
    long_real = rng.normal(size=5000)
    return {
        "means_binary": lambda: bootstrap_means(binary, n_resamples=500, seed=3),
        "means_real": lambda: bootstrap_means(real, n_resamples=500, seed=3),
        "means_real_chunked": lambda: bootstrap_means(long_real, n_resamples=900, seed=4),
        "means_seed_sequence": lambda: bootstrap_means(
            real, n_resamples=300, seed=np.random.SeedSequence(9).spawn(2)[1]
        ),
        "means_empty": lambda: bootstrap_means(np.zeros(0), n_resamples=5),
        "mean_difference": lambda: bootstrap_mean_difference(
            real, long_real[:700], n_resamples=400, seed=8
        ),
        "mean_difference_binary": lambda: bootstrap_mean_difference(
            binary, binary[:150], n_resamples=400, seed=8
        ),
        "two_proportion_z": lambda: two_proportion_z_test(
            correct_a=binary, correct_b=(rng.random(300) < 0.4).astype(float)
        ),
    }


def _worst_group_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.metrics import bootstrap_mps_gaps

    truth, imbalanced = _predictions(31, 3, 240, 3, 0.7)
    _, balanced = _predictions(32, 3, 240, 3, 0.75)
    epochs_imbalanced = np.stack([imbalanced, imbalanced[::-1]], axis=1)  # (fits, epochs, rows)
    epochs_balanced = np.stack([balanced, balanced[::-1]], axis=1)
    per_fit = [_predictions(40 + i, 2, 150 + 40 * i, 3, 0.7) for i in range(3)]
    big_truth, big = _predictions(50, 2, 3000, 4, 0.6)
    return {
        "gaps_shared_rows": lambda: bootstrap_mps_gaps(
            y_true=truth,
            pred_imbalanced=imbalanced,
            pred_balanced=balanced,
            n_classes=3,
            n_resamples=300,
        ),
        "gaps_shared_two_level": lambda: bootstrap_mps_gaps(
            y_true=truth,
            pred_imbalanced=imbalanced,
            pred_balanced=balanced,
            n_classes=3,
            n_resamples=300,
            seed=4,
            resample_fits=True,
        ),
        "gaps_epochs": lambda: bootstrap_mps_gaps(
            y_true=truth,
            pred_imbalanced=epochs_imbalanced,
            pred_balanced=epochs_balanced,
            n_classes=3,
            n_resamples=200,
            seed=2,
            resample_fits=True,
        ),
        "gaps_per_fit_builds": lambda: bootstrap_mps_gaps(
            y_true=[t for t, _ in per_fit],
            pred_imbalanced=[p[0] for _, p in per_fit],
            pred_balanced=[p[1] for _, p in per_fit],
            n_classes=3,
            n_resamples=300,
            seed=6,
            resample_fits=True,
        ),
        "gaps_one_fit_chunked": lambda: bootstrap_mps_gaps(
            y_true=big_truth,
            pred_imbalanced=big[0],
            pred_balanced=big[1],
            n_classes=4,
            n_resamples=800,
        ),
    }


def _explain_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.explain.summary import mean_with_interval

    rng = np.random.default_rng(61)
    few = rng.normal(size=80)
    many = rng.normal(size=1500)  # more than one chunk would hold: all 2000 resamples drawn at once
    with_nan = np.append(few, [np.nan, np.nan])
    return {
        "explain_mean_few": lambda: mean_with_interval(few, seed=3),
        "explain_mean_many": lambda: mean_with_interval(many, seed=4),
        "explain_mean_nan": lambda: mean_with_interval(with_nan, seed=5),
        "explain_mean_one": lambda: mean_with_interval(few[:1], seed=5),
    }


def _test_statistic_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.metrics import cochran_mantel_haenszel, holm, mcnemar_exact

    rng = np.random.default_rng(71)
    p_values = np.append(rng.random(60) ** 3, [np.nan])
    tables = rng.integers(0, 30, size=(6, 2, 2))
    correct = rng.random((2, 400)) < np.array([[0.8], [0.7]])
    return {
        "mcnemar": lambda: mcnemar_exact(correct_a=correct[0], correct_b=correct[1]),
        "holm": lambda: holm(p_values[:-1]),
        "cmh": lambda: cochran_mantel_haenszel(tables=tables),
    }


def _audit_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.metrics import adjust_p
    from shortcutlab.metrics.association import (
        association_drift,
        chi2_evidence,
        column_association,
        feature_association,
    )

    rng = np.random.default_rng(81)
    ranks = rng.integers(3, size=500)
    dense = rng.random((500, 40)) < np.linspace(0.01, 0.6, 40)
    dense[:, 0] |= ranks == 2  # one indicator that goes with a label
    matrix = sp.csr_matrix(dense)
    p_values = np.append(rng.random(60) ** 3, [np.nan])
    train = rng.integers(1, 200, size=(30, 4))
    test = rng.integers(1, 200, size=(30, 4))
    values = rng.choice(["a", "b", "c"], size=500).astype(object)
    values[::17] = None
    return {
        "feature_association": lambda: {
            key: value
            for key, value in feature_association(matrix, ranks, 3).items()
            if key != "counts"
        },
        "chi2_evidence": lambda: chi2_evidence(np.array([0.5, 10.0, 2000.0, 1e6]), 3),
        "adjust_holm": lambda: adjust_p(p_values, "holm"),
        "column_association": lambda: column_association(list(values), ranks, 3),
        "association_drift": lambda: association_drift(train, test),
    }


def _summary_cases() -> dict[str, Callable[[], Any]]:
    from shortcutlab.engine.cell import score
    from shortcutlab.engine.summary import PairedPredictions, SeedOutcome, group_statistics
    from shortcutlab.families.mps.summary import FitPair, mps_group_statistics
    from shortcutlab.metrics import mps_gaps

    truth, test = _predictions(91, 3, 200, 3, 0.85)
    _, anti = _predictions(92, 3, 200, 3, 0.6)
    ids = np.arange(200)

    def maze(fits: int) -> dict[str, Any]:
        outcomes, predictions = [], {}
        for seed in range(3):
            fit = seed % fits
            scores = score(
                {"test": truth, "anti_test": truth},
                {"test": test[fit], "anti_test": anti[fit]},
                ["a", "b", "c"],
                (ids, ids),
            )
            outcomes.append(SeedOutcome(seed=seed, fit=fit, build=0, scores=scores))
            predictions[fit] = PairedPredictions(ids, truth, test[fit], anti[fit])
        return group_statistics(outcomes, predictions, n_classes=3, n_resamples=300)

    def mps(fits: int) -> dict[str, Any]:
        outcomes, pairs = [], {}
        for seed in range(3):
            fit = seed % fits
            gaps = mps_gaps(
                y_true=truth, pred_imbalanced=anti[fit], pred_balanced=test[fit], n_classes=3
            )
            scores = {**gaps, "smallest_group_rows": 12, "wga_imbalanced": 0.5}
            scores |= {"wga_balanced": 0.6, "epochs": None}
            outcomes.append(SeedOutcome(seed=seed, fit=fit, build=0, scores=scores))
            pairs[fit] = FitPair(ids, truth, anti[fit], test[fit])
        return mps_group_statistics(outcomes, pairs, n_classes=3, n_resamples=300)

    return {
        "maze_group_one_fit": lambda: maze(1),
        "maze_group_three_fits": lambda: maze(3),
        "mps_group_one_fit": lambda: mps(1),
        "mps_group_three_fits": lambda: mps(3),
    }


def _library_cases() -> dict[str, Callable[[], Any]]:
    """What scipy / scikit-learn now compute (Benjamini–Hochberg, Wilson, Cohen's κ); these were
    hand-written, so their last bits may differ: ``approx_`` cases are compared to 1e-12."""
    from scipy.stats import false_discovery_control

    from shortcutlab.metrics.agreement import cohen_kappa
    from shortcutlab.metrics.attentiveness import wilson_interval

    rng = np.random.default_rng(101)
    p_values = [rng.random(m) ** 3 for m in (1, 2, 7, 60)]
    raters = [
        (rng.choice(list("abc"), size=n).tolist(), rng.choice(list("abcd"), size=n).tolist())
        for n in (5, 40, 300)
    ]
    agreeing = ["y", "y", "n", "n", "y"]
    return {
        "approx_benjamini_hochberg": lambda: [
            false_discovery_control(p).tolist() for p in p_values
        ],
        "approx_wilson": lambda: [
            wilson_interval(k, n, confidence)
            for n in (1, 2, 10, 100, 1000)
            for k in sorted({0, 1, n // 3, n - 1, n})
            for confidence in (0.9, 0.95)
        ],
        "approx_cohen_kappa": lambda: [
            *(cohen_kappa(rater_a=a, rater_b=b) for a, b in raters),
            cohen_kappa(rater_a=agreeing, rater_b=agreeing),
            cohen_kappa(rater_a=["y", "y"], rater_b=["y", "y"]),
        ],
    }


def cases() -> dict[str, Callable[[], Any]]:
    """Every recorded case by name."""
    return {
        **_library_cases(),
        **_contrast_cases(),
        **_proportion_cases(),
        **_worst_group_cases(),
        **_explain_cases(),
        **_test_statistic_cases(),
        **_audit_cases(),
        **_summary_cases(),
    }


if __name__ == "__main__":
    outputs = {name: fingerprint(case()) for name, case in cases().items()}
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(outputs, handle, indent=1, sort_keys=True)
        handle.write("\n")
