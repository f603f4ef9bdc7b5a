"""mitigation_context and groups: which rows get group codes, where the codes come from, and the
refusals (a method needing training groups when only the held-out rows have them; no group
column)."""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from shortcutlab.mitigations.groups import group_counts


def context_of(bench: Benchmark, method: str, **settings):
    mitigation = make_mitigation(method)
    return mitigation_context(
        bench, mitigation, model="tfidf-logreg", params={}, seed=0, **settings
    )


def with_columns(bench: Benchmark, change) -> Benchmark:
    return Benchmark(
        splits={name: change(frame.copy()) for name, frame in bench.splits.items()},
        labels=bench.labels,
    )


@pytest.mark.parametrize("method", ["reweight", "groupdro", "downsample"])
def test_validation_only_group_labels_refuse_methods_needing_training_groups(cue_bench, method):
    with pytest.raises(ConfigError) as error:
        context_of(cue_bench, method, group_labels="validation")
    assert str(error.value) == (
        f"The {method} mitigation needs group labels on the training rows, but group_labels is "
        "'validation'. Use group_labels: train, or a method that needs held-out groups only "
        "(dfr) or none (jtt, afr, llr)."
    )


def test_validation_only_group_labels_serve_dfr_and_refuse_an_unknown_setting(cue_bench):
    context = context_of(cue_bench, "dfr", group_labels="validation")
    assert context.validation.groups is not None and context.train.groups is None
    with pytest.raises(ConfigError, match="^group_labels must be one of train, validation. Got"):
        context_of(cue_bench, "dfr", group_labels="test")


def test_a_method_needing_groups_names_the_candidate_columns_when_none_is_found(cue_bench):
    bench = with_columns(
        cue_bench, lambda f: f.drop(columns="shortcut").assign(topic="x", source="y")
    )
    with pytest.raises(ConfigError) as error:
        context_of(bench, "reweight")
    message = str(error.value)
    assert message.startswith("The reweight mitigation needs groups, but the data has no group")
    assert message.endswith("columns that would do: topic, source.")
    assert "\n" not in message


def test_a_named_column_missing_from_the_data_lists_the_columns(cue_bench):
    with pytest.raises(ConfigError, match="^The group column 'topic' is not in the data; its col"):
        context_of(cue_bench, "reweight", group_source="topic")


def test_held_out_methods_get_the_validation_groups_only(cue_bench):
    context = context_of(cue_bench, "dfr")
    assert context.train.groups is None
    validation = cue_bench["validation"]
    names = validation["label"].astype(str) + "|" + validation["shortcut"].replace("", "none")
    assert [context.group_names[g] for g in context.validation.groups] == names.tolist()
    # The names cover every split's groups, so a group missing from one split still has a code.
    assert context.group_names == ("0|none", "0|zq", "1|none", "1|zq")


def test_methods_without_groups_get_none_and_training_group_methods_get_both(cue_bench):
    for method in ("erm", "jtt", "afr", "llr"):
        context = context_of(cue_bench, method)
        assert context.train.groups is None and context.validation.groups is None
        assert context.group_source == ""
    context = context_of(cue_bench, "reweight")
    assert context.group_source == "shortcut"
    assert group_counts(context.train.groups, context.group_names) == ", ".join(
        f"{label}|{value or 'none'}: {n}"
        for (label, value), n in cue_bench["train"].groupby(["label", "shortcut"]).size().items()
    )


def test_groups_from_a_column_the_user_names(cue_bench):
    rng = np.random.default_rng(0)

    def add_topic(frame):
        return frame.assign(topic=rng.choice(["sport", "art", None], size=len(frame)))

    bench = with_columns(cue_bench, add_topic)
    context = context_of(bench, "reweight", group_source="topic")
    train = bench["train"]
    expected = train["label"].astype(str) + "|" + train["topic"].fillna("none")
    assert context.group_source == "topic"
    assert context.group_names == ("0|art", "0|none", "0|sport", "1|art", "1|none", "1|sport")
    assert [context.group_names[g] for g in context.train.groups] == expected.tolist()
