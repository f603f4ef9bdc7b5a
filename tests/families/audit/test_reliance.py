"""Reliance through the model's own eyes (families/audit/reliance/counterfactual.py): the removal
and insertion tests decide ``relied_on``; a word the model's tokenizer drops is not visible and
gets no reliance figure; an n-gram counts only where its words are adjacent in the model's
tokens."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.stats import binomtest

from shortcutlab.families.audit.reliance.measure import MeasureSpec, measure_candidates
from shortcutlab.families.audit.scan.candidates import Candidate
from shortcutlab.models.text_view import TextView
from tests.families.audit.test_measure import KeywordRule, rows, spec


class SeeingRule(KeywordRule):
    """The keyword rule with a view of its text: words of two or more characters (scikit-learn's
    default token pattern), or with ``every_word`` every word."""

    def __init__(self, every_word: bool = False) -> None:
        super().__init__()
        self.pattern = r"\w+" if every_word else r"\b\w\w+\b"

    def text_view(self, part: str = "text") -> TextView:
        return TextView(tokens=lambda text: re.findall(self.pattern, text.lower()))


def test_reliance_comes_from_the_counterfactual_tests_and_unseen_words_get_none():
    table = rows(200)
    specs = [spec(table, "zebra"), spec(table, "apple"), spec(table, "a")]
    zebra, apple, one_letter = measure_candidates(SeeingRule(), table, specs, n_resamples=200)
    assert zebra["visible"] is True and zebra["relied_on"] is True
    # inserting zebra into calm rows without it makes the rule say alarm on every one of them
    assert zebra["insertion_changed"] == 1.0 and zebra["insertion_label_shift"] > 0.6
    assert zebra["insertion_accuracy_before"] == 1.0 and zebra["insertion_accuracy_after"] == 0.0
    assert apple["visible"] is True and apple["relied_on"] is False
    assert apple["removal_changed"] == 0.0 and apple["insertion_changed"] == 0.0
    # each flip rate (the invariance figure) comes with its exact (Clopper–Pearson) interval
    for figures, test in [(zebra, "insertion"), (apple, "removal"), (apple, "insertion")]:
        flips = round(figures[f"{test}_changed"] * figures[f"{test}_rows"])
        interval = binomtest(flips, figures[f"{test}_rows"]).proportion_ci(method="exact")
        assert figures[f"{test}_changed_low"] == pytest.approx(interval.low)
        assert figures[f"{test}_changed_high"] == pytest.approx(interval.high)
    assert zebra["insertion_changed_low"] < 1.0 == zebra["insertion_changed_high"]
    # "a" is in every row, but the model's tokenizer drops it: no reliance figure at all
    assert one_letter["visible"] is False and one_letter["relied_on"] is None
    assert one_letter["removal_rows"] is None and one_letter["insertion_rows"] is None
    assert one_letter["delta_rows"] is not None  # the association Δ is still measured


def test_an_ngram_counts_only_where_its_words_are_adjacent_in_the_model_tokens():
    table = rows(200)
    # an indicator that (as the old scan did) fires on "saw zebra" though "a" stands between
    saw_zebra = Candidate("ngram:text:saw zebra", "saw zebra", "ngram", "text", 1, "saw zebra")
    gapped = MeasureSpec(saw_zebra, spec(table, "zebra").fires)
    (seen_whole,) = measure_candidates(SeeingRule(every_word=True), table, [gapped])
    assert seen_whole["visible"] is True and seen_whole["removal_rows"] == 0
    # no row carries it: every row is aligned on a calm label or conflicting on alarm
    assert seen_whole["aligned_rows"] == int(np.sum(table.ranks == 0))


def test_a_model_without_a_view_is_still_tested_counterfactually():
    table = rows(200)
    (zebra,) = measure_candidates(KeywordRule(), table, [spec(table, "zebra")], n_resamples=200)
    assert zebra["visible"] is None and zebra["relied_on"] is True
