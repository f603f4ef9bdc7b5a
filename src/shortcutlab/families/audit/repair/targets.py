"""Which candidates ``audit --fix`` repairs, and the rows each repair is judged on.

A target is a candidate of the audit table: one the model relies on (``relied_on``; a table
without that column relies on none) or one the user named. It is judged on four sets of the
evaluation rows: the redistribution anti-test the audit builds, a counterfactual test (the
candidate's words removed from the rows that have them and inserted into rows of the other
labels, labels kept), the plain evaluation rows, and the evaluation rows without the candidate
(what a repair costs where the candidate never was: label signal lost with its words). The rows
that have a word are those the model reads it in, and the edits are the audit's own, so the
first two sets are the ones the audit measured.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.pairs import TextInput
from shortcutlab.errors import ConfigError, knob
from shortcutlab.families.audit.reliance.counterfactual import counterfactual_edits, seen_rows
from shortcutlab.families.audit.reliance.redistribution import redistribution_sets
from shortcutlab.families.audit.scan.candidates import INDICATOR_KINDS, Candidate
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.params import did_you_mean, quoted

#: The evaluation sets of a fix table, in column order.
SET_NAMES = ("anti", "counterfactual", "plain", "without", "original")
#: The sets a repair's cost is charged on: where the label's signal lives (the plain test's rows
#: carry the shortcut, so a repair that stops using it pays there by design).
COST_SETS = ("without", "original")


@dataclass(frozen=True)
class FixTarget:
    """One candidate to repair (the text repairs apply only where it is
    :attr:`~.Candidate.editable`), where it fires, and why it is repaired."""

    candidate: Candidate
    train_fires: np.ndarray  # over the rows the repairs train on
    evaluation_fires: np.ndarray  # over the evaluation rows
    reason: str  # "relied on" or "named with --candidate"


@dataclass
class EvaluationSet:
    """Inputs and gold label ranks of one evaluation set (``None`` inputs: not built; ``note``
    says why)."""

    inputs: list[TextInput] | None
    truth: np.ndarray | None
    note: str | None = None


def _normalised(name: str) -> str:
    return re.sub(r"\s*([=:])\s*", r"\1", " ".join(str(name).lower().split()))


def _aliases(row: Any, part_names: Mapping[str, str]) -> set[str]:
    """The spellings a user may give for a candidate: its name, and for a part-prefixed name
    the prefix as the part (text_pair) or as the user's column (hypothesis)."""
    names = {_normalised(row.candidate)}
    prefix, colon, rest = str(row.candidate).partition(": ")
    if colon and row.part in part_names:
        names |= {
            _normalised(f"{row.part}: {rest}"),
            _normalised(f"{part_names[row.part]}: {rest}"),
        }
    return names


def choose_targets(
    table: pd.DataFrame, named: Sequence[str], part_names: Mapping[str, str]
) -> list[tuple[Any, str]]:
    """The audit table's rows to repair, each with why: those named (in the order given), or
    without names the likely (or judged) shortcuts with ``relied_on`` True — label signal is
    repaired only when named; a name the table lacks is an error naming close ones."""
    usable = table[table["kind"].isin(INDICATOR_KINDS) & table["label_rank"].notna()]
    chosen: dict[str, tuple[Any, str]] = {}
    # Naming candidates narrows the repairs to them: each target refits every method.
    if "relied_on" in usable.columns and not named:
        relied = usable["relied_on"].map(lambda v: v is True)
        shortcuts = usable["group"] == "shortcut" if "group" in usable.columns else relied
        for row in usable[relied & shortcuts].sort_values("shortcut_rank").itertuples():
            judged = getattr(row, "group_source", None) == "judged"
            chosen.setdefault(row.key, (row, f"relied on; {_SHORTCUT_SOURCE[judged]}"))
    by_alias: dict[str, Any] = {}
    for row in usable.itertuples():
        for alias in _aliases(row, part_names):
            by_alias.setdefault(alias, row)
    for name in named:
        row = by_alias.get(_normalised(name))
        if row is None:
            raise ConfigError(_unknown_candidate(name, usable))
        if int(row.support or 0) == 0:
            raise ConfigError(
                f"The candidate {quoted(name)} named with {_candidates_knob()} has no training "
                "rows; name another."
            )
        chosen.setdefault(row.key, (row, _named_reason(row)))
    return list(chosen.values())


