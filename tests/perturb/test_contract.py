"""What every registered perturbation promises: determinism, `changed` read off the texts, rows
with nothing to change left alone, DIR expectations, and one-line refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shortcutlab.errors import ConfigError, UnknownComponentError
from shortcutlab.perturb import (
    NO_EXPECTATION,
    PERTURBATION_KINDS,
    PERTURBATIONS,
    make_perturbation,
    perturb,
    perturbation_names,
)

TEXTS = [
    "Mary didn't like the colour of the 3 hats in Paris. He is not happy!",
    "James is a great actor, and his wife can sing in London's theater.",
    "",
    "42",
]
LABELS = np.array([0, 1, 0, 1])
VALUES = ["negative", "positive"]
# What a DIR class needs to know, and word-swap-mlm its model (the session's tiny checkpoint,
# set by the fixture below); every other class runs with its defaults.
PARAMS = {"negation-add": {"expect": "flip"}, "negation-remove": {"expect": "flip"}}


@pytest.fixture(scope="module", autouse=True)
def _mlm_model(tiny_mlm):
    PARAMS["word-swap-mlm"] = {"model": str(tiny_mlm)}


def run(name, texts=TEXTS, labels=LABELS, seed=0):
    return perturb(name, texts, labels, label_values=VALUES, seed=seed, params=PARAMS.get(name))


def test_every_name_declares_a_kind_and_what_it_needs():
    for name in PERTURBATIONS:
        capabilities = PERTURBATIONS.capabilities(name)
        assert capabilities["kind"] in PERTURBATION_KINDS
    needing = [name for name in PERTURBATIONS if PERTURBATIONS.capabilities(name)["needs"]]
    assert needing == ["word-swap-mlm"]  # the one optional class: a checkpoint on disk
    assert PERTURBATIONS.having("kind", "DIR") == ["negation-add", "negation-remove"]
    assert "shortcut:single-term" in perturbation_names()
    assert "shortcut:register" not in perturbation_names()


@pytest.mark.parametrize("name", perturbation_names()[: len(PERTURBATIONS)])
def test_same_seed_same_bytes_and_changed_matches_the_texts(name):
    first, again = run(name), run(name)
    assert first.texts == again.texts
    assert len(first.texts) == len(TEXTS)
    assert first.changed.dtype == bool
    assert first.changed.tolist() == [a != b for a, b in zip(TEXTS, first.texts, strict=True)]
    assert first.changed.any()
    kind = PERTURBATIONS.capabilities(name)["kind"]
    assert (first.expected is None) == (kind == "INV")
    provenance = make_perturbation(name, PARAMS.get(name)).provenance()
    assert provenance["library"] == "shortcutlab" and provenance["version"]


@pytest.mark.parametrize(
    "name",
    ["typos-keyboard", "typos-swap", "typos-ocr", "whitespace-tabs", "names-swap", "number-change",
     "sentence-suffix", "punctuation-add"],
)  # fmt: skip
def test_another_seed_draws_differently(name):
    texts = [f"Mary paid {n} dollars in Paris and James said it was fine." for n in range(10, 40)]
    labels = np.zeros(len(texts), dtype=int)
    assert run(name, texts, labels, seed=1).texts != run(name, texts, labels, seed=2).texts


def test_negation_expects_the_other_label_on_changed_rows_only():
    added = run("negation-add")
    assert (
        added.texts[1] == "James is not a great actor, and his wife can sing in London's theater."
    )
    assert added.texts[0] == TEXTS[0]  # "is" is negated already, "did" is not a copula or modal
    assert added.expected.tolist() == [NO_EXPECTATION, 0, NO_EXPECTATION, NO_EXPECTATION]
    removed = run("negation-remove")
    assert removed.texts[0] == "Mary did like the colour of the 3 hats in Paris. He is happy!"
    assert removed.expected.tolist() == [1, NO_EXPECTATION, NO_EXPECTATION, NO_EXPECTATION]
    mapped = perturb(
        "negation-add", TEXTS, LABELS, label_values=VALUES, seed=0,
        params={"expect": {"positive": "negative"}},
    )  # fmt: skip
    assert mapped.expected.tolist() == [NO_EXPECTATION, 0, NO_EXPECTATION, NO_EXPECTATION]


def test_dir_without_a_declared_mapping_is_refused_in_one_line():
    three = ["negative", "neutral", "positive"]
    with pytest.raises(
        ConfigError,
        match=r"^The 'expect' parameter of negation-add must map each label .* the labels are 'negative', 'neutral', 'positive'\. Got None instead\.$",
    ):
        perturb("negation-add", TEXTS, LABELS, label_values=three, seed=0)
    with pytest.raises(ConfigError, match=r"^The 'expect' parameter of negation-add must map"):
        perturb(
            "negation-add", TEXTS, LABELS, label_values=three, seed=0, params={"expect": "flip"}
        )
    with pytest.raises(
        ConfigError,
        match=r"^The 'expect' parameter of negation-remove names 'good', which is not a label; the labels are 'negative', 'positive'\.$",
    ):
        perturb(
            "negation-remove",
            TEXTS,
            LABELS,
            label_values=VALUES,
            seed=0,
            params={"expect": {"good": "negative"}},
        )


def test_unknown_names_and_parameters_are_refused_with_the_close_matches():
    with pytest.raises(
        UnknownComponentError,
        match=r"^Unknown perturbation 'typo-keyboard'\. Did you mean 'typos-keyboard'",
    ):
        run("typo-keyboard")
    with pytest.raises(
        UnknownComponentError,
        match=r"^Unknown shortcut 'singel-term'\. Did you mean 'single-term'\?",
    ):
        run("shortcut:singel-term")
    with pytest.raises(
        ConfigError,
        match=r"^The case-upper perturbation has no parameter 'rate'\. Its parameters are: none\.$",
    ):
        perturb("case-upper", TEXTS, LABELS, label_values=VALUES, seed=0, params={"rate": 0.1})
    with pytest.raises(
        ConfigError,
        match=r"^The 'scope' parameter of punctuation-strip must be one of 'all', 'end'\. Got 'al' instead\. Did you mean 'all'\?$",
    ):
        perturb(
            "punctuation-strip", TEXTS, LABELS, label_values=VALUES, seed=0, params={"scope": "al"}
        )


# Text with nothing any INV class (but the sentence, mark and cue inserters) can change: no
# letters, spaces, punctuation, digits or listed words.
NOTHING_TO_CHANGE = st.text(alphabet=st.sampled_from("_\u00e9\u00df\u4e2d"), max_size=12)
INSERTERS = {"sentence-prefix", "sentence-suffix", "punctuation-add", "shortcut-insert"}
# word-swap-mlm swaps any word of three letters ("ééé" too), listed or not.
EDITORS = [
    n for n in PERTURBATIONS
    if PERTURBATIONS.capabilities(n)["kind"] == "INV" and n not in INSERTERS
    and not n.startswith("case-") and n != "word-swap-mlm"
]  # fmt: skip
# Casing changes letters only: text of digits, marks and uncased letters has nothing to change.
CASELESS = st.text(alphabet=st.sampled_from("_7!? \u4e2d\u0627"), max_size=12)


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(NOTHING_TO_CHANGE, min_size=1, max_size=6), seed=st.integers(0, 2**32))
def test_inv_classes_never_touch_rows_with_nothing_to_change(texts, seed):
    labels = np.zeros(len(texts), dtype=int)
    for name in EDITORS:
        out = perturb(name, texts, labels, label_values=VALUES, seed=seed)
        assert out.texts == texts, name
        assert not out.changed.any(), name


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(CASELESS, min_size=1, max_size=6))
def test_case_classes_never_touch_rows_without_cased_letters(texts):
    for name in ("case-upper", "case-lower", "case-title"):
        out = perturb(name, texts, np.zeros(len(texts), dtype=int), label_values=VALUES, seed=0)
        assert out.texts == texts and not out.changed.any(), name


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.text(max_size=40), min_size=1, max_size=6),
    seed=st.integers(0, 2**32),
)
def test_every_class_keeps_rows_in_order_and_reports_changed_truthfully(texts, seed):
    labels = np.arange(len(texts)) % 2
    for name in PERTURBATIONS.names():
        out = perturb(name, texts, labels, label_values=VALUES, seed=seed, params=PARAMS.get(name))
        assert len(out.texts) == len(texts), name
        assert out.changed.tolist() == [a != b for a, b in zip(texts, out.texts, strict=True)], name
        assert (
            out.texts
            == perturb(
                name, texts, labels, label_values=VALUES, seed=seed, params=PARAMS.get(name)
            ).texts
        )
