"""Results in plain words: one sentence per finding, built from the tables each command computes.

Pure functions of the tidy tables (no computation of their own): :func:`maze_findings` reads
Maze group statistics (``RunResults.groups``, ``EvaluationResult.to_frame()``, the demo's
``groups``), :func:`mps_findings` MPS group statistics, and :func:`cat_findings`,
:func:`suite_findings` and :func:`audit_findings` the records their commands write. The CLI
prints them under "Findings:"; the footnotes that define each figure stay with the tables.

Examples:
    >>> import pandas as pd
    >>> row = {"model": "tfidf-logreg", "shortcut": "single-term", "strength": 1.0,
    ...        "distinct_fits": 3, "ci_resamples": "rows,fits", "test_accuracy_mean": 0.83,
    ...        "anti_test_accuracy_mean": 0.51, "delta_accuracy_mean": 0.32,
    ...        "p_accuracy_holm": 1e-70, "significant_accuracy": True}
    >>> maze_findings(pd.DataFrame([row]))
    ['tfidf-logreg relies on single-term: accuracy falls from 0.830 to 0.510 when the cue points the wrong way (Δ 0.320, p < 1e-69).']
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from shortcutlab.errors import knob
from shortcutlab.metrics import METRICS
from shortcutlab.reports.findings_audit import audit_findings
from shortcutlab.reports.findings_pairs import cat_findings, suite_findings
from shortcutlab.reports.phrases import (
    joined,
    missing,
    number,
    one_fit_sentence,
    p_phrase,
    strength,
)
from shortcutlab.reports.tables import with_mitigations

ONE_FIT = "rows"  # ci_resamples of a group with one distinct fit: the interval resamples rows only

__all__ = ["audit_findings", "cat_findings", "maze_findings", "mps_findings", "suite_findings"]


def maze_findings(
    groups: pd.DataFrame, *, metric: str = "accuracy", vary_hint: bool = True
) -> list[str]:
    """One sentence per dataset × model × [mitigation ×] shortcut, led by its strongest λ and
    naming the other λ by whether their drop is significant after Holm; then one per model whose
    seeds varied nothing (one distinct fit), whose p-values rest on the test rows alone (with
    ``vary_hint``, naming the setting that varies the fits, in the caller's terms)."""
    if groups.empty:
        return []
    keys = [
        k for k in ("dataset", "model", "mitigation", "shortcut") if k in groups
    ]  # a one-row frame of an evaluation may lack a mitigation
    several = {
        "dataset": "dataset" in groups and groups["dataset"].nunique() > 1,
        "strength": groups["strength"].nunique() > 1,
        "mitigation": with_mitigations(groups),
        "adjusted": len(groups) > 1,  # Holm over one test leaves its p as it was
    }
    sentences = []
    for _, part in groups.groupby(keys, sort=False):
        rows = [row for _, row in part.sort_values("strength", ascending=False).iterrows()]
        sentences.append(_maze_sentence(rows, metric, several))
    return sentences + _one_fit_sentences(groups, several["mitigation"], vary_hint)


def _maze_sentence(rows: list[pd.Series], metric: str, several: Mapping[str, bool]) -> str:
    lead, rest = rows[0], rows[1:]
    subject = _subject(lead, several["mitigation"])
    cue = lead["shortcut"] + (f" in {lead['dataset']}" if several["dataset"] else "")
    at = f" at λ {strength(lead['strength'])}" if several["strength"] else ""
    figures = _drop_figures(lead, metric, several["adjusted"])
    significant = [r for r in rest if _significant(r, metric)]
    not_significant = [r for r in rest if not _significant(r, metric)]
    if _significant(lead, metric):
        verb = "falls" if METRICS.get(metric).higher_is_better else "rises"
        sentence = (
            f"{subject} relies on {cue}: {_metric_words(metric)} {verb} from "
            f"{number(lead[f'test_{metric}_mean'])} to {number(lead[f'anti_test_{metric}_mean'])} "
            f"when the cue points the wrong way{at} ({figures})"
        )
        clauses = []
        if significant:
            clauses.append(f"the drop is also significant at λ {_strengths(significant)}")
        if not_significant:
            shown = _with_figures(not_significant, metric, several["adjusted"])
            clauses.append(
                f"not at λ {shown}" if significant else f"the drop is not significant at λ {shown}"
            )
        return (
            sentence
            + "".join(f"; {c}" if i == 0 else f", {c}" for i, c in enumerate(clauses))
            + "."
        )
    sentence = f"{subject} shows no significant reliance on {cue}{at} ({figures})"
    if not_significant:
        sentence += f", nor at λ {_strengths(not_significant, 'or')}"
    if significant:
        shown = _with_figures(significant, metric, several["adjusted"])
        sentence += f", but the drop is significant at λ {shown}"
    return sentence + "."


def _drop_figures(row: pd.Series, metric: str, adjusted: bool) -> str:
    return (
        f"Δ {number(row[f'delta_{metric}_mean'])}, "
        f"{p_phrase(row[f'p_{metric}_holm'], adjusted=adjusted)}"
    )


def _with_figures(rows: list[pd.Series], metric: str, adjusted: bool) -> str:
    """``0.8 (Δ 0.020, adjusted p = 0.3) or 0.6 (Δ 0.011, adjusted p = 0.08)``."""
    return joined(
        [f"{strength(r['strength'])} ({_drop_figures(r, metric, adjusted)})" for r in rows], "or"
    )


def _strengths(rows: list[pd.Series], last: str = "and") -> str:
    return joined([strength(r["strength"]) for r in rows], last)


def _significant(row: pd.Series, metric: str) -> bool:
    value = row.get(f"significant_{metric}")
    return not missing(value) and bool(value)


def _metric_words(metric: str) -> str:
    """The metric's title as a sentence names it: ``accuracy``, ``macro-F1``."""
    title = METRICS.get(metric).title
    return title[:1].lower() + title[1:]


def _subject(row: pd.Series, mitigations: bool) -> str:
    return f"{row['model']} with {row['mitigation']}" if mitigations else str(row["model"])


def _one_fit_sentences(groups: pd.DataFrame, mitigations: bool, vary_hint: bool) -> list[str]:
    """One sentence per model (and mitigation) with cells whose seeds varied nothing."""
    hint = (
        f"Use {knob('vary', 'data')} or {knob('vary', 'both')} to measure it." if vary_hint else ""
    )
    keys = ["model", "mitigation"] if mitigations else ["model"]
    sentences = []
    for _, part in groups.groupby(keys, sort=False):
        one_fit = int((part["ci_resamples"] == ONE_FIT).sum())
        if one_fit:
            sentences.append(
                one_fit_sentence(_subject(part.iloc[0], mitigations), one_fit, len(part), hint)
            )
    return sentences


def mps_findings(
    groups: pd.DataFrame,
    *,
    label_mix_shifts: Mapping[tuple[str, str], float] | None = None,
    vary_hint: bool = True,
) -> list[str]:
    """One sentence per dataset × attribute × model [× mitigation] on δ (what training on labels
    balanced across the attribute does to worst-label accuracy, significant after Holm or not,
    or why it is not measurable); one naming the builds whose two training sets also differ in
    label mix (``label_mix_shifts``: (dataset, attribute) -> total variation distance), where δ
    partly measures a label prior; then one per model whose seeds varied nothing."""
    if groups.empty:
        return []
    several = {
        "dataset": groups["dataset"].nunique() > 1,
        "mitigation": with_mitigations(groups),
        "adjusted": int(groups["p_delta_isolated"].notna().sum()) > 1,
    }
    sentences = [_mps_sentence(row, several) for _, row in groups.iterrows()]
    shifted = dict(label_mix_shifts or {})
    if shifted:
        names = [
            f"{attribute} in {dataset}" if several["dataset"] else attribute
            for dataset, attribute in shifted
        ]
        distances = joined([f"{d:.2f}" for d in shifted.values()])
        plural = len(shifted) > 1
        sentences.append(
            f"The Imbalanced and Balanced training sets of {joined(names)} also differ in label "
            f"mix (total variation distance {distances}), so {'their' if plural else 'its'} δ "
            "partly measures a label prior, not only the attribute."
        )
    return sentences + _one_fit_sentences(groups, several["mitigation"], vary_hint)


def _mps_sentence(row: pd.Series, several: Mapping[str, bool]) -> str:
    subject = _subject(row, several["mitigation"])
    attribute = row["attribute"]
    where = f" in {row['dataset']}" if several["dataset"] else ""
    delta = row["delta_isolated_mean"]
    if missing(delta):
        reason = row.get("not_measurable")
        why = f": {reason}" if not missing(reason) and reason else ""
        return f"{subject}: δ of {attribute}{where} is not measurable{why}."
    imbalanced, balanced = row["w_acc_imbalanced_mean"], row["w_acc_balanced_mean"]
    figures = (
        f"δ {number(delta)}, {p_phrase(row['p_delta_isolated_holm'], adjusted=several['adjusted'])}"
    )
    significant = row.get("significant_delta_isolated")
    change = f"from {number(imbalanced)} to {number(balanced)} ({figures})"
    balancing = f"training on labels balanced across {attribute}"
    if missing(significant) or not significant:
        return (
            f"{subject} shows no significant reliance on {attribute}{where}: {balancing} moves "
            f"worst-label accuracy {change}."
        )
    if delta > 0:
        return f"{subject} relies on {attribute}{where}: {balancing} raises worst-label accuracy {change}."
    return (
        f"{subject} does better with {attribute} imbalanced{where}: {balancing} lowers "
        f"worst-label accuracy {change}."
    )
