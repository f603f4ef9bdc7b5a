"""Triage: which candidates are likely shortcuts, which are the label's own signal, which need a person.

A shortcut goes with the label in this data and does not make the label what it is; the signal
does. Both are associated, and a good model relies on both, so association and reliance alone
cannot tell them apart. The triage weighs evidence that can (:mod:`.evidence`): what kind of
feature a candidate is (:mod:`.words`: discourse markers, function words, places, names,
numbers; surface properties, metadata, a partial input), whether its words carry the feeling of
the label's name (:mod:`.affect`) or its meaning (:mod:`.relatedness`; with ``--judge`` also an LLM's answer,
:mod:`.judge`), and the user's own
judgements (:mod:`.judgements`), which always win; a style's markers are read as one finding
(:mod:`.styles`).

Data flows one way: the scan's candidate table in, a :class:`Triage` out. The triage modules
(families/audit/triage/) import the scan's modules and the shared libraries; never the reliance
measurement, the repairs or the report, which read their result.

``triage_candidates`` puts every significant candidate of the scan's table in a group, with its
evidence. It runs between the scan and the reliance measurement: the model is measured first on
the candidates that may be shortcuts, and :func:`shortcut_ranks` then orders the likely
shortcuts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import ConfigError
from shortcutlab.families.audit.triage.evidence import (
    GROUP_TITLES,
    JUDGEMENT,
    SHORTCUT,
    SIGNAL,
    CandidateFacts,
    Evidence,
    feeling_evidence,
    feelings_task,
    group_from,
    kind_evidence,
    nearness_evidence,
)
from shortcutlab.families.audit.triage.judge import LabelJudge
from shortcutlab.families.audit.triage.judgements import Judgements
from shortcutlab.families.audit.triage.relatedness import nearness
from shortcutlab.families.audit.triage.words import proper_names
from shortcutlab.models.numpy_encoder import check_bundled_encoder

#: Kinds the triage sorts (leakage rows are about duplicates, not a feature and a label).
TRIAGED_KINDS = ("token", "ngram", "attribute", "surface", "lexicon", "metadata", "partial-input")
#: Columns the triage adds to the candidate table (and audit.csv), in this order.
TRIAGE_COLUMNS = ("group", "group_source", "shortcut_rank", "member_of", "group_evidence")
_HAS_WORD = re.compile(r" has '(.+)'$")
_BRACKETED = re.compile(r"\[([^\[\]]+)\]")
#: Texts read for brackets around a word ("[NAME]") and for names written capitalised: enough
#: to see a data set's conventions.
TEXT_SAMPLE = 5000


@dataclass(frozen=True)
class Verdict:
    group: str  # SHORTCUT, SIGNAL or JUDGEMENT
    source: str  # "evidence" (the triage's own) or "judged" (the user's file)
    evidence: tuple[Evidence, ...]


@dataclass
class Triage:
    """Each triaged candidate's :class:`Verdict` by its key, and what the triage was given."""

    verdicts: dict[str, Verdict]
    label_names: dict[int, str] | None = None
    judgements: Judgements = field(default_factory=Judgements)
    unmatched: list[str] = field(default_factory=list)
    #: A style's markers (feature key → the style's name): the style stands for them.
    members: dict[str, str] = field(default_factory=dict)
    #: The LLM judge asked (its client, model and answer counts), or None.
    judge: dict[str, Any] | None = None
    #: Why label-name nearness was not read for the open candidates (the encoder is not
    #: installed), or None: an optional reading missing leaves them to judgement, said once.
    nearness_unread: str | None = None

    def group(self, key: str) -> str | None:
        verdict = self.verdicts.get(key)
        return None if verdict is None else verdict.group

    def to_json(self, label_values: Sequence[Any]) -> dict[str, Any]:
        counts = {group: 0 for group in GROUP_TITLES}
        for key, verdict in self.verdicts.items():
            if key not in self.members:  # a style's markers are counted as the style
                counts[verdict.group] += 1
        names = self.label_names
        return {
            "label_names": None
            if names is None
            else {str(label_values[rank]): name for rank, name in sorted(names.items())},
            "judgements": {
                "file": self.judgements.source,
                "applied": sum(v.source == "judged" for v in self.verdicts.values()),
                "unmatched": list(self.unmatched),
            },
            "counts": counts,
            "judge": self.judge,
            "nearness_unread": self.nearness_unread,
        }


