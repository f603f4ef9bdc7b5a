"""Data-level repairs of a lexical shortcut: the candidate phrase is removed from, masked in, or
made uninformative in the training texts, and the backend is fitted on the repaired rows.

- ``remove-candidate``: the candidate's words deleted from the training texts that have them
  (the same rows, in the same order).
- ``mask-candidate``: the candidate replaced by a mask token (default ``[MASK]``).
- ``counterfactual-augment``: the training rows followed by counterfactual copies, labels kept:
  each row that carries the candidate once more with it removed, and each row that lacks it once
  more with it inserted at a word boundary drawn from the seed. Every label then has as many rows
  with the candidate as without, so the candidate no longer predicts a label (counterfactually
  augmented data: Kaushik, Hovy and Lipton 2020, "Learning the Difference that Makes a Difference
  with Counterfactually-Augmented Data", ICLR; generated counterfactuals for spurious words: Wang
  and Culotta 2021, "Robustness to Spurious Correlations in Text Classification via Automatically
  Generated Counterfactuals", AAAI).

``candidate`` is a phrase (lower-case words, as the audit reports them) or a list of phrases; left
out, it is the cue the benchmark's build recorded (a Maze build of a phrase shortcut such as
single-term). ``part`` picks the text that is edited on paired data. Matching, removal, masking and
insertion are :mod:`shortcutlab.shortcuts.phrases_in_text`'s, the audit's own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shortcutlab.data.pairs import TEXT, TEXT_PAIR, is_paired, join_inputs, split_inputs
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor, TrainingRows
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.params import check_one_of, quoted, require
from shortcutlab.shortcuts.phrases_in_text import (
    insert_phrases,
    phrase_pattern,
    replace_phrase,
)

DEFAULT_MASK = "[MASK]"


def _is_phrase(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


class CandidateRepair(Mitigation):
    """Base of the data-level repairs: the candidate, the edited part and the fit on the
    repaired rows.

    Args:
        candidate: The phrase (or list of phrases) to repair; default: the benchmark's recorded cue.
        part: The text edited on paired data: text or text_pair.
    """

    def __init__(self, candidate: str | Sequence[str] | None = None, part: str = TEXT) -> None:
        self.candidate = candidate
        self.part = part

    def check_params(self) -> None:
        candidate = self.candidate
        require(
            candidate is None
            or _is_phrase(candidate)
            or (
                isinstance(candidate, list | tuple)
                and bool(candidate)
                and all(_is_phrase(p) for p in candidate)
            ),
            self.name,
            "candidate",
            "a non-empty phrase, a non-empty list of them, or null (the benchmark's recorded cue)",
            candidate,
        )
        check_one_of(self.name, "part", self.part, (TEXT, TEXT_PAIR))

    def needs_recorded_cue(self) -> bool:
        return self.candidate is None

    def fit(self, context: MitigationContext) -> Predictor:
        return fit_backend(context, self.repaired(context))

    def phrases(self, context: MitigationContext) -> tuple[str, ...]:
        """The candidate phrases, lower-case with single spaces: the given ones, else the cue the
        benchmark recorded; refused when there is neither."""
        given = self.candidate
        if given is None:
            if not context.cue_phrases:
                raise ConfigError(
                    f"The {self.name} mitigation needs a candidate: give candidate: PHRASE (only a "
                    "Maze build of a phrase shortcut, such as single-term, records its cue)."
                )
            given = context.cue_phrases
        listed = [given] if isinstance(given, str) else list(given)
        return tuple(dict.fromkeys(" ".join(str(p).lower().split()) for p in listed))

    def part_texts(self, context: MitigationContext) -> list[str]:
        """The edited part of every training row."""
        firsts, seconds = self.edited_texts(context)
        return firsts if self.part == TEXT else seconds or []

    def replaced_in_place(self, context: MitigationContext, replacement: str) -> TrainingRows:
        """The training rows, in order, with the candidate replaced by ``replacement`` ("" deletes
        it) in the texts that have it."""
        texts = self.part_texts(context)
        carried = self.carriers(context, texts)
        phrases = self.phrases(context)
        edited = [
            _replaced(t, phrases, replacement) if has else t
            for t, has in zip(texts, carried.tolist(), strict=True)
        ]
        return self.rows_with(context, np.arange(len(texts)), edited)

    def edited_texts(self, context: MitigationContext) -> tuple[list[str], list[str] | None]:
        """The training rows' first and second texts; refuses ``part: text_pair`` on single texts."""
        inputs = context.train.inputs
        if self.part == TEXT_PAIR and not is_paired(inputs):
            raise ConfigError(
                f"The {self.name} mitigation edits text_pair, but the data has one text per row. "
                "Use part: text."
            )
        return split_inputs(inputs)

    def carriers(self, context: MitigationContext, texts: list[str]) -> np.ndarray:
        """Whether each text carries any candidate phrase; refuses a candidate no row carries."""
        patterns = [phrase_pattern(p) for p in self.phrases(context)]
        found = np.array([any(p.search(t) for p in patterns) for t in texts], dtype=bool)
        if len(texts) and not found.any():
            raise ConfigError(
                f"The {self.name} mitigation found no training text ({self.part}) with the "
                f"candidate {quoted(', '.join(self.phrases(context)))}; check its spelling, or "
                "the part."
            )
        return found

    def rows_with(
        self, context: MitigationContext, rows: np.ndarray, edited: list[str]
    ) -> TrainingRows:
        """Training rows ``rows`` with their ``part`` replaced by ``edited`` (labels kept)."""
        firsts, seconds = split_inputs([context.train.inputs[i] for i in rows])
        if self.part == TEXT:
            firsts = edited
        else:
            seconds = edited
        return TrainingRows(join_inputs(firsts, seconds), context.train.labels[rows])


