"""Reliance through the model's own eyes: whether the model can see a candidate, and the paired
counterfactual tests (the candidate removed from rows that carry it, inserted into rows of the
labels it avoids) that decide whether it is relied on.

An association Δ compares different rows; only a counterfactual edit of the same rows shows
that the model's predictions follow the candidate. A candidate the model cannot see (its
tokenizer drops it, its fitted vocabulary lacks it) gets no reliance figure at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, join_inputs
from shortcutlab.families.audit.scan.candidates import Phrases
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.seeds import derived_seed
from shortcutlab.metrics import mcnemar_exact
from shortcutlab.metrics.proportions import binomial_interval, bootstrap_means
from shortcutlab.metrics.resampling import percentile_interval
from shortcutlab.models.text_view import TextView
from shortcutlab.shortcuts.phrases_in_text import insert_phrases, phrase_pattern, remove_phrase

#: Rows of the labels a candidate avoids that receive it in the insertion test, at most (drawn
#: from the seed): enough for an exact McNemar test, few enough for one predict call.
INSERTION_ROWS = 500
#: The counterfactual tests, by column prefix: removal from rows with the candidate, insertion
#: into rows of other labels without it.
TESTS = ("removal", "insertion")
#: Their p-value columns, each adjusted over the measured candidates: accuracy, and the label.
TEST_P_COLUMNS = tuple(f"{test}_{p}" for test in TESTS for p in ("p", "label_p"))


def model_view(predictor: Any, part: str) -> TextView | None:
    """The predictor's view of ``part`` (``text_view`` on the model; None where it has none)."""
    view = getattr(predictor, "text_view", None)
    return view(part) if callable(view) else None


def phrase_list(phrase: Phrases) -> tuple[str, ...]:
    """The phrases of a candidate: a style's markers, or its one phrase."""
    return (phrase,) if isinstance(phrase, str) else tuple(phrase)


def carried(view: TextView, texts: Sequence[str], fires: np.ndarray, phrase: Phrases) -> np.ndarray:
    """``fires`` narrowed to the rows whose model tokens hold a phrase's tokens adjacently."""
    narrowed = np.asarray(fires, dtype=bool).copy()
    phrases = phrase_list(phrase)
    for i in np.flatnonzero(narrowed).tolist():
        narrowed[i] = any(view.carries(texts[i], one) for one in phrases)
    return narrowed


def seen_rows(
    predictor: Any, evaluation: AuditInputs, part: str, fires: np.ndarray, phrase: Phrases | None
) -> tuple[np.ndarray, bool | None]:
    """The rows that carry a candidate as the model reads them, and whether it sees the phrase
    at all (None: no phrase, or a model without a view): what the audit measures and what
    ``--fix`` judges its repairs on, so that both use the same rows."""
    view = None if phrase is None else model_view(predictor, part)
    if view is None or phrase is None:
        return np.asarray(fires, dtype=bool), None
    seen = any(view.sees(one) for one in phrase_list(phrase))
    # A word-level view (a vectorizer) drops and splits words, so its tokens decide where the
    # phrase is; a subword tokenizer keeps every character, and matching its pieces out of
    # context fails (byte-level BPE: 'Ġfrankly' mid-sentence, 'F'+'rankly' capitalised).
    if seen and not view.subword:
        return carried(view, evaluation.part(part), fires, phrase), seen
    return np.asarray(fires, dtype=bool), seen


def counterfactual_edits(
    evaluation: AuditInputs,
    part: str,
    fires: np.ndarray,
    label: int,
    phrase: Phrases,
    *,
    seed: int,
    key: str,
) -> dict[str, tuple[np.ndarray, list[TextInput]]]:
    """Per test of :data:`TESTS`, its rows and their edited model inputs (a style: every marker
    removed, its strongest inserted): the phrase removed
    from the rows ``fires`` marks, and inserted at a word boundary into up to
    :data:`INSERTION_ROWS` rows of the other labels without it (drawn from ``seed`` and the
    candidate's ``key``, kept in order); labels kept. The audit measures these and ``--fix``
    judges its repairs on them: the same texts."""
    pool = np.flatnonzero((evaluation.ranks != label) & ~np.asarray(fires, dtype=bool))
    rng = np.random.default_rng(derived_seed(seed, "insertion rows", key))
    inserted = np.sort(rng.permutation(pool)[:INSERTION_ROWS]).tolist()
    texts = evaluation.part(part)
    positions = derived_seed(seed, "insertion positions", key)
    edited = insert_phrases([texts[i] for i in inserted], phrase_list(phrase)[0], positions)
    return {
        "removal": removed_rows(evaluation, part, fires, phrase),
        "insertion": (
            np.asarray(inserted, dtype=np.int64),
            _with_part(evaluation, part, inserted, edited),
        ),
    }