_SHORTCUT_SOURCE = {False: "a likely shortcut", True: "judged a shortcut"}


def _named_reason(row: Any) -> str:
    group = getattr(row, "group", None)
    if group == "signal":
        return "named with --candidate, though triaged as label signal"
    return "named with --candidate"


def _unknown_candidate(name: str, usable: pd.DataFrame) -> str:
    names = usable["candidate"].astype(str).tolist()
    hint = did_you_mean(name, names, n=3)
    return (
        f"The candidate {quoted(name)} named with {_candidates_knob()} is not among the audit's "
        f"candidates (a word or n-gram needs {knob('min_support')} training rows to be tested; "
        f"attributes read 'negation = with_negation').{hint} The top ones: "
        f"{', '.join(map(quoted, names[:5])) or 'none'}."
    )


def _candidates_knob() -> str:
    """The setting that names candidates: ``--candidate`` on the command line, ``candidates``
    of :class:`~.config.FixConfig` in Python."""
    return knob("candidates", flag="--candidate")


def evaluation_sets(
    target: FixTarget,
    evaluation: AuditInputs,
    *,
    seed: int,
    seen_by: Any,
    original: AuditInputs | None = None,
) -> dict[str, EvaluationSet]:
    """The evaluation sets of :data:`SET_NAMES` for one target (``original``: a Maze build's
    Ori-Test, the same test rows before the cue was planted): the candidate's rows are
    those ``seen_by`` (the measured model, refit as erm) carries it in, as the audit read them
    (counterfactual.py :func:`~.counterfactual.seen_rows`), and ``seed`` is the audit's, so the
    anti-test and the counterfactual test are the ones the audit measured."""
    rows = evaluation.model_inputs()
    candidate = target.candidate
    phrase = candidate.phrase if candidate.editable else None
    fires, visible = seen_rows(seen_by, evaluation, candidate.part, target.evaluation_fires, phrase)
    sets = redistribution_sets(evaluation, fires, candidate.label, seed=seed)
    anti = (
        EvaluationSet(None, None, sets.note or "no anti set")
        if sets.anti is None
        else EvaluationSet([rows[i] for i in sets.anti], evaluation.ranks[sets.anti], sets.note)
    )
    without = np.flatnonzero(~fires)
    return {
        "anti": anti,
        "counterfactual": counterfactual_set(target, evaluation, fires, visible, seed=seed),
        "plain": EvaluationSet(rows, evaluation.ranks),
        "without": EvaluationSet([rows[i] for i in without], evaluation.ranks[without]),
        "original": EvaluationSet(None, None, "not a Shortcut Maze build")
        if original is None
        else EvaluationSet(original.model_inputs(), original.ranks),
    }


def counterfactual_set(
    target: FixTarget,
    evaluation: AuditInputs,
    fires: np.ndarray,
    visible: bool | None,
    *,
    seed: int,
) -> EvaluationSet:
    """The audit's two counterfactual edits of the rows ``fires`` marks (the candidate's words
    removed where they occur, inserted into rows of the other labels: the same rows and texts,
    counterfactual.py :func:`~.counterfactual.counterfactual_edits`), as one set; labels kept.
    None for a candidate the model cannot see (``visible`` False), as in the audit."""
    candidate = target.candidate
    if not candidate.editable:
        return EvaluationSet(None, None, f"a {candidate.kind} candidate has no words to edit")
    if visible is False:
        return EvaluationSet(None, None, f"the model cannot see {candidate.phrase!r}")
    edits = counterfactual_edits(
        evaluation,
        candidate.part,
        fires,
        candidate.label,
        candidate.phrase,
        seed=seed,
        key=candidate.key,
    )
    (removed, removed_inputs), (inserted, inserted_inputs) = edits["removal"], edits["insertion"]
    if not len(removed) + len(inserted):
        return EvaluationSet(None, None, "no evaluation row to edit")
    note = f"{len(removed)} rows with the words removed, {len(inserted)} with them inserted"
    truth = evaluation.ranks[np.concatenate([removed, inserted])]
    return EvaluationSet(removed_inputs + inserted_inputs, truth, note)


__all__ = [
    "COST_SETS",
    "SET_NAMES",
    "EvaluationSet",
    "FixTarget",
    "choose_targets",
    "counterfactual_set",
    "evaluation_sets",
]
