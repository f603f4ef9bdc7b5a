"""The tautology shortcut: a true-by-definition clause joined to the end of a text (Shortcut Suite,
section 4.1, "Negation"; after Naik et al. 2018).

Side A appends one of the six negation tautologies ("and false is not true", ...), drawn uniformly
per row, before the text's final punctuation; side B leaves the text alone. Since ``q ∧ ⊤ ≡ q``
(the Suite's section 3) the label stays right, so any change in a model's answer is the cue at
work. The same text operations build the Suite's ``negation`` and ``position`` sets.

Examples:
    >>> append_clause("Every one of them is quotations from the Old Testament.", "and green is not red")
    'Every one of them is quotations from the Old Testament and green is not red.'
    >>> add_at_position("Wait here, I was ordered.", "red is red", front=False)
    'Wait here, I was ordered and red is red and red is red and red is red and red is red and red is red.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted
from shortcutlab.shortcuts.base import (
    BinaryCueShortcut,
    Cleaning,
    InsertingShortcut,
    RowDraws,
    Span,
    SplitPlan,
)

# Section 4.1, Negation: the six tautologies, "chosen randomly with equal probability" (the paper's
# wording "history never change" is kept as printed).
NEGATION_TAUTOLOGIES = (
    "and false is not true",
    "and green is not red",
    "and up is not down",
    "and no square is a circle",
    "and nothing comes from nothing",
    "and history never change",
)
# Section 4.1, Position: "and true is true", "and red is red" or "and up is up", five times.
POSITION_PHRASES = ("true is true", "red is red", "up is up")
POSITION_REPEATS = 5
_FINAL_PUNCTUATION = re.compile(r"([.!?]+[\"'”’)]*)\s*$")


def append_clause(text: str, clause: str) -> str:
    """``text`` with `` clause`` joined before its final punctuation (kept; none added)."""
    return clause_appended(text, clause)[0]


def clause_appended(text: str, clause: str) -> tuple[str, Span]:
    """:func:`append_clause` and the span of `` clause`` (with its space) in the new text.

    Examples:
        >>> clause_appended("It rains.", "and up is not down")
        ('It rains and up is not down.', (8, 27))
    """
    stripped = text.rstrip()
    match = _FINAL_PUNCTUATION.search(stripped)
    head, tail = (
        (stripped, "") if match is None else (stripped[: match.start()].rstrip(), match.group(1))
    )
    return f"{head} {clause}{tail}", (len(head), len(head) + 1 + len(clause))


def repeated_phrase(phrase: str, *, front: bool) -> str:
    """The phrase five times joined by " and ", capitalised when it opens a sentence (the
    released Position data: "Red is red and red is red and ... and <premise>")."""
    text = " and ".join([phrase] * POSITION_REPEATS)
    return text[:1].upper() + text[1:] if front else text


def add_at_position(text: str, phrase: str, *, front: bool) -> str:
    """The repeated phrase, then " and ", then the text; or the text, " and ", the phrase."""
    if front:
        return f"{repeated_phrase(phrase, front=True)} and {text.lstrip()}"
    return append_clause(text, "and " + repeated_phrase(phrase, front=False))


def _clause_pattern(clauses: Sequence[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in clauses)
    return re.compile(rf"\s*\b(?:{alternatives})\b", re.IGNORECASE)


class Tautology(InsertingShortcut, BinaryCueShortcut):
    """Append a negation tautology (side A, probability P_i) or nothing (side B).

    Args:
        tautologies: The clauses to draw from per row (default: the Suite's six).
    """

    name = "tautology"

    def __init__(self, tautologies: Sequence[str] = NEGATION_TAUTOLOGIES) -> None:
        self.tautologies = tuple(tautologies) if not isinstance(tautologies, str) else tautologies

    def _clauses(self) -> tuple[str, ...]:
        if (
            isinstance(self.tautologies, str)
            or not self.tautologies
            or not all(isinstance(t, str) and t.strip() for t in self.tautologies)
        ):
            raise ConfigError(
                "The 'tautologies' parameter must be a non-empty list of non-empty strings, e.g. "
                f"['and false is not true']. Got {quoted(self.tautologies)} instead."
            )
        return tuple(" ".join(t.split()) for t in self.tautologies)

    def _pattern(self) -> re.Pattern[str]:
        clauses = self._clauses()
        return self.cached(clauses, lambda: _clause_pattern(clauses))

    def validate(self, labels: object) -> None:
        self._clauses()

    def clean(self, texts: Sequence[str]) -> Cleaning:
        """Remove pre-existing occurrences of the tautologies (rare in real text, but a cue that is
        already there would blur the schedule)."""
        pattern = self._pattern()
        out, removed = [], np.zeros(len(texts), dtype=np.int64)
        for i, text in enumerate(texts):
            new, count = pattern.subn("", text)
            out.append(new)
            removed[i] = count
        return Cleaning(out, removed, np.zeros(len(texts), dtype=np.int64))

    def render_draws(
        self, n: int, plan: SplitPlan, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        return {"tautology": rng.integers(len(self._clauses()), size=n)}

    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]]]:
        clauses = self._clauses()
        new_texts, values = list(texts), [""] * len(texts)
        spans: list[list[Span]] = [[] for _ in texts]
        for row in np.flatnonzero(draws.side_a).tolist():
            clause = clauses[int(draws.numbers["tautology"][row])]
            new_texts[row], span = clause_appended(texts[row], clause)
            values[row], spans[row] = clause, [span]
        return new_texts, values, spans

    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        pattern = self._pattern()
        return np.asarray([len(pattern.findall(t)) for t in texts], dtype=np.int64)

    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        return np.asarray([value != "" for value in values], dtype=bool)