def _replaced(text: str, phrases: Sequence[str], replacement: str) -> str:
    for phrase in phrases:
        text = replace_phrase(text, phrase_pattern(phrase), replacement)
    return text


class RemoveCandidate(CandidateRepair):
    """Deletes the candidate from the training texts that have it.

    Args:
        candidate: The phrase (or list of phrases) to remove; default: the benchmark's recorded cue.
        part: The text edited on paired data: text or text_pair.
    """

    name = "remove-candidate"

    def repaired(self, context: MitigationContext) -> TrainingRows:
        return self.replaced_in_place(context, "")


class MaskCandidate(CandidateRepair):
    """Replaces the candidate by a mask token in the training texts that have it.

    Args:
        candidate: The phrase (or list of phrases) to mask; default: the benchmark's recorded cue.
        part: The text edited on paired data: text or text_pair.
        mask: The token put in its place.
    """

    name = "mask-candidate"

    def __init__(
        self,
        candidate: str | Sequence[str] | None = None,
        part: str = TEXT,
        mask: str = DEFAULT_MASK,
    ) -> None:
        super().__init__(candidate, part)
        self.mask = mask

    def check_params(self) -> None:
        super().check_params()
        require(
            _is_phrase(self.mask),
            self.name,
            "mask",
            "a non-empty token such as '[MASK]' (remove-candidate deletes instead)",
            self.mask,
        )

    def repaired(self, context: MitigationContext) -> TrainingRows:
        return self.replaced_in_place(context, self.mask)


class CounterfactualAugment(CandidateRepair):
    """Follows the training rows with one copy of each, in order, labels kept: the candidate
    removed where the row has it, inserted at a seeded word boundary where it lacks it.

    Args:
        candidate: The phrase (or list of phrases); default: the benchmark's recorded cue. With
            several, each inserted copy gets one drawn from the seed.
        part: The text edited on paired data: text or text_pair.
    """

    name = "counterfactual-augment"

    def repaired(self, context: MitigationContext) -> TrainingRows:
        texts = self.part_texts(context)
        carried = self.carriers(context, texts)
        phrases = self.phrases(context)
        copies = [_replaced(t, phrases, "") for t in texts]  # rows without it get it below
        without = np.flatnonzero(~carried)
        rng = np.random.default_rng(context.seed)
        which = rng.integers(len(phrases), size=len(without))
        seeds = rng.integers(2**63, size=len(phrases))
        for k, phrase in enumerate(phrases):
            rows = without[which == k]
            added = insert_phrases([texts[i] for i in rows], phrase, int(seeds[k]))
            for row, text in zip(rows.tolist(), added, strict=True):
                copies[row] = text
        added_rows = self.rows_with(context, np.arange(len(texts)), copies)
        return TrainingRows(
            context.train.inputs + added_rows.inputs,
            np.concatenate([context.train.labels, added_rows.labels]),
        )
