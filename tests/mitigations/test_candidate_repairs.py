"""The data-level repairs: the training texts they produce, the cue a Maze build records as their
default candidate, and what they do to a model that leaned on the cue."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from tests.mitigations.conftest import accuracies
from tests.mitigations.synthetic import CUE

TEXTS = ["Frankly, it works.", "It broke. frankly bad", "Fine film", "Dull plot"]
LABELS = [1, 1, 0, 0]


def _bench(texts=TEXTS, pairs=None, manifest=None) -> Benchmark:
    frame = pd.DataFrame({"row_id": range(len(texts)), "text": texts, "label": LABELS})
    if pairs is not None:
        frame["text_pair"] = pairs
    return Benchmark({"train": frame}, LabelSpace((0, 1)), manifest or {})


def _repaired(name: str, params=None, bench=None, seed=0):
    mitigation = make_mitigation(name, params)
    bench = bench if bench is not None else _bench()
    context = mitigation_context(bench, mitigation, model="tfidf-logreg", params={}, seed=seed)
    return mitigation.repaired(context)


def test_remove_and_mask_edit_the_rows_that_have_the_candidate_in_place():
    removed = _repaired("remove-candidate", {"candidate": "frankly"})
    assert removed.inputs == [", it works.", "It broke. bad", "Fine film", "Dull plot"]
    assert removed.labels.tolist() == LABELS
    masked = _repaired("mask-candidate", {"candidate": "Frankly", "mask": "<m>"})
    assert masked.inputs == ["<m>, it works.", "It broke. <m> bad", "Fine film", "Dull plot"]
    assert _repaired("mask-candidate", {"candidate": ["frankly", "dull"]}).inputs[2:] == [
        "Fine film",
        "[MASK] plot",
    ]


def test_counterfactual_augment_adds_one_opposite_copy_per_row_labels_kept():
    rows = _repaired("counterfactual-augment", {"candidate": "frankly"}, seed=1)
    assert rows.inputs[:4] == TEXTS
    assert rows.inputs[4:6] == [", it works.", "It broke. bad"]
    assert [t.lower().split().count("frankly") for t in rows.inputs[6:]] == [1, 1]
    assert [t.replace("frankly ", "") for t in rows.inputs[6:]] == TEXTS[2:]
    assert rows.labels.tolist() == LABELS + LABELS
    again = _repaired("counterfactual-augment", {"candidate": "frankly"}, seed=1)
    assert again.inputs == rows.inputs


def test_part_text_pair_edits_the_second_text_only():
    bench = _bench(pairs=["frankly yes", "no", "frankly no", "yes"])
    rows = _repaired("remove-candidate", {"candidate": "frankly", "part": "text_pair"}, bench)
    assert rows.inputs == [(TEXTS[0], "yes"), (TEXTS[1], "no"), (TEXTS[2], "no"), (TEXTS[3], "yes")]


def test_the_candidate_defaults_to_the_cue_a_maze_build_recorded():
    arguments = {"shortcut": "single-term", "shortcut_options": {"term": "frankly"}}
    bench = _bench(manifest={"arguments": arguments})
    assert _repaired("remove-candidate", bench=bench).inputs[:2] == [", it works.", "It broke. bad"]


@pytest.mark.parametrize(
    ("params", "bench", "message"),
    [
        ({"candidate": " "}, None, "The 'candidate' parameter of remove-candidate must be"),
        ({"candidate": []}, None, "The 'candidate' parameter of remove-candidate must be"),
        ({"part": "hypothesis"}, None, "The 'part' parameter of remove-candidate must be one of"),
        ({}, _bench(), "needs a candidate: give candidate: PHRASE"),
        ({"candidate": "x", "part": "text_pair"}, _bench(), "edits text_pair, but the data has"),
        ({"candidate": "honestly"}, _bench(), "found no training text (text) with the candidate"),
    ],
)
def test_bad_parameters_are_one_line_errors(params, bench, message):
    with pytest.raises(ConfigError) as error:
        if bench is None:
            make_mitigation("remove-candidate", params)
        else:
            _repaired("remove-candidate", params, bench)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_an_empty_mask_is_refused():
    with pytest.raises(ConfigError, match="The 'mask' parameter of mask-candidate must be"):
        make_mitigation("mask-candidate", {"candidate": "x", "mask": ""})


@pytest.mark.parametrize("name", ["remove-candidate", "mask-candidate", "counterfactual-augment"])
def test_each_repair_raises_anti_test_accuracy_over_erm(cue_bench, erm_scores, name):
    repaired = accuracies(cue_bench, name, {"candidate": CUE})
    assert erm_scores["anti_test"] < 0.7
    assert repaired["anti_test"] > erm_scores["anti_test"] + 0.1
    assert np.isclose(repaired["anti_test"], repaired["test"], atol=0.1)
