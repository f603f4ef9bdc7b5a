"""``shortcut-or-signal``: people judge an audit's candidates, and their majority becomes the
judgements file the audit reads back (``shortcutlab audit DATA --judgements judgements.yaml``).

Each item is one candidate of ``audit.json`` (a word, an n-gram, an attribute value, a surface
property, a word list, a metadata value): the page shows its label, training rows that carry it,
its association figures, the measured model's reliance on it and the audit's own triage, each only
where ``audit.json`` holds it. A person answers shortcut (s), label signal (l) or unsure (u).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from shortcutlab.annotate.kinds import Choice, Field, Form, Item, Summary, TaskPlan
from shortcutlab.annotate.label_task import label_names
from shortcutlab.annotate.task_base import ChoiceTask, check_sample, field_answers, majority
from shortcutlab.errors import DataError
from shortcutlab.families.audit.report.record import AUDIT_JSON, AuditRecord, read_record
from shortcutlab.families.audit.scan.candidates import INDICATOR_KINDS
from shortcutlab.reports.phrases import missing, number, percent

FIELD = "judgement"
SHORTCUT, SIGNAL, UNSURE = "shortcut", "signal", "unsure"
JUDGEMENTS = "judgements.yaml"
NEEDS = (
    "shortcut-or-signal needs the folder of an audit ('shortcutlab audit DATA --out DIR' "
    "writes DIR/audit.json)"
)
# The audit's triage groups (audit.json's "group") as its report words them.
GROUP_TEXTS = {
    SHORTCUT: "Likely shortcut",
    SIGNAL: "Label signal",
    "judgement": "Needs your judgement",
}


def judgement_form() -> Form:
    return Form(
        fields=(
            Field(
                name=FIELD,
                prompt="Is this a shortcut or label signal?",
                choices=(
                    Choice(value=SHORTCUT, text="Shortcut", key="s"),
                    Choice(value=SIGNAL, text="Label signal", key="l"),
                    Choice(value=UNSURE, text="Unsure", key="u"),
                ),
            ),
        )
    )


class ShortcutOrSignalTask(ChoiceTask):
    name = "shortcut-or-signal"
    description = (
        "Judge an audit's candidates: shortcut or label signal? The majority becomes the "
        "judgements file the audit reads back."
    )

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        check_sample(sample, seed)
        source = Path(source)
        audit = read_audit(source)
        candidates = [
            c
            for c in audit.get("candidates") or []
            if isinstance(c, dict) and c.get("kind") in INDICATOR_KINDS and c.get("candidate")
        ]
        if not candidates:
            raise DataError(
                f"'{source / AUDIT_JSON}' lists no candidate of the kinds "
                f"{', '.join(INDICATOR_KINDS)} to judge; pass the folder of an audit that found "
                "some."
            )
        # The audit's own order, not a seeded draw: a person triages the strongest first.
        chosen = candidates[:sample]
        names = shown_label_names(audit, options.get("label_names"))
        items, used = [], set()
        for candidate in chosen:
            name = str(candidate["candidate"])
            item_id = name if name not in used else f"{name} (rank {candidate.get('rank')})"
            used.add(item_id)
            items.append(
                Item(
                    item_id=item_id,
                    payload=candidate_payload(candidate, names),
                    reference={
                        "candidate": name,
                        "kind": str(candidate["kind"]),
                        "label": str(candidate.get("label")),
                        "rank": candidate.get("rank"),
                        "audit_group": candidate.get("group"),
                    },
                )
            )
        facts: dict[str, Any] = {
            "candidates": len(candidates),
            "sampled": len(items),
            "drawn": f"the first {len(items)} of the audit's {len(candidates)} candidates"
            if len(items) < len(candidates)
            else f"all {len(items)} of the audit's candidates",
        }
        if names:
            facts["label_names"] = names
        return TaskPlan(
            kind=self.name, source=str(source), form=judgement_form(), items=items, facts=facts
        )

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        judged = per_candidate(plan, answers)
        ways = judged["judgement"].fillna("no majority").value_counts()
        shown = judged.drop(columns="name")  # the item id is the candidate's name
        if shown["audit_group"].isna().all():
            shown = shown.drop(columns="audit_group")
        each_way = pd.DataFrame(
            {"candidates": [int(ways.get(w, 0)) for w in (SHORTCUT, SIGNAL, "no majority")]},
            index=pd.Index([SHORTCUT, SIGNAL, "no majority"], name="judgement"),
        )
        return Summary(
            kind=self.name,
            title="Shortcut or label signal, as judged by people",
            tables={
                "each_way": ("Candidates each way (the majority of their answers)", each_way),
                "judgements": ("The judgement per candidate", shown),
            },
            notes=[
                "judgement: the majority of a candidate's shortcut / signal answers; unsure "
                "answers are left out, and a tie or only unsure answers gives no majority (—).",
                f"{JUDGEMENTS} lists the shortcut and signal candidates under those keys; "
                "'shortcutlab audit DATA --judgements judgements.yaml' puts them in your groups.",
            ],
        )

    def extra_exports(self, plan: TaskPlan, answers: pd.DataFrame) -> dict[str, str]:
        return {JUDGEMENTS: judgements_yaml(plan, answers)}


def read_audit(source: Path) -> AuditRecord:
    """``source/audit.json``, checked as the report checks it; a :class:`DataError` naming the
    fix when it is missing, unreadable, not an audit's record or of another version."""
    try:
        return read_record(source)
    except DataError as exc:
        raise DataError(f"{exc} {NEEDS}.") from exc


