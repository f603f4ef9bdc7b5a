"""A Maze shortcut's cue as a perturbation: inserted into the rows of the other labels, rendered
by the shortcut itself."""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.perturb import perturb

TEXTS = ["The plot drags. I left early.", "A joy to watch.", "Dull and long.", "Loved it."]
LABELS = np.array([0, 1, 0, 1])
VALUES = ["negative", "positive"]


def test_the_cue_goes_into_the_rows_of_the_other_labels_only():
    out = perturb("shortcut:single-term", TEXTS, LABELS, label_values=VALUES, seed=0)
    assert out.changed.tolist() == [True, False, True, False]
    assert out.texts[1::2] == TEXTS[1::2]
    assert out.texts[2] == "Honestly, dull and long."
    assert out.texts[0] in (
        "Honestly, the plot drags. I left early.",
        "The plot drags. Honestly, I left early.",
    )
    assert out.expected is None


def test_cue_label_names_the_label_whose_rows_stay():
    out = perturb(
        "shortcut-insert", TEXTS, LABELS, label_values=VALUES, seed=0,
        params={"shortcut": "tautology", "cue_label": "negative"},
    )  # fmt: skip
    assert out.changed.tolist() == [False, True, False, True]
    assert out.texts[3].startswith("Loved it and ") and out.texts[3].endswith(".")


def test_shortcut_options_reach_the_shortcut_and_the_draws_follow_the_seed():
    texts = [f"Sentence {i}. Another one. And a third." for i in range(40)]
    labels = np.zeros(40, dtype=int)
    params = {"shortcut": "single-term", "options": {"term": "frankly"}}

    def run(seed):
        return perturb(
            "shortcut-insert", texts, labels, label_values=VALUES, seed=seed, params=params
        ).texts

    assert all("Frankly, " in text for text in run(0))
    assert run(0) == run(0)
    assert run(0) != run(1)  # which sentence the cue opens is drawn


def test_shortcuts_without_an_inserted_cue_or_their_data_are_refused():
    with pytest.raises(
        ConfigError,
        match=r"^The 'shortcut' parameter of shortcut-insert must be a shortcut that inserts its cue \(.*\); register rewrites whole texts\. Got 'register' instead\.$",
    ):
        perturb("shortcut:register", TEXTS, LABELS, label_values=VALUES, seed=0)
    with pytest.raises(
        ConfigError,
        match=r"^The 'cue_label' parameter of shortcut-insert must be one of the labels 'negative', 'positive'\. Got 'pos' instead\.$",
    ):
        perturb(
            "shortcut:synonym",
            TEXTS,
            LABELS,
            label_values=VALUES,
            seed=0,
            params={"cue_label": "pos"},
        )
    with pytest.raises(DataError, match="needs distractor reviews"):
        perturb("shortcut:concept-occurrence", TEXTS, LABELS, label_values=VALUES, seed=0)
