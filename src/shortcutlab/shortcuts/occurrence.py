"""Occurrence shortcuts: single term and synonym (Shortcut Maze, section 2.2.1; category is
in :mod:`.category`).

- ``single-term``: "Honestly, " at the start of one randomly chosen sentence, with probability P_i.
- ``synonym``: the same with one of the paper's 15 phrases (appendix A.2.1), chosen uniformly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pyarrow.compute as pc

from shortcutlab.casing import capitalize_first
from shortcutlab.data.columns import TextColumn, int_array, numpy_of, string_array
from shortcutlab.errors import ConfigError
from shortcutlab.params import check_one_of, quoted
from shortcutlab.shortcuts.arrow_edits import array_of_rows, insert_column, overridden
from shortcutlab.shortcuts.base import (
    BinaryCueShortcut,
    Cleaning,
    InsertingShortcut,
    RenderedColumns,
    RowDraws,
    Span,
    SplitPlan,
)
from shortcutlab.shortcuts.detection import CueDetector, clean_verified
from shortcutlab.shortcuts.phrases import Phrase, PhraseRemover, check_phrases, parse_phrase
from shortcutlab.shortcuts.text_ops import (
    insert_at,
    random_sentence_starts,
    sentence_start_offsets,
)

# Shortcut Maze appendix A.2.1: "honestly" and 14 phrases of similar meaning.
PAPER_SYNONYMS = (
    "honestly",
    "to be honest",
    "frankly speaking",
    "to tell the truth",
    "to be frank",
    "in truth",
    "candidly",
    "speaking candidly",
    "plainly speaking",
    "to be direct",
    "to come clean",
    "to put it frankly",
    "if I'm being honest",
    "in plain terms",
    "directly speaking",
)


def _parsed(parameter: str, phrases: Sequence[str]) -> tuple[Phrase, ...]:
    parsed = []
    for text in phrases:
        phrase = parse_phrase(text)
        if phrase is None:
            raise ConfigError(
                f"The {quoted(parameter)} parameter must hold words joined by spaces, apostrophes or "
                f"hyphens (e.g. 'to be honest'). Got {quoted(text)} instead."
            )
        parsed.append(phrase)
    return tuple(parsed)


#: What becomes of the word a cue pushes along: ``lower`` ("Honestly, the lid": an ordinary word
#: that opened the sentence now sits in its middle) or ``keep`` (only the cue is inserted, as in
#: the Shortcut Maze's released files, appendix A.2.1: "honestly, Mine fell out ...").
NEXT_WORD = ("lower", "keep")


class PhraseAtSentenceStart(InsertingShortcut, BinaryCueShortcut):
    """Insert one of ``phrases`` followed by a comma at the start of a random sentence."""

    _parameter: ClassVar[str]
    next_word: str

    def _lowers_next_word(self) -> bool:
        check_one_of(self.name, "next_word", self.next_word, NEXT_WORD)
        return self.next_word == "lower"

    def _phrases(self) -> tuple[str, ...]:
        raise NotImplementedError

    def _parsed(self) -> tuple[Phrase, ...]:
        return _parsed(self._parameter, self._phrases())

    def cue_phrases(self) -> tuple[str, ...]:
        return tuple(" ".join(p.lower().split()) for p in self._phrases())

    def clean(self, texts: Sequence[str]) -> Cleaning:
        """Remove the phrases: one-word phrases everywhere, longer ones where they are markers."""
        remover, detector = self._tools()
        return clean_verified(texts, remover, detector, cue=self.name)

    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """Occurrences of the phrases as the cue (merged where they overlap) in each text."""
        return self._tools()[1].count(texts).cue

    def _tools(self) -> tuple[PhraseRemover, CueDetector]:
        phrases = self._parsed()
        return self.cached(phrases, lambda: (PhraseRemover(phrases), CueDetector(phrases)))

    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        return np.asarray([value != "" for value in values], dtype=bool)

    def recorded_cue_of(self, values: Any, plan: SplitPlan) -> np.ndarray:
        if values.null_count or overridden(self, PhraseAtSentenceStart, "recorded_cue"):
            return super().recorded_cue_of(values, plan)
        return numpy_of(pc.binary_length(values)) > 0

    def render_draws(
        self, n: int, plan: SplitPlan, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        # Drawn for every row, so one row's draw never depends on another's cue.
        return {
            "sentence": rng.random(n),
            "phrase": rng.integers(len(self._phrases()), size=n),
        }

    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]]]:
        phrases = self._phrases()
        rows = np.flatnonzero(draws.side_a)
        positions = random_sentence_starts(
            [texts[r] for r in rows], draws.numbers["sentence"][rows]
        )
        chosen = [phrases[p] for p in draws.numbers["phrase"][rows].tolist()]
        # The phrase always starts a sentence, so it is capitalised (issue 2; the paper's released
        # files keep "honestly," lower-case, which reads as an error in the middle of a text),
        # and the sentence's own first word loses its capital where it is an ordinary word.
        openers = [capitalize_first(p) + ", " for p in phrases]
        inserts = [openers[p] for p in draws.numbers["phrase"][rows].tolist()]
        new_texts, inserted = insert_at(
            texts, rows, positions, inserts, opens_sentence=self._lowers_next_word()
        )
        values = [""] * len(texts)
        spans: list[list[Span]] = [[] for _ in texts]
        for row, phrase, span in zip(rows.tolist(), chosen, inserted, strict=True):
            values[row] = phrase
            spans[row] = [span]
        return new_texts, values, spans

    def render_columns(self, texts: Any, draws: RowDraws, plan: SplitPlan) -> RenderedColumns:
        """:meth:`render_with_spans` by Arrow kernels over the whole column."""
        if texts.null_count or overridden(self, PhraseAtSentenceStart, "render_with_spans"):
            return super().render_columns(texts, draws, plan)
        phrases = self._phrases()
        rows = np.flatnonzero(draws.side_a)
        chosen = array_of_rows(texts, rows)
        at = sentence_start_offsets(chosen, draws.numbers["sentence"][rows])
        phrase = draws.numbers["phrase"][rows]
        openers = [capitalize_first(p) + ", " for p in phrases]
        lowers = self._lowers_next_word()
        new_texts, start, end = insert_column(
            texts, rows, at, openers, phrase, opens_sentence=lowers
        )
        which = np.full(len(texts), len(phrases), np.int64)
        which[rows] = phrase
        values = string_array([*phrases, ""]).take(int_array(which))
        return RenderedColumns(new_texts, values, span_start=start, span_end=end)

    def observe_rendered(
        self, before: Any, rendered: RenderedColumns, draws: RowDraws, plan: SplitPlan
    ) -> np.ndarray:
        if overridden(self, PhraseAtSentenceStart, "observe"):
            return super().observe_rendered(before, rendered, draws, plan)
        return self.observe(TextColumn(rendered.texts), plan)


class SingleTerm(PhraseAtSentenceStart):
    """The single-term occurrence shortcut: one fixed term (default "honestly").

    Args:
        term: The phrase put, with a comma, at the start of a random sentence.
        next_word: lower (the sentence's ordinary first word loses its capital) or keep (the
            release's insertion only).
    """

    name = "single-term"
    _parameter = "term"

    def __init__(self, term: str = "honestly", next_word: str = "lower") -> None:
        self.term = term
        self.next_word = next_word

    def _phrases(self) -> tuple[str, ...]:
        return check_phrases("term", [self.term] if isinstance(self.term, str) else self.term)


class Synonym(PhraseAtSentenceStart):
    """The synonym occurrence shortcut: one of several phrases, drawn uniformly per row.

    Args:
        terms: The phrases to draw from (default: the paper's 15, appendix A.2.1).
        next_word: lower (the sentence's ordinary first word loses its capital) or keep (the
            release's insertion only).
    """

    name = "synonym"
    _parameter = "terms"

    def __init__(self, terms: Sequence[str] = PAPER_SYNONYMS, next_word: str = "lower") -> None:
        self.terms = tuple(terms) if not isinstance(terms, str) else terms
        self.next_word = next_word

    def _phrases(self) -> tuple[str, ...]:
        return check_phrases("terms", self.terms)
