"""An audit's findings in plain words: how many candidate shortcuts are significant, the top
ones with the label each points to, and, where a model was measured, whether it relies on them
(``audit_dataset(...).record``, the ``audit.json`` record)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.reports.phrases import missing, number, p_phrase

METHODS = {"bh": "Benjamini–Hochberg", "holm": "Holm"}
#: What each reliance verdict reads in the tables, report and findings.
RELIED_ON = "relied on"
NOT_RELIED_ON = "not relied on"
NOT_VISIBLE = "not visible to the model"


def verdict(visible: Any, relied: Any) -> str | None:
    """The reliance verdict of a measured candidate (its ``visible`` and ``relied_on``): relied
    on, not relied on, not visible to the model, or None (no counterfactual test applies).

    Examples:
        >>> verdict(True, True), verdict(None, False), verdict(False, None), verdict(None, None)
        ('relied on', 'not relied on', 'not visible to the model', None)
    """
    if _flag(visible) is False:
        return NOT_VISIBLE
    relied = _flag(relied)
    if relied is None:
        return None
    return RELIED_ON if relied else NOT_RELIED_ON


def _flag(value: Any) -> bool | None:
    """True, False or None from a table cell (numpy booleans; None or NaN where empty)."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    return bool(value)


def audit_findings(record: Mapping[str, Any], *, top: int = 3) -> list[str]:
    """The count of significant candidates; for each of the first ``top`` significant ones the
    label it points to (share, lift, adjusted p) and the measured model's reliance on it; or,
    when none is significant, the strongest candidate's adjusted p."""
    correction = record["correction"]
    method = METHODS.get(correction["method"], correction["method"])
    total, significant = record["candidates_total"], record["significant_total"]
    level = f"{method}-adjusted p < {correction['alpha']:g} over {correction['tests']:,} tests"
    candidates = record["candidates"]
    partial = {row["candidate"]: row for row in record.get("partial_input", [])}
    shown = [c for c in candidates if c["significant"]][:top]
    if not shown:
        sentences = [f"No candidate shortcut is significant ({level})."]
        if candidates:
            first = candidates[0]
            pointing = "" if first["label"] is None else f" points to {first['label']}"
            sentences.append(
                f"The strongest, {_name(first)},{pointing} with "
                f"{p_phrase(first['p_adjusted'], adjusted=True)}."
            )
        return sentences
    sentences = [f"{significant:,} of {total:,} candidate shortcuts are significant ({level})."]
    model = (record.get("measurement") or {}).get("model")
    for candidate in shown:
        if candidate["candidate"] in partial:  # a part of the input, not a feature of the text
            sentences.append(_partial_sentence(candidate, partial[candidate["candidate"]]))
        else:
            sentences.append(_candidate_sentence(candidate))
        if model is not None and not missing(candidate.get("aligned_rows")):
            sentences.append(_reliance_sentence(model, candidate))
    return sentences


def _name(candidate: Mapping[str, Any]) -> str:
    return f"'{candidate['candidate']}' ({candidate['kind']})"


def _candidate_sentence(candidate: Mapping[str, Any]) -> str:
    """``'zebra' (token) points to pos: 0.926 of its 121 rows have that label, 1.88 times the
    share overall (adjusted p < 1e-25).``"""
    return (
        f"{_name(candidate)} points to {candidate['label']}: "
        f"{number(candidate['p_label_given_candidate'])} of its {candidate['support']:,} rows have "
        f"that label, {number(candidate['lift'], 2)} times the share overall "
        f"({p_phrase(candidate['p_adjusted'], adjusted=True)})."
    )


def _partial_sentence(candidate: Mapping[str, Any], row: Mapping[str, Any]) -> str:
    """``'text_pair alone' (partial-input) predicts the label: accuracy 0.442 against 0.347 for
    always answering entailment (adjusted p < 1e-10).``"""
    return (
        f"{_name(candidate)} predicts the label: accuracy {number(row['accuracy'])} against "
        f"{number(row['majority_accuracy'])} for always answering {row['majority_label']} "
        f"({p_phrase(candidate['p_adjusted'], adjusted=True)})."
    )


def _reliance_sentence(model: str, candidate: Mapping[str, Any]) -> str:
    """What the measured model does with one candidate: its reliance verdict from the
    counterfactual tests, or (where none applies) the association Δ, named as such."""
    name = f"'{candidate['candidate']}'"
    delta, p = candidate.get("delta"), candidate.get("delta_p_adjusted")
    association = (
        "no association Δ"
        if missing(delta)
        else f"association Δ {number(delta)}, {p_phrase(p, adjusted=True)}"
    )
    shown = verdict(candidate.get("visible"), candidate.get("relied_on"))
    if shown == NOT_VISIBLE:
        return (
            f"{name} is not visible to {model}: its tokenizer drops it or its fitted vocabulary "
            f"lacks it, so it gets no reliance figure ({association}, which compares different "
            "rows)."
        )
    tests = "; ".join(_test_phrase(candidate, test) for test in ("removal", "insertion"))
    if shown == RELIED_ON:
        return f"{model} relies on {name} ({tests})."
    if shown == NOT_RELIED_ON:
        return f"{model} shows no significant reliance on {name} ({tests})."
    return (
        f"No counterfactual test applies to {name} ({candidate['kind']}), so whether {model} "
        f"relies on it is not measured ({association}, an association, not reliance)."
    )


def _test_phrase(candidate: Mapping[str, Any], test: str) -> str:
    """``removal changed 0.183 of 104 rows' predictions, away from its label (adjusted p <
    1e-4), accuracy 0.798 → 0.663 (adjusted p = 0.00037)``."""
    rows = candidate.get(f"{test}_rows")
    if missing(rows) or not rows or missing(candidate.get(f"{test}_changed")):
        return f"no {test} rows"
    before = number(candidate[f"{test}_accuracy_before"])
    after = number(candidate[f"{test}_accuracy_after"])
    shift = candidate.get(f"{test}_label_shift")
    way = "toward" if not missing(shift) and shift > 0 else "away from"
    label_p = p_phrase(candidate.get(f"{test}_label_p_adjusted"), adjusted=True)
    p = p_phrase(candidate.get(f"{test}_p_adjusted"), adjusted=True)
    return (
        f"{test} changed {number(candidate[f'{test}_changed'])} of {rows:,} rows' predictions, "
        f"{way} its label ({label_p}), accuracy {before} → {after} ({p})"
    )
