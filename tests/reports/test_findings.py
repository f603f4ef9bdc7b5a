"""The findings sentences on small hand-made tables: the exact text of each case (significant,
not significant after Holm, mixed strengths, nothing varied, not measurable, tiny p-values)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from shortcutlab.reports import findings
from shortcutlab.reports.phrases import p_phrase

NAN = math.nan


def maze_row(shortcut="single-term", strength=1.0, test=0.83, anti=0.51, p=1e-70, fits=3, **more):
    return {
        "dataset": "reviews",
        "model": "tfidf-logreg",
        "mitigation": "erm",
        "shortcut": shortcut,
        "strength": strength,
        "distinct_fits": fits,
        "ci_resamples": "rows,fits" if fits > 1 else "rows",
        "test_accuracy_mean": test,
        "anti_test_accuracy_mean": anti,
        "delta_accuracy_mean": test - anti,
        "p_accuracy_holm": p,
        "significant_accuracy": p < 0.05 and test > anti,
        **more,
    }


def test_one_evaluation_says_the_drop_with_its_p_and_no_lambda():
    (sentence,) = findings.maze_findings(pd.DataFrame([maze_row(p=3e-61)]))
    assert sentence == (
        "tfidf-logreg relies on single-term: accuracy falls from 0.830 to 0.510 when the cue "
        "points the wrong way (Δ 0.320, p < 1e-60)."
    )


def test_a_drop_not_significant_after_holm_names_the_adjusted_p():
    rows = [maze_row(), maze_row("category", 1.0, 0.650, 0.639, p=0.08)]
    assert findings.maze_findings(pd.DataFrame(rows))[1] == (
        "tfidf-logreg shows no significant reliance on category (Δ 0.011, adjusted p = 0.08)."
    )


def test_several_strengths_lead_with_the_strongest_and_name_the_others():
    rows = [
        maze_row(strength=0.6, test=0.70, anti=0.689, p=0.08),
        maze_row(strength=1.0),
        maze_row(strength=0.8, test=0.80, anti=0.60, p=1e-20),
        maze_row("category", 1.0, 0.65, 0.64, p=0.3),
        maze_row("category", 0.8, 0.65, 0.645, p=0.5),
    ]
    assert findings.maze_findings(pd.DataFrame(rows)) == [
        "tfidf-logreg relies on single-term: accuracy falls from 0.830 to 0.510 when the cue "
        "points the wrong way at λ 1 (Δ 0.320, adjusted p < 1e-69); the drop is also "
        "significant at λ 0.8, not at λ 0.6 (Δ 0.011, adjusted p = 0.08).",
        "tfidf-logreg shows no significant reliance on category at λ 1 (Δ 0.010, adjusted "
        "p = 0.3), nor at λ 0.8.",
    ]


def test_a_weaker_strength_can_be_significant_when_the_strongest_is_not():
    rows = [maze_row(p=0.2, test=0.6, anti=0.58), maze_row(strength=0.8, p=0.01, anti=0.7)]
    assert findings.maze_findings(pd.DataFrame(rows)) == [
        "tfidf-logreg shows no significant reliance on single-term at λ 1 (Δ 0.020, adjusted "
        "p = 0.2), but the drop is significant at λ 0.8 (Δ 0.130, adjusted p = 0.01)."
    ]


def test_nothing_varied_is_said_and_no_spread_is_invented():
    one = findings.maze_findings(pd.DataFrame([maze_row(fits=1, p=0.0015)]))
    assert one == [
        "tfidf-logreg relies on single-term: accuracy falls from 0.830 to 0.510 when the cue "
        "points the wrong way (Δ 0.320, p = 0.0015).",
        "Only one distinct fit of tfidf-logreg (nothing varied between seeds): its p-value "
        "covers the test rows only, not training or data-draw variance. Use vary='data' or "
        "vary='both' to measure it.",
    ]
    rows = [maze_row(fits=1), maze_row(strength=0.6), maze_row("bible", fits=1)]
    assert findings.maze_findings(pd.DataFrame(rows))[-1] == (
        "Only one distinct fit of tfidf-logreg in 2 of 3 cells (nothing varied between seeds): "
        "their p-values cover the test rows only, not training or data-draw variance. Use "
        "vary='data' or vary='both' to measure it."
    )


def test_mitigations_and_datasets_are_named_when_they_vary():
    rows = [
        maze_row(),
        maze_row(mitigation="jtt", p=0.4, anti=0.8),
        maze_row(dataset="beer", anti=0.4),
    ]
    assert findings.maze_findings(pd.DataFrame(rows))[:3] == [
        "tfidf-logreg with erm relies on single-term in reviews: accuracy falls from 0.830 to "
        "0.510 when the cue points the wrong way (Δ 0.320, adjusted p < 1e-69).",
        "tfidf-logreg with jtt shows no significant reliance on single-term in reviews (Δ 0.030, "
        "adjusted p = 0.4).",
        "tfidf-logreg with erm relies on single-term in beer: accuracy falls from 0.830 to 0.400 "
        "when the cue points the wrong way (Δ 0.430, adjusted p < 1e-69).",
    ]


def test_macro_f1_findings_name_the_metric():
    row = maze_row(
        test_macro_f1_mean=0.8,
        anti_test_macro_f1_mean=0.5,
        delta_macro_f1_mean=0.3,
        p_macro_f1_holm=0.001,
        significant_macro_f1=True,
    )
    assert findings.maze_findings(pd.DataFrame([row]), metric="macro_f1")[0] == (
        "tfidf-logreg relies on single-term: macro-F1 falls from 0.800 to 0.500 when the cue "
        "points the wrong way (Δ 0.300, p = 0.001)."
    )


def mps_row(attribute, imbalanced, balanced, p, significant, fits=2, **more):
    return {
        "dataset": "reviews",
        "attribute": attribute,
        "model": "tfidf-logreg",
        "mitigation": "erm",
        "ci_resamples": "rows,fits" if fits > 1 else "rows",
        "w_acc_imbalanced_mean": imbalanced,
        "w_acc_balanced_mean": balanced,
        "delta_isolated_mean": NAN if imbalanced is None else balanced - imbalanced,
        "p_delta_isolated": p,
        "p_delta_isolated_holm": p,
        "significant_delta_isolated": significant,
        "not_measurable": "",
        **more,
    }


def test_mps_delta_in_words():
    rows = [
        mps_row("negation", 0.41, 0.60, 2e-9, True),
        mps_row("question", 0.15, 0.225, 0.54, False),
        mps_row("product-type", 0.50, 0.45, 0.001, True),
        mps_row(
            "topic", None, None, NAN, None,
            not_measurable="every group holds one label, so Balanced cannot even them out",
        ),
    ]  # fmt: skip
    shifts = {("reviews", "negation"): 0.25, ("reviews", "question"): 0.27}
    assert findings.mps_findings(pd.DataFrame(rows), label_mix_shifts=shifts) == [
        "tfidf-logreg relies on negation: training on labels balanced across negation raises "
        "worst-label accuracy from 0.410 to 0.600 (δ 0.190, adjusted p < 1e-8).",
        "tfidf-logreg shows no significant reliance on question: training on labels balanced "
        "across question moves worst-label accuracy from 0.150 to 0.225 (δ 0.075, adjusted "
        "p = 0.54).",
        "tfidf-logreg does better with product-type imbalanced: training on labels balanced "
        "across product-type lowers worst-label accuracy from 0.500 to 0.450 (δ −0.050, "
        "adjusted p = 0.001).",
        "tfidf-logreg: δ of topic is not measurable: every group holds one label, so Balanced "
        "cannot even them out.",
        "The Imbalanced and Balanced training sets of negation and question also differ in "
        "label mix (total variation distance 0.25 and 0.27), so their δ partly measures a label "
        "prior, not only the attribute.",
    ]


def test_mps_one_fit_is_said():
    rows = [mps_row("negation", 0.41, 0.60, 0.3, False, fits=1)]
    assert findings.mps_findings(pd.DataFrame(rows)) == [
        "tfidf-logreg shows no significant reliance on negation: training on labels balanced "
        "across negation moves worst-label accuracy from 0.410 to 0.600 (δ 0.190, p = 0.3).",
        "Only one distinct fit of tfidf-logreg (nothing varied between seeds): its p-value "
        "covers the test rows only, not training or data-draw variance. Use vary='data' or "
        "vary='both' to measure it.",
    ]


def cat_results(std=0.012, partial=0.61, p=1e-31):
    return {
        "config": {"model": "tfidf-logreg", "augment": False, "replace": "text",
                   "default_label": "neutral"},
        "attentiveness": {"k": 5, "mean": 0.724, "std": std, "rows_kept": 120},
        "baselines": {
            "partial_input": {"trained_on": "text_pair", "value": partial},
            "majority": {"label": "entailment", "value": 0.335},
            "partial_vs_majority": {"p_value": p},
        },
    }  # fmt: skip


def test_cat_attentiveness_and_baseline_in_words():
    assert findings.cat_findings(cat_results()) == [
        "tfidf-logreg is attentive to text on 72.4 % of the 120 test pairs it does not label "
        "neutral: its prediction changes when text comes from another row (mean over 5 "
        "counterfactual sets, ± 1.2); on the other 27.6 % it keeps its answer, as if it read "
        "text_pair alone.",
        "A model trained on text_pair alone reaches 61.0 % accuracy against 33.5 % for always "
        "answering entailment (p < 1e-30): text_pair alone predicts much of the label.",
    ]
    plain = findings.cat_findings(cat_results(std=None, partial=0.34, p=0.81))
    assert "(mean over 5 counterfactual sets, " not in plain[0]
    assert "(one counterfactual set, so no spread is measured)" in plain[0]
    assert plain[1] == (
        "A model trained on text_pair alone does no better than always answering entailment "
        "(34.0 % against 33.5 %, p = 0.81)."
    )


def test_suite_sets_in_words():
    change = {"standard_accuracy": 1.0, "p_value": 6.3e-05}
    results = {
        "model": {"name": "tfidf-logreg"},
        "two_class_sets": ["lexical-overlap"],
        "strategies": [
            {
                "strategy": None,
                "sets": {
                    "standard": {"accuracy": 1.0},
                    "lexical-overlap": {
                        "accuracy": 0.5, "accuracy_entailment": 1.0,
                        "accuracy_non_entailment": 0.0, "change": {**change, "delta": -0.5},
                    },
                    "position": {
                        "accuracy": 0.833,
                        "change": {**change, "delta": -0.167, "p_value": 0.125},
                    },
                },
            }
        ],
    }  # fmt: skip
    assert findings.suite_findings(results) == [
        "tfidf-logreg scores 100.0 % on standard.",
        "tfidf-logreg loses 50.0 points on lexical-overlap: 50.0 % against 100.0 % on standard "
        "(p < 1e-4), with 100.0 % on its entailment rows and 0.0 % on the others.",
        "tfidf-logreg shows no significant change on position: 83.3 % against 100.0 % on "
        "standard (p = 0.12).",
    ]


def audit_record(candidates, significant):
    return {
        "correction": {"method": "bh", "alpha": 0.05, "tests": 102},
        "candidates_total": 102,
        "significant_total": significant,
        "candidates": candidates,
        "measurement": {"model": "tfidf-logreg"},
    }


def candidate(name, p, significant, delta=None, delta_p=None, kind="token", **measured):
    return {
        "candidate": name, "kind": kind, "label": "pos", "support": 121,
        "p_label_given_candidate": 0.9256, "lift": 1.879, "p_adjusted": p,
        "significant": significant, "delta": delta, "delta_p_adjusted": delta_p,
        "aligned_rows": None if delta is None else 90,
    } | measured  # fmt: skip


#: A measured token's counterfactual tests (removal, insertion), as audit.json holds them.
TESTS = {
    "removal_rows": 104, "removal_changed": 0.183, "removal_accuracy_before": 0.798,
    "removal_accuracy_after": 0.663, "removal_p_adjusted": 0.00037, "removal_label_shift": -0.2,
    "removal_label_p_adjusted": 2e-5, "insertion_rows": 500, "insertion_changed": 0.424,
    "insertion_accuracy_before": 0.838, "insertion_accuracy_after": 0.462,
    "insertion_p_adjusted": 1e-52, "insertion_label_shift": 0.3, "insertion_label_p_adjusted": 1e-60,
}  # fmt: skip


def test_audit_top_candidates_in_words():
    record = audit_record(
        [
            candidate("zebra", 1.4e-26, True, 0.039, 0.6, relied_on=True, visible=True, **TESTS),
            candidate("w60", 0.22, False, 0.02, 0.6),
        ],
        1,
    )
    assert findings.audit_findings(record) == [
        "1 of 102 candidate shortcuts are significant (Benjamini–Hochberg-adjusted p < 0.05 over "
        "102 tests).",
        "'zebra' (token) points to pos: 0.926 of its 121 rows have that label, 1.88 times the "
        "share overall (adjusted p < 1e-25).",
        "tfidf-logreg relies on 'zebra' (removal changed 0.183 of 104 rows' predictions, away "
        "from its label (adjusted p < 1e-4), accuracy 0.798 → 0.663 (adjusted p = 0.00037); "
        "insertion changed 0.424 of 500 rows' predictions, toward its label (adjusted p < "
        "1e-59), accuracy 0.838 → 0.462 (adjusted p < 1e-51)).",
    ]
    none = audit_record([candidate("w60", 0.22, False)], 0)
    assert findings.audit_findings(none) == [
        "No candidate shortcut is significant (Benjamini–Hochberg-adjusted p < 0.05 over 102 "
        "tests).",
        "The strongest, 'w60' (token), points to pos with adjusted p = 0.22.",
    ]


def test_audit_says_relies_on_only_from_the_counterfactual_verdict():
    """A large significant association Δ is no reliance; an unseen word gets no reliance figure;
    a property with no counterfactual edit is called an association."""
    record = audit_record(
        [
            candidate("lol", 1e-20, True, 0.39, 4e-5, relied_on=False, visible=True, **TESTS),
            candidate("i", 1e-10, True, 0.091, 0.0099, relied_on=None, visible=False),
            candidate("has '!'", 1e-9, True, 0.2, 0.001, kind="surface"),
        ],
        3,
    )
    sentences = findings.audit_findings(record)
    assert sentences[2] == (
        "tfidf-logreg shows no significant reliance on 'lol' (removal changed 0.183 of 104 rows' "
        "predictions, away from its label (adjusted p < 1e-4), accuracy 0.798 → 0.663 "
        "(adjusted p = 0.00037); insertion changed 0.424 of 500 rows' predictions, toward its "
        "label (adjusted p < 1e-59), accuracy 0.838 → 0.462 (adjusted p < 1e-51))."
    )
    assert sentences[4] == (
        "'i' is not visible to tfidf-logreg: its tokenizer drops it or its fitted vocabulary "
        "lacks it, so it gets no reliance figure (association Δ 0.091, adjusted p = 0.0099, "
        "which compares different rows)."
    )
    assert sentences[6].startswith("No counterfactual test applies to 'has '!'' (surface)")
    assert not any(sentence.startswith("tfidf-logreg relies on") for sentence in sentences)


def test_a_partial_input_candidate_is_said_as_accuracy_against_the_majority():
    """A pair audit ranks 'text_pair alone' among the candidates; it has no label or lift."""
    part = {
        "candidate": "text_pair alone", "kind": "partial-input", "label": None, "support": 2999,
        "p_label_given_candidate": None, "lift": None, "p_adjusted": 5.4e-11,
        "significant": True, "delta": None,
    }  # fmt: skip
    record = audit_record([part], 1) | {
        "partial_input": [
            {"candidate": "text_pair alone", "accuracy": 0.4424, "majority_accuracy": 0.3471,
             "majority_label": "entailment"}
        ]
    }  # fmt: skip
    assert findings.audit_findings(record)[1] == (
        "'text_pair alone' (partial-input) predicts the label: accuracy 0.442 against 0.347 for "
        "always answering entailment (adjusted p < 1e-10)."
    )
    none = audit_record([part | {"significant": False, "p_adjusted": 0.4}], 0)
    assert findings.audit_findings(none)[1] == (
        "The strongest, 'text_pair alone' (partial-input), with adjusted p = 0.4."
    )


@pytest.mark.parametrize(
    "p, text",
    [(0.0312, "p = 0.031"), (1e-4, "p = 0.0001"), (9.9e-5, "p < 1e-4"), (1e-5, "p < 1e-4"),
     (3.2e-12, "p < 1e-11"), (0.0, "p < 1e-300"), (None, "no p-value")],
)  # fmt: skip
def test_p_values_read_as_a_bound_when_tiny(p, text):
    assert p_phrase(p) == text
