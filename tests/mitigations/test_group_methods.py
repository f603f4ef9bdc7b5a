"""reweight, downsample (with and without a prior) and groupdro on the planted-cue benchmark."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from tests.mitigations.conftest import accuracies

# The plain fit leans on the cue: its anti-test accuracy is far below its test accuracy.
CUE_RELIANCE = 0.5


def test_the_plain_fit_leans_on_the_planted_cue(erm_scores):
    assert erm_scores["test"] - erm_scores["anti_test"] > CUE_RELIANCE


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("reweight", None),
        ("downsample", None),
        ("groupdro", {"head_epochs": 10}),
    ],
)
def test_group_methods_raise_anti_test_accuracy(cue_bench, erm_scores, method, params):
    scores = accuracies(cue_bench, method, params)
    assert scores["anti_test"] > erm_scores["anti_test"] + 0.25
    gap = scores["test"] - scores["anti_test"]
    assert gap < erm_scores["test"] - erm_scores["anti_test"] - 0.25


def _prior_benchmark() -> Benchmark:
    """Groups (0, cue) 10, (0, none) 50, (1, cue) 40, (1, none) 20 rows."""
    counts = {(0, "cue"): 10, (0, ""): 50, (1, "cue"): 40, (1, ""): 20}
    rows: list[dict] = []
    for (label, value), n in counts.items():
        rows += [{"text": f"row {len(rows)}", "label": label, "shortcut": value} for _ in range(n)]
    frame = pd.DataFrame(rows)
    frame.insert(0, "row_id", np.arange(len(frame)))
    return Benchmark(splits={"train": frame}, labels=LabelSpace((0, 1)))


def _fitted_prior(params):
    """The label distribution the majority backend learned: the rows downsample fitted on."""
    bench = _prior_benchmark()
    mitigation = make_mitigation("downsample", params)
    context = mitigation_context(bench, mitigation, model="majority", params={}, seed=0)
    return mitigation.fit(context).predict_proba(["anything"])[0]


def test_downsample_cuts_every_group_to_the_smallest():
    # 10 rows of each of the four groups: both labels equally often.
    assert _fitted_prior(None).tolist() == [0.5, 0.5]


def test_prior_downsampling_leaves_unnamed_groups_whole():
    # Only the cue groups are cut (to 10): 10 + 50 rows of label 0, 10 + 20 of label 1.
    assert _fitted_prior({"prior": ["cue"]}).tolist() == pytest.approx([60 / 90, 30 / 90])


def test_prior_naming_an_absent_value_is_refused():
    with pytest.raises(
        ConfigError,
        match=r"names 'sarcasm', which no training group has; the attribute values are cue, none",
    ):
        _fitted_prior({"prior": ["sarcasm"]})


@pytest.mark.parametrize("prior", [[], "cue", [["cue"]]])
def test_a_malformed_prior_is_refused(prior):
    with pytest.raises(
        ConfigError, match="'prior' parameter of downsample must be null or a non-empty list"
    ):
        make_mitigation("downsample", {"prior": prior})


def test_downsample_is_seeded(cue_bench):
    first = accuracies(cue_bench, "downsample", seed=1)
    assert accuracies(cue_bench, "downsample", seed=1) == first


def test_rows_without_a_group_are_refused(cue_bench):
    mitigation = make_mitigation("reweight")
    context = mitigation_context(cue_bench, mitigation, model="tfidf-logreg", params={}, seed=0)
    context.train.groups[:3] = -1
    with pytest.raises(
        DataError, match="needs a group for every training row, but 3 of 600 have none"
    ):
        mitigation.fit(context)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"step_size": 0}, "'step_size' parameter of groupdro must be a positive float"),
        ({"adjustment": -1}, "'adjustment' parameter of groupdro must be a non-negative float"),
        (
            {"head_batch_size": 0},
            "'head_batch_size' parameter of groupdro must be a positive integer",
        ),
    ],
)
def test_groupdro_refuses_bad_parameters(params, message):
    with pytest.raises(ConfigError, match=message):
        make_mitigation("groupdro", params)
