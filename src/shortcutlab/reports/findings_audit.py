"""An audit's findings in plain words: how many candidate shortcuts are significant, the top
ones with the label each points to, and, where a model was measured, whether it relies on them
(``audit_dataset(...).record``, the ``audit.json`` record)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.reports.phrases import missing, number, p_phrase

METHODS = {"bh": "Benjamini–Hochberg", "holm": "Holm"}


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
        if model is not None and not missing(candidate.get("delta")):
            sentences.append(_reliance_sentence(model, candidate, correction["alpha"]))
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


def _reliance_sentence(model: str, candidate: Mapping[str, Any], alpha: float) -> str:
    """The measured model's Δ on one candidate: accuracy where it agrees with the label minus
    where it disagrees, within each label."""
    delta, p = candidate["delta"], candidate.get("delta_p_adjusted")
    figures = f"Δ {number(delta)}, {p_phrase(p, adjusted=True)}"
    name = f"'{candidate['candidate']}'"
    if missing(p) or p >= alpha or delta == 0:
        return f"{model} shows no significant reliance on {name} ({figures})."
    if delta < 0:
        return f"{model} does better where {name} disagrees with the label ({figures})."
    return (
        f"{model} relies on {name}: its accuracy is {number(delta)} higher where {name} agrees "
        f"with the label than where it disagrees ({figures})."
    )