def removed_rows(
    evaluation: AuditInputs, part: str, fires: np.ndarray, phrase: Phrases
) -> tuple[np.ndarray, list[TextInput]]:
    """The rows where the phrase (each of a style's markers, longest first) was found and
    deleted, and their model inputs after."""
    patterns = [phrase_pattern(one) for one in sorted(phrase_list(phrase), key=len, reverse=True)]
    texts = evaluation.part(part)
    rows, edited = [], []
    for i in np.flatnonzero(fires).tolist():
        text = texts[i]
        for pattern in patterns:
            text = remove_phrase(text, pattern)
        if text != texts[i]:
            rows.append(i)
            edited.append(text)
    return np.asarray(rows, dtype=np.int64), _with_part(evaluation, part, rows, edited)


def _with_part(
    evaluation: AuditInputs, part: str, rows: list[int], edited: list[str]
) -> list[TextInput]:
    firsts, seconds = evaluation.texts, evaluation.text_pairs
    if part == "text_pair":
        return join_inputs([firsts[i] for i in rows], edited)
    return join_inputs(edited, None if seconds is None else [seconds[i] for i in rows])


def edit_figures(
    test: str,
    label: int,
    rows: np.ndarray,
    base: np.ndarray,
    after: np.ndarray,
    ranks: np.ndarray,
    n_resamples: int,
    seed: int,
) -> dict:
    """``<test>_rows``, the share of their predictions the edit changed (the invariance figure,
    a flip rate, with its exact 95 % interval), accuracy before and
    after, the mean shift of p(candidate's label) with a 95 % bootstrap, the exact McNemar p on
    the paired correctness (``<test>_p``: does the edit cost or gain accuracy?) and on the paired
    "predicts the candidate's label" (``<test>_label_p``: does it move predictions to or from
    that label?)."""
    out: dict = {f"{test}_rows": len(rows)}
    if len(rows) == 0:
        return out
    before = base[rows]
    truth = ranks[rows]
    right_before = before.argmax(axis=1) == truth
    right_after = after.argmax(axis=1) == truth
    shift = after[:, label] - before[:, label]
    low, high = percentile_interval(bootstrap_means(shift, n_resamples=n_resamples, seed=seed))
    flips = int(np.sum(before.argmax(axis=1) != after.argmax(axis=1)))
    flips_low, flips_high = binomial_interval(flips, len(rows))
    return out | {
        f"{test}_changed": flips / len(rows),
        f"{test}_changed_low": flips_low,
        f"{test}_changed_high": flips_high,
        f"{test}_accuracy_before": float(right_before.mean()),
        f"{test}_accuracy_after": float(right_after.mean()),
        f"{test}_label_shift": float(shift.mean()),
        f"{test}_shift_low": low,
        f"{test}_shift_high": high,
        f"{test}_p": mcnemar_exact(correct_a=right_before, correct_b=right_after)["p_value"],
        f"{test}_label_p": mcnemar_exact(
            correct_a=before.argmax(axis=1) == label, correct_b=after.argmax(axis=1) == label
        )["p_value"],
    }


def reliance_p(row: dict) -> float | None:
    """One p for "the model relies on the candidate": the smallest p of the counterfactual tests
    that point its way (removal moving predictions away from its label or costing accuracy,
    insertion moving them toward it or costing accuracy), Bonferroni over every test run (two
    per edit), so that four looks at one candidate are one test; 1.0 when none points its way;
    None when no edit ran or the model cannot see the candidate. Adjusted over the candidates,
    it decides ``relied_on``."""
    if row.get("visible") is False:
        return None
    found, tests = [], 0
    for test, toward in (("removal", -1.0), ("insertion", 1.0)):
        if row.get(f"{test}_p") is None:
            continue
        tests += 2
        if row[f"{test}_label_shift"] * toward > 0:
            found.append(row[f"{test}_label_p"])
        if row[f"{test}_accuracy_before"] > row[f"{test}_accuracy_after"]:
            found.append(row[f"{test}_p"])
    if not tests:
        return None
    return min(1.0, tests * min(found)) if found else 1.0
