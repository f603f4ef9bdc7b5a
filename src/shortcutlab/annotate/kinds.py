"""What a task kind is: where its items come from, the form a person answers, how answers add up.

A task is one kind over one source (a run folder or a benchmark folder), sampled with a seed.
The app (``annotate.app``) shows an item's ``payload`` through the kind's :class:`Form`, checks
each posted answer with :meth:`TaskKind.check_answer`, and stores it; ``reference`` (gold
labels, the annotator LLM's concept label, a pair's default label) never reaches the page.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd


@dataclass(frozen=True)
class Choice:
    value: str  # what is stored
    text: str  # what the button says
    key: str  # the keyboard shortcut ("1".."9", "y", "n", ...)


@dataclass(frozen=True)
class Field:
    """One question of the form: a choice among ``choices`` (a 1-5 scale is five choices)."""

    name: str
    prompt: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Form:
    fields: tuple[Field, ...]


@dataclass
class Item:
    item_id: str  # stable within the task (a row id, a pair id)
    payload: dict[str, Any]  # shown: texts (plain), recorded spans, context
    reference: dict[str, Any] = field(default_factory=dict)  # never shown


@dataclass
class TaskPlan:
    """What creating a task over a source gives: its items (in the order shown), the form, and
    facts about the source for the summary (e.g. the benchmark id, the sampled split)."""

    kind: str
    source: str
    form: Form
    items: list[Item]
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass
class Summary:
    """What a task's answers add up to: titled tables and notes, written into the run's results
    (``summary.json``) for ``shortcutlab report`` and printed by ``annotate export``."""

    kind: str
    title: str
    tables: dict[str, tuple[str, pd.DataFrame]]  # name -> (title, table)
    notes: list[str] = field(default_factory=list)


class TaskKind(ABC):
    name: str
    description: str

    @abstractmethod
    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        """The task's items drawn from ``source``; a :class:`DataError`/:class:`ConfigError`
        naming what the source lacks (e.g. no CAT pairs) and what to pass instead."""

    @abstractmethod
    def check_answer(self, form: Form, answer: Any) -> dict[str, str]:
        """The answer as stored ({field: choice value}); a :class:`DataError` for anything else."""

    @abstractmethod
    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        """``answers``: columns item_id, annotator, field, value, answered_at (one row per field)."""

    def extra_exports(self, plan: TaskPlan, answers: pd.DataFrame) -> dict[str, str]:
        """Files ``annotate export`` writes for this kind besides answers.csv and the summary:
        name -> text (shortcut-or-signal's judgements.yaml); none by default."""
        return {}
