"""measure_candidates on a keyword-rule model: the rule's token shows a large aligned/conflicting
gap, removal effect and anti-test drop; an unrelated token shows none. A model that is only better
on one label, whatever the token, shows no gap either: Δ is compared within each gold label, and
its p holds its level when a label's group is tiny (Cochran–Mantel–Haenszel, small cells left out).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import pytest

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.audit.reliance.measure import (
    INTERVAL_NOTE,
    MIN_ECE_ROWS,
    MIN_GROUP_ROWS,
    MeasureSpec,
    measure_candidates,
)
from shortcutlab.families.audit.scan.candidates import MEASURE_COLUMNS, Candidate
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.shortcuts.phrases_in_text import phrase_pattern, remove_phrase

SPACE = LabelSpace(("calm", "alarm"))


class KeywordRule:
    """Says "alarm" (p = 0.9) when the word zebra is in the text (or its pair), else "calm";
    records every call."""

    name = "keyword-rule"

    def __init__(self) -> None:
        self.calls: list[list] = []

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        self.calls.append(list(inputs))
        hits = np.array(
            [bool(phrase_pattern("zebra").search(" ".join(np.atleast_1d(x)))) for x in inputs]
        )
        alarm = np.where(hits, 0.9, 0.2)
        return np.column_stack([1 - alarm, alarm])


class Lookup:
    """Predicts a fixed label per row (p = 0.8), read from the first number of the text ("Row
    <i>" at its start), so removing or inserting any word changes nothing."""

    name = "lookup"

    def __init__(self, predictions: Sequence[int], k: int) -> None:
        self.predictions, self.k = list(predictions), k

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        rows = [int(re.search(r"(\d+)", text).group(1)) for text in inputs]
        out = np.full((len(inputs), self.k), 0.2 / (self.k - 1))
        out[np.arange(len(inputs)), [self.predictions[i] for i in rows]] = 0.8
        return out


def rows(n: int = 400, paired: bool = False) -> AuditInputs:
    """Half the rows say zebra, 75 % of those are alarm and 75 % of the rest calm; apple is in
    every other row, independently of both. Texts are distinct (the MPS builder holds out every
    row sharing a text with its test rows)."""
    rng = np.random.default_rng(0)
    zebra = np.arange(n) < n // 2
    alarm = np.where(zebra, rng.random(n) < 0.75, rng.random(n) < 0.25)
    texts = [
        " ".join(
            [f"Row {i}: I saw", "a zebra" if z else "a horse", "and an apple" if i % 2 else "today"]
        )
        + "."
        for i, z in enumerate(zebra.tolist())
    ]
    pairs = [f"note {i}" for i in range(n)] if paired else None
    if paired:
        texts, pairs = pairs, texts  # the words live in the second part
    return AuditInputs(np.arange(n), texts, alarm.astype(np.int64), SPACE, pairs)


def spec(table: AuditInputs, word: str, label: int = 1, part: str = "text") -> MeasureSpec:
    fires = np.array([bool(phrase_pattern(word).search(t)) for t in table.part(part)])
    return MeasureSpec(Candidate(f"token:{part}:{word}", word, "token", part, label, word), fires)


@pytest.fixture(scope="module")
def measured():
    table = rows()
    model = KeywordRule()
    results = measure_candidates(
        model, table, [spec(table, "zebra"), spec(table, "apple")], n_resamples=500
    )
    return table, model, results


def test_every_measure_column_is_present(measured):
    _, _, results = measured
    for row in results:
        assert set(MEASURE_COLUMNS) <= set(row)
    assert [row["key"] for row in results] == ["token:text:zebra", "token:text:apple"]


def test_the_rule_token_splits_aligned_from_conflicting_rows(measured):
    table, _, (zebra, apple) = measured
    # The rule is the bias predictor itself: right on every aligned row (zebra and alarm, or no
    # zebra and calm), wrong on every conflicting one, within each label.
    assert zebra["aligned_accuracy"] == 1.0 and zebra["conflicting_accuracy"] == 0.0
    assert zebra["delta"] == 1.0 and zebra["delta_low"] == 1.0 and zebra["delta_high"] == 1.0
    assert zebra["delta_p_adjusted"] < 1e-10
    assert zebra["aligned_rows"] + zebra["conflicting_rows"] == len(table) == 400
    assert zebra["delta_rows"] == 400  # both labels have >= 10 rows in each group
    zebra_rows = np.arange(400) < 200
    assert zebra["aligned_rows"] == int(np.sum(zebra_rows == (table.ranks == 1)))
    # apple: accuracy is 0.75 whatever the label, so the gap is small and its interval holds 0.
    assert abs(apple["delta"]) < 0.15 and apple["delta_low"] < 0 < apple["delta_high"]
    assert apple["delta_p_adjusted"] > 0.05


def test_calibration_per_group():
    table = rows(1000)
    (zebra,) = measure_candidates(
        KeywordRule(), table, [spec(table, "zebra")], n_resamples=50, redistribution=False
    )
    assert min(zebra["aligned_rows"], zebra["conflicting_rows"]) >= MIN_ECE_ROWS == 200
    # Aligned rows are right: zebra rows with confidence 0.9, the others 0.8 (p(calm));
    # conflicting rows are wrong with the same confidences.
    zebra_rows = np.arange(1000) < 500
    aligned = zebra_rows == (table.ranks == 1)
    share = np.mean(zebra_rows[aligned])
    assert zebra["aligned_ece"] == pytest.approx(share * 0.1 + (1 - share) * 0.2)
    share = np.mean(zebra_rows[~aligned])
    assert zebra["conflicting_ece"] == pytest.approx(share * 0.9 + (1 - share) * 0.8)
    assert zebra["calibration_gap"] == pytest.approx(
        zebra["conflicting_ece"] - zebra["aligned_ece"]
    )


def test_ece_is_left_out_when_a_group_has_fewer_than_200_rows(measured):
    """Binned ECE is biased upward in small groups (0.18 for a calibrated model on 15 rows), so
    below 200 rows in either group there is no ECE to compare; the accuracies stay."""
    _, _, (zebra, _) = measured
    assert zebra["conflicting_rows"] < 200 <= zebra["aligned_rows"]
    assert zebra["aligned_ece"] is None and zebra["conflicting_ece"] is None
    assert zebra["calibration_gap"] is None
    assert zebra["conflicting_accuracy"] == 0.0
    assert "ECE is biased upward in small groups; it is left out below 200 rows" in INTERVAL_NOTE


def test_a_model_better_on_one_label_but_blind_to_the_token_shows_no_gap():
    """The confound the label strata remove: the model is right on every alarm row and on half
    the calm rows, whatever the text says; apple sits on 80 % of alarm rows and 10 % of calm
    ones. Among rows with apple, alarm rows (1.0) beat calm rows (~0.5), a +0.5 gap that says
    nothing about apple; within each label, rows with and without apple score alike."""
    rng = np.random.default_rng(1)
    alarm = np.arange(800) < 200
    apple = np.where(alarm, rng.random(800) < 0.8, rng.random(800) < 0.1)
    right = alarm | (rng.random(800) < 0.5)
    texts = [f"Row {i}: " + ("an apple" if a else "a pear") for i, a in enumerate(apple.tolist())]
    ranks = alarm.astype(np.int64)
    predicted = np.where(right, ranks, 1 - ranks)
    model = Lookup(predicted.tolist(), k=2)
    table = AuditInputs(np.arange(800), texts, ranks, SPACE)
    (result,) = measure_candidates(
        model, table, [spec(table, "apple")], n_resamples=500, redistribution=False
    )
    assert abs(result["delta"]) < 0.1
    assert result["delta_low"] < 0 < result["delta_high"]
    assert result["delta_p"] > 0.05


def layout_table(layout: list[tuple[int, bool, int]]) -> tuple[Lookup, AuditInputs]:
    """A lookup model and table over (gold, the word flag is in the text, model right) rows."""
    space = LabelSpace(("a", "b", "c"))
    texts = [f"Row {i}" + (" flag" if fires else "") for i, (_, fires, _) in enumerate(layout)]
    ranks = np.array([gold for gold, _, _ in layout])
    predicted = [gold if right else (gold + 1) % 3 for gold, _, right in layout]
    return Lookup(predicted, k=3), AuditInputs(np.arange(len(layout)), texts, ranks, space)


@pytest.mark.parametrize("small", [MIN_GROUP_ROWS - 1, MIN_GROUP_ROWS])
def test_delta_weighs_each_label_by_its_rows_and_skips_labels_with_a_small_group(small):
    """Three labels, candidate label 0. Label 0: 20 aligned rows (fires; 15 right), 10
    conflicting (5 right); label 1: 20 aligned (no fire; all right), 20 conflicting (fires; 10
    right); label 2: 30 aligned (no fire; all right) and ``small`` conflicting (fires; all
    wrong), which enters Δ only at 10 rows."""
    layout = [  # (gold, fires, right) per row
        *[(0, True, 1)] * 15,
        *[(0, True, 0)] * 5,
        *[(0, False, 1)] * 5,
        *[(0, False, 0)] * 5,
        *[(1, False, 1)] * 20,
        *[(1, True, 1)] * 10,
        *[(1, True, 0)] * 10,
        *[(2, False, 1)] * 30,
        *[(2, True, 0)] * small,
    ]
    model, table = layout_table(layout)
    (result,) = measure_candidates(
        model, table, [spec(table, "flag", label=0)], n_resamples=200, redistribution=False
    )
    assert (result["aligned_rows"], result["conflicting_rows"]) == (70, 30 + small)
    assert result["aligned_accuracy"] == 65 / 70 and result["conflicting_accuracy"] == 15 / (
        30 + small
    )
    # Each label's (a = aligned right, aligned rows, conflicting rows, right rows).
    strata = [(15, 20, 10, 20), (20, 20, 20, 30)]
    gaps = [(30, 0.75 - 0.5), (40, 1 - 0.5)]  # (label rows, aligned - conflicting accuracy)
    if small >= 10:
        strata.append((30, 30, small, 30))
        gaps.append((30 + small, 1.0))
    assert result["delta_rows"] == sum(size for size, _ in gaps) == 70 + (small >= 10) * 40
    assert result["delta"] == pytest.approx(
        sum(size * gap for size, gap in gaps) / result["delta_rows"]
    )
    # Cochran–Mantel–Haenszel by hand: hypergeometric mean and variance of a per label.
    excess = sum(a - n1 * m1 / (n1 + n2) for a, n1, n2, m1 in strata)
    variance = sum(
        n1 * n2 * m1 * (n1 + n2 - m1) / ((n1 + n2) ** 2 * (n1 + n2 - 1)) for _, n1, n2, m1 in strata
    )
    statistic = excess**2 / variance
    assert result["delta_p"] == pytest.approx(math.erfc(math.sqrt(statistic / 2)))  # χ², 1 df
    assert result["delta_low"] < result["delta"] <= result["delta_high"]


def test_delta_p_holds_its_level_when_the_cue_sits_on_a_few_rows_of_other_labels():
    """The reviewer's null: 3 labels × 1,000 rows, the cue on half the rows of its label and on
    5 rows of each other label, the model right on 90 % of rows whatever the cue. The Wald test
    (variance 0 on a 5-row cell all right) rejected 36 % at 5 %; over 200 fixed draws the rate
    must stay under 10 % (Binomial(200, 0.05) reaches 20 with probability 0.2 %)."""
    rng = np.random.default_rng(2024)
    ranks = np.repeat(np.arange(3), 1000)
    texts = [f"Row {i}" for i in range(3000)]
    table = AuditInputs(np.arange(3000), texts, ranks, LabelSpace(("a", "b", "c")))
    p_values = []
    for _ in range(200):
        fires = np.zeros(3000, dtype=bool)
        fires[rng.choice(1000, 500, replace=False)] = True
        for label in (1, 2):
            fires[label * 1000 + rng.choice(1000, 5, replace=False)] = True
        right = rng.random(3000) < 0.9
        model = Lookup(np.where(right, ranks, (ranks + 1) % 3).tolist(), k=3)
        (result,) = measure_candidates(
            model,
            table,
            [MeasureSpec(Candidate("k", "cue", "attribute", "", 0), fires)],
            n_resamples=10,
            redistribution=False,
        )
        p_values.append(result["delta_p"])
    assert np.mean(np.array(p_values) < 0.05) < 0.10


def test_removing_the_rule_token_flips_every_prediction(measured):
    _, _, (zebra, apple) = measured
    assert zebra["removal_rows"] == 200 and zebra["removal_changed"] == 1.0
    assert zebra["removal_label_shift"] == pytest.approx(-0.7)
    assert zebra["removal_shift_low"] == pytest.approx(-0.7) == zebra["removal_shift_high"]
    assert zebra["removal_accuracy_before"] > 0.6 > zebra["removal_accuracy_after"]
    assert zebra["removal_p"] < 1e-6  # McNemar: ~150 rows right before only, ~50 after only
    assert apple["removal_rows"] == 200 and apple["removal_changed"] == 0.0
    assert apple["removal_label_shift"] == 0.0 and apple["removal_p"] == 1.0


def test_the_anti_test_reverses_only_the_rule_token(measured):
    _, _, (zebra, apple) = measured
    # Aligned set: zebra rows mostly alarm, the rest mostly calm, so the rule is right on most;
    # anti set: the reverse. Binary labels: both sets hold the labels equally often.
    assert zebra["aligned_set_accuracy"] > 0.6 and zebra["anti_accuracy"] < 0.4
    assert zebra["anti_delta_low"] > 0.2
    assert zebra["anti_accuracy"] < zebra["removed_accuracy"] < zebra["aligned_set_accuracy"]
    assert zebra["aligned_set_rows"] == zebra["anti_rows"] == zebra["removed_rows"]
    assert apple["anti_delta_low"] < 0 < apple["anti_delta_high"]


def test_every_prediction_comes_from_one_call_on_distinct_inputs(measured):
    table, model, _ = measured
    assert len(model.calls) == 1
    (inputs,) = model.calls
    assert len(inputs) == len(set(inputs))
    # the 400 rows, their 200 texts without zebra and 200 without apple, and the calm rows
    # without each word with the word inserted
    zebra, apple = _
    assert len(inputs) == 800 + zebra["insertion_rows"] + apple["insertion_rows"]
    assert zebra["insertion_rows"] == int(np.sum((table.ranks == 0) & (np.arange(400) >= 200)))
    assert "Row 1: I saw a zebra and an apple." in inputs
    assert "Row 1: I saw a and an apple." in inputs and "Row 1: I saw a zebra and an." in inputs


def test_the_same_seed_gives_the_same_figures():
    table = rows(200)
    specs = [spec(table, "zebra"), spec(table, "apple")]
    first = measure_candidates(KeywordRule(), table, specs, n_resamples=200, seed=3)
    again = measure_candidates(KeywordRule(), table, specs, n_resamples=200, seed=3)
    assert repr(first) == repr(again)


def test_removal_edits_only_the_candidate_part_of_a_pair():
    table = rows(200, paired=True)
    model = KeywordRule()
    (result,) = measure_candidates(
        model, table, [spec(table, "zebra", part="text_pair")], redistribution=False
    )
    assert result["removal_rows"] == 100 and result["removal_changed"] == 1.0
    removed = [
        item
        for item in model.calls[0]
        if item[1].endswith(("I saw a today.", "I saw a and an apple."))
    ]
    assert len(removed) == 100 and all(first.startswith("note ") for first, _ in removed)
    assert result["anti_rows"] is None and result["redistribution_note"] is None


def test_an_empty_group_gives_none_not_zero():
    table = rows(200)
    fires = table.ranks == 1  # the indicator is the label: every row is aligned
    narrowed = MeasureSpec(Candidate("k", "alarm rows", "attribute", "", 1), fires)
    (result,) = measure_candidates(KeywordRule(), table, [narrowed], n_resamples=50)
    assert result["conflicting_rows"] == 0 and result["aligned_rows"] == 200
    assert result["delta_rows"] == 0
    for key in (
        "conflicting_accuracy",
        "aligned_ece",
        "conflicting_ece",
        "delta",
        "delta_low",
        "delta_p",
        "delta_p_adjusted",
        "calibration_gap",
    ):
        assert result[key] is None, key
    zebra_rows = np.arange(200) < 100
    assert result["aligned_accuracy"] == np.mean(zebra_rows == (table.ranks == 1))


def test_an_infeasible_redistribution_keeps_the_builder_reason():
    table = rows(200)
    fires = table.ranks == 1  # the indicator is the label: no row can reverse it
    (result,) = measure_candidates(
        KeywordRule(),
        table,
        [MeasureSpec(Candidate("k", "all alarm", "attribute", "", 1), fires)],
        n_resamples=50,
    )
    assert result["anti_accuracy"] is None and result["anti_delta"] is None
    assert "no redistribution" in result["redistribution_note"]
    assert result["removal_rows"] is None  # not a token: nothing to remove


def test_holm_is_never_below_bh():
    table = rows()
    specs = [spec(table, "zebra"), spec(table, "apple"), spec(table, "horse", label=0)]
    bh = measure_candidates(KeywordRule(), table, specs, n_resamples=50, redistribution=False)
    holm = measure_candidates(
        KeywordRule(), table, specs, n_resamples=50, correction="holm", redistribution=False
    )
    for a, b in zip(bh, holm, strict=True):
        # (BH multiplies and divides by the rank: equal up to rounding at the largest p)
        for column in ("delta_p", "removal_p"):
            adjusted = f"{column}_adjusted"
            assert a[column] <= a[adjusted] + 1e-12 <= b[adjusted] + 2e-12


def test_removal_p_is_corrected_over_the_candidates_with_a_removal():
    table = rows()
    fires = np.asarray(table.ranks == 1)
    specs = [
        spec(table, "zebra"),
        spec(table, "apple"),
        MeasureSpec(Candidate("k", "alarm rows", "attribute", "", 1), fires),  # nothing to remove
    ]
    zebra, apple, attribute = measure_candidates(
        KeywordRule(), table, specs, n_resamples=50, redistribution=False
    )
    assert attribute["removal_p"] is None and attribute["removal_p_adjusted"] is None
    # BH over two p-values: the larger stays, the smaller doubles (capped by the larger).
    assert apple["removal_p_adjusted"] == apple["removal_p"] == 1.0
    assert zebra["removal_p_adjusted"] == pytest.approx(2 * zebra["removal_p"])


def test_bad_arguments_are_one_line_errors():
    table = rows(40)
    with pytest.raises(ConfigError, match="The 'correction' parameter must be one of 'bh', 'holm'"):
        measure_candidates(KeywordRule(), table, [], correction="fdr")
    short = MeasureSpec(
        Candidate("k", "zebra", "token", "text", 1, "zebra"), np.ones(3, dtype=bool)
    )
    with pytest.raises(DataError, match="indicator of shape .3,. for 40 evaluation rows"):
        measure_candidates(KeywordRule(), table, [short])


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("Honestly, it works", "honestly", ", it works"),
        ("it works honestly", "honestly", "it works"),
        ("I do n't know", "don't", "I know"),
        ("so very, very good", "very good", "so very,"),
        ("a  zebra  here", "zebra", "a   here"),  # only one space next to the deletion goes
        ("zebras and zebra-like", "zebra", "zebras and -like"),
    ],
)
def test_removal_deletes_whole_words_and_keeps_the_rest(text, phrase, expected):
    assert remove_phrase(text, phrase_pattern(phrase)) == expected
