"""The opening of a triaged audit's report: the candidates in three lists (likely shortcuts, label
signal, needs your judgement), a line each with its label, whether the measured model relies on
it and the evidence the triage read; then what ``audit --fix`` recommends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shortcutlab.errors import LISTED_NAMES, listed
from shortcutlab.families.audit.report.candidate_table import GROUP_LISTS, label_names, label_text
from shortcutlab.families.audit.report.repair import recommended_repairs
from shortcutlab.reports.findings_audit import NOT_VISIBLE, verdict
from shortcutlab.reports.html.document import Block, Facts, Paragraphs, Section
from shortcutlab.reports.tables import NOT_MEASURED

#: The section's anchor, and its title (the three lists, in the order they are shown).
TRIAGE_ID = "audit"
TRIAGE_TITLE = "Shortcut audit: likely shortcuts, label signal, needs your judgement"


def triage_lists(
    audit: Mapping[str, Any], candidates: Sequence[Mapping[str, Any]]
) -> list[tuple[str, int, list[tuple[str, str]]]]:
    """The three lists as (title, count, [(candidate, line)]): the terminal and the report both
    show them first. ``candidates``: the record's, by rank; counts from the record's triage (it
    may count more than the record keeps)."""
    counts = (audit.get("triage") or {}).get("counts") or {}
    names = label_names(audit)
    model = (audit.get("measurement") or {}).get("model")
    lists = []
    for group, title in GROUP_LISTS.items():
        # A style's markers are read as the style, whose line stands for them.
        members = [c for c in candidates if c.get("group") == group and not c.get("member_of")]
        if group == "shortcut":  # in the order the audit presents them
            members.sort(
                key=lambda c: (c.get("shortcut_rank") is None, c.get("shortcut_rank") or 0)
            )
        count = max(int(counts.get(group) or 0), len(members))
        lists.append(
            (title, count, [(str(c.get("candidate")), _line(c, names, model)) for c in members])
        )
    return lists


def triage_section(audit: Mapping[str, Any], candidates: Sequence[Mapping[str, Any]]) -> Section:
    """The three lists (their counts from the record's triage), the judgements applied, and
    with ``--fix`` the recommended repairs. ``candidates``: the record's, by rank."""
    triage = audit.get("triage") or {}
    names = label_names(audit)
    model = (audit.get("measurement") or {}).get("model")
    blocks: list[Block] = []
    for title, count, items in triage_lists(audit, candidates):
        if count > len(items):
            items = [
                *items,
                ("…", f"{count - len(items)} more beyond the candidates the record keeps"),
            ]
        blocks.append(Facts(title=f"{title} ({count})", items=items or [(NOT_MEASURED, "none")]))
    said = triage_notes(triage)
    if said:
        blocks.append(Paragraphs(said))
    if audit.get("fix"):
        blocks.append(recommended_repairs(audit["fix"], lambda label: label_text(label, names)))
    return Section(
        id=TRIAGE_ID,
        title=TRIAGE_TITLE,
        intro="Each candidate sorted by the evidence the audit read: likely shortcuts (a cue "
        "that does not make a label what it is), label signal (one that does), and those it "
        "cannot tell; your judgements file (audit --judgements) overrides it. Each line: the "
        "label it points to, "
        + ("whether the model relies on it, " if model else "")
        + "and the evidence.",
        blocks=blocks,
    )


def _line(candidate: Mapping[str, Any], names: Mapping[str, str] | None, model: str | None) -> str:
    """``label 1 (positive) · relied on by tfidf-logreg · <evidence> · <evidence>``."""
    parts = [f"label {label_text(candidate.get('label'), names)}"]
    if candidate.get("group_source") == "judged":
        parts.append("your judgement")
    if model is not None:
        parts.append(_reliance(candidate, model))
    evidence = [e for e in candidate.get("group_evidence") or [] if isinstance(e, Mapping)]
    # The evidence that placed it; a candidate left to the reader shows all there is.
    deciding = [e for e in evidence if e.get("points_to") == candidate.get("group")]
    parts += [str(e["text"]) for e in deciding or evidence if e.get("text")]
    return " · ".join(parts)


def _reliance(candidate: Mapping[str, Any], model: str) -> str:
    shown = verdict(candidate.get("visible"), candidate.get("relied_on"))
    if shown == NOT_VISIBLE:
        return f"not visible to {model}"
    if shown is not None:
        return f"{shown} by {model}"
    if candidate.get("aligned_rows") is not None:
        return f"no counterfactual test of {model} applies"
    return f"reliance of {model} not measured"


def judgements_text(judgements: Mapping[str, Any] | None) -> str | None:
    """Which judgements file was read, how many it applied, and its names no candidate has."""
    if not judgements or not judgements.get("file"):
        return None
    text = f"Judgements from {judgements['file']}: {judgements.get('applied', 0)} applied"
    unmatched = judgements.get("unmatched") or []
    if unmatched:
        text += f"; no candidate is named {listed(unmatched, limit=LISTED_NAMES, show=repr)}"
    return text + "."


def judge_text(judge: Mapping[str, Any] | None) -> str | None:
    """Which LLM judge was asked, about how many candidates, and the answers that gave no
    evidence (an answer other than "signal" or "shortcut" is not guessed at).

    Examples:
        >>> judge_text({"client": "openai-chat", "model": "m", "asked": 3, "answered": 2, "unreadable": 1, "failed": 0})
        "LLM judge openai-chat m: asked about 3 open candidates, 2 answered; 1 answer was neither 'signal' nor 'shortcut' and gives no evidence."
    """
    if not judge:
        return None
    text = (
        f"LLM judge {judge['client']} {judge['model']}: asked about {judge['asked']} open "
        f"candidate{'' if judge['asked'] == 1 else 's'}, {judge['answered']} answered"
    )
    if judge.get("unreadable"):
        many = judge["unreadable"] != 1
        text += (
            f"; {judge['unreadable']} answer{'s' if many else ''} {'were' if many else 'was'} "
            "neither 'signal' nor 'shortcut' and give" + ("" if many else "s") + " no evidence"
        )
    if judge.get("failed"):
        text += f"; {judge['failed']} got no answer from the server"
    return text + "."


def triage_notes(triage: Mapping[str, Any]) -> list[str]:
    """The lines said after the three lists: the judgements file, the LLM judge, and an
    optional reading that could not be made."""
    said = [
        judgements_text(triage.get("judgements")),
        judge_text(triage.get("judge")),
        triage.get("nearness_unread"),
    ]
    return [text for text in said if text]


__all__ = [
    "TRIAGE_ID",
    "TRIAGE_TITLE",
    "judge_text",
    "judgements_text",
    "triage_lists",
    "triage_notes",
    "triage_section",
]
