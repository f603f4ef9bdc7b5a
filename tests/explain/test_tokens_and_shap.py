"""Tokens and their offsets, the token/cue mapping, and SHAP values of a model whose answer is
known: a model that reads only the cue gives the cue all of the attribution."""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.explain import TextExplainer, remove_spans, tokens_in_spans, word_spans
from shortcutlab.explain.tokens import WordTokenizer, visible_characters


def cue_reader(texts: list[str]) -> np.ndarray:
    """p(label 1) = 0.9 when "Honestly" is in the text, 0.2 otherwise; nothing else matters."""
    has = np.array(["Honestly" in t for t in texts], dtype=float)
    return np.column_stack([0.8 - 0.7 * has, 0.2 + 0.7 * has])


def word_counter(texts: list[str]) -> np.ndarray:
    """p(label 1) grows with the number of words: every word adds the same amount."""
    n = np.array([len(word_spans(t.replace("...", ""))) for t in texts], dtype=float)
    return np.column_stack([1 - n / 100, n / 100])


def test_tokens_are_words_and_marks_with_offsets():
    text = "Honestly, it's fine\u2014really!"
    spans = word_spans(text)
    assert [text[a:b] for a, b in spans] == [
        "Honestly",
        ",",
        "it's",
        "fine",
        "\u2014",
        "really",
        "!",
    ]
    assert WordTokenizer()(text)["offset_mapping"] == spans
    assert WordTokenizer()(text, return_offsets_mapping=False) == {
        "input_ids": ["Honestly", ",", "it's", "fine", "\u2014", "really", "!"]
    }


def test_a_token_belongs_to_the_cue_when_it_shares_a_character():
    offsets = [(0, 8), (8, 9), (10, 12), (13, 16)]
    assert tokens_in_spans(offsets, [(0, 10)]).tolist() == [True, True, False, False]
    assert tokens_in_spans(offsets, [(11, 14)]).tolist() == [False, False, True, True]
    assert tokens_in_spans(offsets, [(9, 10)]).tolist() == [False, False, False, False]
    assert tokens_in_spans(offsets, []).tolist() == [False] * 4


def test_removing_spans_and_counting_visible_characters():
    text = "Good. Honestly, bad. I wrote this in Oslo. End."
    assert remove_spans(text, [(6, 16), (21, 43)]) == "Good. bad. End."
    assert visible_characters(text, [(6, 16)]) == set(range(6, 15))


@pytest.mark.slow
def test_shap_gives_the_cue_everything_a_cue_reading_model_uses():
    text = "The food was cold. Honestly, the service was slow."
    values = TextExplainer().explain(text, cue_reader)
    cue = tokens_in_spans(values.offsets, [(19, 29)])
    assert values.values.shape == (len(word_spans(text)), 2)
    assert values.values[cue, 1].sum() == pytest.approx(0.7)
    assert np.abs(values.values[~cue]).max() == pytest.approx(0.0, abs=1e-12)
    # Efficiency: the base (everything masked) plus all values is the output on the text.
    assert values.base + values.values.sum(axis=0) == pytest.approx(cue_reader([text])[0])


@pytest.mark.slow
def test_every_token_gets_its_own_value_by_default_and_shares_one_under_a_small_budget():
    text = " ".join(f"word{i}" for i in range(30))
    full = TextExplainer().explain(text, word_counter)
    assert full.values[:, 1] == pytest.approx(np.full(30, 0.01))
    coarse = TextExplainer(max_evals=20).explain(text, word_counter)
    assert len(set(np.round(coarse.values[:, 1], 9))) < 30  # neighbours share a value
    assert coarse.values[:, 1].sum() == pytest.approx(0.3)


@pytest.mark.parametrize("max_evals", [None, 15])
def test_values_are_the_same_on_every_call_and_the_global_generator_is_left_alone(max_evals):
    """shap breaks ties with NumPy's global generator; the values must not depend on it."""
    text = "Honestly, the food was cold but the staff were kind."
    np.random.seed(123)
    first = TextExplainer(max_evals=max_evals).explain(text, word_counter)
    after_first = np.random.random()
    np.random.seed(456)
    again = TextExplainer(max_evals=max_evals).explain(text, word_counter)
    assert first.values.tobytes() == again.values.tobytes()
    np.random.seed(123)
    assert np.random.random() == after_first  # the caller's sequence went on as if untouched


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_evals": 2}, "'max_evals' parameter of explain must be an integer >= 3"),
        ({"max_evals": 10.5}, "'max_evals' parameter of explain must be an integer >= 3"),
        ({"batch_size": 0}, "'batch_size' parameter of explain must be a positive integer"),
    ],
)
def test_bad_budgets_are_refused(options, message):
    with pytest.raises(ConfigError, match=message):
        TextExplainer(**options)


def test_a_text_without_tokens_is_refused():
    with pytest.raises(DataError, match="has no token"):
        TextExplainer().explain("   ", cue_reader)