def triage_candidates(
    table: pd.DataFrame,
    *,
    phrases: Mapping[str, str | None],
    families: Mapping[str, str],
    texts: Sequence[str],
    label_names: Mapping[int, str] | None = None,
    judgements: Judgements | None = None,
    encoder: Any | None = None,
    judge: LabelJudge | None = None,
    shown: Callable[[str], str] = str,
) -> Triage:
    """Sort the significant candidates of ``table`` (the scan's columns, with ``key``) into groups.

    ``phrases``/``families``: each feature key's words and family (the FeatureSet's); ``texts``:
    the training texts, or their first :data:`TEXT_SAMPLE` (read for placeholders and names);
    ``label_names``: label rank → name; ``judgements``: the user's verdicts, which win; ``judge``:
    an LLM asked about the content words nothing else settles; ``shown``: the name a user reads
    for a candidate (judgements are matched against it and the scan's name).
    """
    judgements = judgements or Judgements()
    sample = list(texts[:TEXT_SAMPLE])
    # What the sample writes in brackets, found once (not searched per candidate: 10,000
    # candidates by 5,000 texts took 30 s).
    bracketed = {found.lower() for text in sample for found in _BRACKETED.findall(text)}
    names = proper_names(sample)
    # Only candidates that survive the false-discovery control are associated at all: the
    # others are no shortcut and no signal, and the encoder need not read them.
    significant = table["significant"].fillna(False).astype(bool).to_numpy()
    facts = [
        _facts(row, phrases, families, bracketed, names)
        for row, kept in zip(table.itertuples(), significant, strict=True)
        if kept and row.kind in TRIAGED_KINDS
    ]
    feelings = bool(label_names) and feelings_task(label_names or {})
    evidence = {
        item.key: kind_evidence(item, feelings=feelings) + feeling_evidence(item, label_names)
        for item in facts
    }
    # Where the labels name feelings, VADER reads the words that matter; the encoder reads
    # topical labels only.
    words = _open_words(facts, evidence) if label_names else []
    unread = None
    if label_names and not feelings:
        unread = _add_nearness(words, evidence, label_names, encoder)
    asked = None
    if judge is not None and label_names:
        asked = judge.add_evidence(words, evidence, label_names)
    verdicts = {}
    for item in facts:
        judged = judgements.group_of(shown(item.name)) or judgements.group_of(item.name)
        found = tuple(evidence[item.key])
        if judged is not None:
            verdicts[item.key] = Verdict(judged, "judged", found)
        else:
            verdicts[item.key] = Verdict(group_from(list(found)), "evidence", found)
    return Triage(
        verdicts,
        label_names=dict(label_names) if label_names else None,
        judgements=judgements,
        # A judged name the scan tested but found no association for is no typo.
        unmatched=judgements.unmatched([n for c in table["candidate"] for n in (c, shown(c))]),
        judge=asked,
        nearness_unread=unread,
    )


def _facts(
    row: Any,
    phrases: Mapping[str, str | None],
    families: Mapping[str, str],
    bracketed: set[str],
    names: frozenset[str],
) -> CandidateFacts:
    phrase = phrases.get(row.key)
    family = families.get(row.key, "")
    if row.kind == "lexicon":
        family = str(row.candidate).split(" = ", 1)[-1]
    elif row.kind == "attribute":
        has = _HAS_WORD.search(str(row.candidate))
        phrase = has.group(1) if has else None
    in_brackets = phrase is not None and phrase in bracketed
    rank = None if pd.isna(row.label_rank) else int(row.label_rank)
    return CandidateFacts(
        row.key, str(row.candidate), row.kind, family, phrase, rank, in_brackets, names
    )


