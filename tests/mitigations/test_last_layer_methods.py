"""jtt, dfr, llr and afr on the planted-cue benchmark, and their refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError, ShortcutlabWarning
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.base import MitigationContext, TrainingRows
from tests.mitigations.conftest import accuracies
from tests.mitigations.synthetic import cue_benchmark


@pytest.mark.parametrize(
    ("method", "gain"),
    [("jtt", 0.15), ("dfr", 0.4), ("llr", 0.2), ("afr", 0.1)],
)
def test_methods_without_training_groups_raise_anti_test_accuracy(
    cue_bench, erm_scores, method, gain
):
    scores = accuracies(cue_bench, method)
    assert scores["anti_test"] > erm_scores["anti_test"] + gain


def test_jtt_warns_when_the_identification_model_makes_no_error():
    # Every text has its own word, so a weakly penalised model fits every training row.
    frame = pd.DataFrame(
        {"row_id": range(40), "text": [f"word{i} shared" for i in range(40)], "label": [0, 1] * 20}
    )
    bench = Benchmark(
        splits={"train": frame, "test": frame, "anti_test": frame}, labels=LabelSpace((0, 1))
    )
    with pytest.warns(ShortcutlabWarning, match="jtt: the identification model gets all 40"):
        scores = accuracies(bench, "jtt", model_params={"C": 1e4})
    assert scores == accuracies(bench, "erm", model_params={"C": 1e4})


def test_jtt_first_params_regularise_only_the_identification_model(cue_bench):
    # The final model keeps the backend's C; a heavily penalised identifier misclassifies other
    # rows than the backend's own fit, so the upweighted second fit changes.
    plain = accuracies(cue_bench, "jtt", {"upweight": 20}, model_params={"C": 1e4})
    identified = accuracies(
        cue_bench, "jtt", {"first_params": {"C": 0.01}, "upweight": 20}, model_params={"C": 1e4}
    )
    assert identified != plain


def test_dfr_refuses_too_few_held_out_rows_and_prints_the_counts():
    small = cue_benchmark(n_validation=30, seed=3)  # 5% of 30 label-0 rows: one or two cue rows
    counts = small["validation"].groupby(["label", "shortcut"]).size()
    smallest = int(counts.min())
    with pytest.raises(DataError) as error:
        accuracies(small, "dfr", {"min_group": smallest + 1})
    message = str(error.value)
    assert f"needs at least {smallest + 1} held-out rows in every group" in message
    for (label, value), n in counts.items():
        assert f"{label}|{value or 'none'}: {n}" in message
    assert "\n" not in message


def without_validation_rows(bench: Benchmark, drop) -> Benchmark:
    validation = bench["validation"]
    kept = validation[~drop(validation)].reset_index(drop=True)
    return Benchmark(splits={**bench.splits, "validation": kept}, labels=bench.labels)


def test_dfr_refuses_a_group_without_held_out_rows_and_prints_its_zero_count(cue_bench):
    # The training rows have the group 0|zq; the held-out rows lose every row of it.
    bench = without_validation_rows(cue_bench, lambda v: (v.label == 0) & (v.shortcut == "zq"))
    with pytest.raises(DataError, match=r"held-out rows per group are .*0\|zq: 0"):
        accuracies(bench, "dfr", {"C": 0.3, "n_subsamples": 2})


def test_dfr_refuses_held_out_rows_without_a_training_label(cue_bench):
    bench = without_validation_rows(cue_bench, lambda v: v.label == 1)
    with pytest.raises(DataError) as error:
        accuracies(bench, "dfr", {"C": 0.3, "n_subsamples": 2})
    message = str(error.value)
    assert "held-out rows, but they have no row with label 1" in message
    assert "--val-size" in message and "\n" not in message


def test_dfr_with_a_fixed_c_skips_tuning_and_is_seeded(cue_bench):
    first = accuracies(cue_bench, "dfr", {"C": 0.3, "n_subsamples": 3}, seed=4)
    assert accuracies(cue_bench, "dfr", {"C": 0.3, "n_subsamples": 3}, seed=4) == first


def test_held_out_methods_refuse_a_benchmark_without_validation(cue_bench):
    bench = Benchmark(
        splits={k: v for k, v in cue_bench.splits.items() if k != "validation"},
        labels=cue_bench.labels,
    )
    for method in ("dfr", "llr"):
        with pytest.raises(ConfigError, match=f"The {method} mitigation refits on held-out rows"):
            accuracies(bench, method)


def test_llr_disagreement_needs_a_model_trained_in_epochs():
    mitigation = make_mitigation("llr", {"selection": "disagreement"})
    with pytest.raises(ConfigError, match="tfidf-logreg is not trained in epochs"):
        mitigation.check_backend("tfidf-logreg")


def test_last_layer_methods_refuse_backends_without_features():
    for method in ("dfr", "llr", "afr"):
        with pytest.raises(
            ConfigError, match=f"The {method} mitigation does not support the majority model"
        ):
            make_mitigation(method).check_backend("majority")


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        ("jtt", {"upweight": 0}, "'upweight' parameter of jtt must be a positive float"),
        (
            "jtt",
            {"first_epochs": 1.5},
            "'first_epochs' parameter of jtt must be a positive integer",
        ),
        ("jtt", {"first_params": [1]}, "'first_params' parameter must be a mapping"),
        ("dfr", {"C": -1}, "'C' parameter of dfr must be a positive float"),
        ("dfr", {"min_group": 1}, "'min_group' parameter of dfr must be an integer >= 2"),
        ("llr", {"selection": "random"}, "'selection' parameter of llr must be one of"),
        (
            "afr",
            {"erm_fraction": 1.0},
            r"'erm_fraction' parameter of afr must be a float in \(0, 1\)",
        ),
        ("afr", {"gamma": -2}, "'gamma' parameter of afr must be a non-negative float"),
    ],
)
def test_bad_parameters_are_refused(method, params, message):
    with pytest.raises(ConfigError, match=message):
        make_mitigation(method, params)


def held_out_features(seed: int, n: int = 12, noise: int = 30):
    """Dense held-out features with a weak label signal, a cue column and many noise columns (so
    the L1 strength matters), their labels and their groups (label, cue)."""
    rng = np.random.default_rng(seed)
    labels = np.repeat([0, 0, 1, 1], n)
    cue = np.tile(np.repeat([0, 1], n), 2)
    features = np.column_stack(
        [labels + rng.normal(0, 1, 4 * n), cue + rng.normal(0, 0.3, 4 * n)]
        + [rng.normal(size=(4 * n, noise))]
    )
    return features, labels, labels * 2 + cue


def tuned_c(features, labels, groups, seed):
    context = MitigationContext("tfidf-logreg", {}, seed, 2, (0, 1), TrainingRows([], labels))
    rng = np.random.default_rng(seed)
    return make_mitigation("dfr").tuned_c(features, labels, groups, rng, context)


@pytest.mark.parametrize("seed", range(6))
def test_dfr_tuning_standardises_the_raw_features_itself(seed):
    # Rescaling the columns changes nothing, so the tuning standardises the raw features it gets
    # (before, it got features already standardised on every held-out row, the scored half too;
    # on these seeds an unstandardised tuning picks another C for 4 of the 6).
    features, labels, groups = held_out_features(seed)
    scales = np.r_[0.05, 1.0, np.full(features.shape[1] - 2, 20.0)]
    assert tuned_c(features * scales, labels, groups, seed) == tuned_c(
        features, labels, groups, seed
    )