def shown_label_names(
    audit: Mapping[str, Any], given: str | Sequence[str] | None
) -> dict[str, str]:
    """Label value -> name: ``given`` (--label-names, in the audit's label order) or else
    ``audit.json``'s ``triage.label_names``; empty when neither names them."""
    if given is not None:
        labels = [str(v) for v in (audit.get("data") or {}).get("labels") or []]
        return dict(zip(labels, label_names(given, labels) or [], strict=True))
    named = (audit.get("triage") or {}).get("label_names") or {}
    return {str(k): str(v) for k, v in named.items()} if isinstance(named, dict) else {}


def label_text(value: Any, names: Mapping[str, str]) -> str:
    name = names.get(str(value))
    return f"{value} ({name})" if name and name != str(value) else str(value)


def candidate_payload(candidate: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """What the page shows of a candidate: only what ``audit.json`` holds, nothing made up."""
    payload: dict[str, Any] = {
        "candidate": str(candidate["candidate"]),
        "kind": str(candidate["kind"]),
        "label": label_text(candidate.get("label"), names),
    }
    examples = [
        {"text": str(e["text"]), "spans": e.get("spans") or []}
        for e in candidate.get("examples") or []
        if isinstance(e, dict) and isinstance(e.get("text"), str)
    ]
    if examples:
        payload["examples"] = examples
    payload["association"] = _present(
        {
            "support": _rows(candidate.get("support"), "training rows"),
            "p(label | candidate)": _number(candidate.get("p_label_given_candidate")),
            "lift": _number(candidate.get("lift")),
        }
    )
    reliance = _present(
        {
            "relied on": _yes_no(candidate.get("relied_on")),
            "removal changed": _share_of(
                candidate.get("removal_changed"), candidate.get("removal_rows")
            ),
            "insertion changed": _share_of(
                candidate.get("insertion_changed"), candidate.get("insertion_rows")
            ),
        }
    )
    if reliance:
        payload["reliance"] = reliance
    group = candidate.get("group")
    if isinstance(group, str) and group:
        by = " (from your judgements file)" if candidate.get("group_source") == "judged" else ""
        payload["audit group"] = GROUP_TEXTS.get(group, group) + by
    evidence = candidate.get("group_evidence")
    if isinstance(evidence, list):
        texts = [_evidence_text(e) for e in evidence if isinstance(e, dict) and e.get("text")]
        if texts:
            payload["audit evidence"] = texts
    return payload


def _present(figures: dict[str, str | None]) -> dict[str, str]:
    return {name: text for name, text in figures.items() if text is not None}


def _number(value: Any) -> str | None:
    return None if missing(value) or isinstance(value, bool) else number(float(value), 2)


def _rows(value: Any, what: str) -> str | None:
    return None if missing(value) else f"{int(value)} {what}"


def _yes_no(value: Any) -> str | None:
    return None if not isinstance(value, bool) else "yes" if value else "no"


def _share_of(share: Any, rows: Any) -> str | None:
    if missing(share) or isinstance(share, bool):
        return None
    return percent(float(share)) + ("" if missing(rows) else f" of {int(rows)} rows")


def _evidence_text(evidence: Mapping[str, Any]) -> str:
    points_to = evidence.get("points_to")
    return str(evidence["text"]) + (f" (points to {points_to})" if points_to else "")


def per_candidate(plan: TaskPlan, answers: pd.DataFrame) -> pd.DataFrame:
    """One row per judged candidate (by item id), in the audit's order: its name and label, the
    audit's group where it had one, the answers each way and their majority (None: a tie or only
    unsure)."""
    said = field_answers(answers, FIELD).groupby("item_id", sort=False)["value"].agg(list)
    rows = {}
    for item in plan.items:
        if item.item_id not in said:
            continue
        values = said[item.item_id]
        decided = majority(values, sides=(SHORTCUT, SIGNAL))
        rows[item.item_id] = {
            "name": item.reference["candidate"],
            "label": item.payload["label"],
            "audit_group": item.reference.get("audit_group"),
            SHORTCUT: values.count(SHORTCUT),
            SIGNAL: values.count(SIGNAL),
            UNSURE: values.count(UNSURE),
            "judgement": decided if decided != UNSURE else None,
        }
    columns = ["name", "label", "audit_group", SHORTCUT, SIGNAL, UNSURE, "judgement"]
    table = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    table.index.name = "candidate"
    return table


def judgements_yaml(plan: TaskPlan, answers: pd.DataFrame) -> str:
    """The judgements file: the majority's shortcut and signal candidates, named as the audit
    printed them, in the audit's order; a comment says where they come from."""
    judged = per_candidate(plan, answers)
    ways = {
        way: list(dict.fromkeys(judged.loc[judged["judgement"] == way, "name"]))
        for way in (SHORTCUT, SIGNAL)
    }
    left_out = int(judged["judgement"].isna().sum())
    annotators = answers["annotator"].nunique()
    header = [
        f"# The majority judgement of {annotators} annotator{'s' * (annotators != 1)} on "
        f"{len(judged)} of the {len(plan.items)} candidates of {' '.join(plan.source.splitlines())}",
        f"# ({len(ways[SHORTCUT])} shortcut, {len(ways[SIGNAL])} signal, {left_out} left out: "
        "a tie or only unsure answers).",
        "# Read by: shortcutlab audit DATA --judgements judgements.yaml",
    ]
    body = yaml.safe_dump(ways, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return "\n".join(header) + "\n" + body


__all__ = [
    "JUDGEMENTS",
    "ShortcutOrSignalTask",
    "candidate_payload",
    "judgement_form",
    "judgements_yaml",
    "per_candidate",
    "read_audit",
]