def _open_words(
    facts: list[CandidateFacts], evidence: dict[str, list[Evidence]]
) -> list[CandidateFacts]:
    """The content words with a label that no other evidence settled: what the encoder and an
    LLM judge read (negation, left open where labels name feelings, is no content word)."""
    return [
        item
        for item in facts
        if item.phrase is not None
        and item.label_rank is not None
        and group_from(evidence[item.key]) == JUDGEMENT
        and any(found.name == "word class" for found in evidence[item.key])
    ]


def _add_nearness(
    open_items: list[CandidateFacts],
    evidence: dict[str, list[Evidence]],
    names: Mapping[int, str],
    encoder: Any | None,
) -> str | None:
    """Nearness to the label's name for the content words no other evidence settled (the
    encoder loads only for those); without the bundled encoder installed, why it was not read."""
    if encoder is None and open_items:
        try:
            check_bundled_encoder()
        except ConfigError as exc:
            many = len(open_items) != 1
            return f"Label-name nearness was not read for {len(open_items)} open candidate{'s' if many else ''}: {exc}"
    found = nearness(
        [(item.phrase, item.label_rank) for item in open_items], names, encoder=encoder
    )  # type: ignore[misc]
    for item, near in zip(open_items, found, strict=True):
        if np.isfinite(near.cosine):
            evidence[item.key].append(nearness_evidence(item, near, names))
    return None


def shortcut_ranks(table: pd.DataFrame, triage: Triage) -> pd.Series:
    """1, 2, ... over the likely shortcuts of ``table`` (None for the others), in the scan's
    order (evidence of association: what the data holds), except that a candidate the measured
    model cannot see (its tokenizer drops it) comes after the rest, as it cannot be that model's
    shortcut. Reliance is shown beside each, not used to order them: it is measured on a sample
    of rows, and "not relied on" there is often only "not shown" (a style's 137 held-out rows
    gave p = 0.09). A style's markers get none: the style stands for them."""
    order = []
    for position, row in enumerate(table.itertuples()):
        if triage.group(row.key) != SHORTCUT or pd.isna(row.rank) or row.key in triage.members:
            continue
        unseen = isinstance(row.visible, bool | np.bool_) and not row.visible
        order.append((bool(unseen), position, row.Index))
    ranks = pd.Series([None] * len(table), index=table.index, dtype=object)
    for rank, (_, _, index) in enumerate(sorted(order), start=1):
        ranks[index] = rank
    return ranks


def measurement_order(table: pd.DataFrame, triage: Triage) -> list[Any]:
    """The index of ``table`` with the possible shortcuts first (likely shortcuts, then those
    needing judgement, then label signal), each in the scan's order: the model is measured on
    the first ``measure_top`` that qualify."""
    weight = {SHORTCUT: 0, JUDGEMENT: 1, SIGNAL: 2}
    keyed = [
        (weight.get(triage.group(row.key) or JUDGEMENT, 1), position, row.Index)
        for position, row in enumerate(table.itertuples())
    ]
    return [index for _, _, index in sorted(keyed)]


def apply_triage(table: pd.DataFrame, triage: Triage) -> pd.DataFrame:
    """``table`` with :data:`TRIAGE_COLUMNS` filled in."""
    table = table.copy()
    table["group"] = [triage.group(key) for key in table["key"]]
    table["group_source"] = [
        None if key not in triage.verdicts else triage.verdicts[key].source for key in table["key"]
    ]
    table["shortcut_rank"] = shortcut_ranks(table, triage)
    table["member_of"] = [triage.members.get(key) for key in table["key"]]
    table["group_evidence"] = [
        None
        if key not in triage.verdicts
        else [item.to_json() for item in triage.verdicts[key].evidence]
        for key in table["key"]
    ]
    return table
