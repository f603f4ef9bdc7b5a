"""Where a candidate phrase sits in a text, and the text with it removed, replaced or inserted.

The audit's highlighting, its counterfactual tests (removal, insertion) and the data-level
repairs (masking, removing, counterfactual augmentation) all edit the same exact characters. A phrase is
lower-case words separated by single spaces (what the token scan reports); it matches those words
in that order as whole words, ignoring case, with anything that is not a word character between
them, curly and straight apostrophes alike, and a contraction also in its tokenised spelling
("do n't"). Spans are ``[start, end)`` code-point offsets, as Python slices them.

Examples:
    >>> phrase_spans("Not bad. NOT  bad at all, not-bad", "not bad")
    [[0, 7], [9, 17], [26, 33]]
    >>> phrase_spans("a notable film", "not")
    []
    >>> phrase_spans("I don't know", "don't")
    [[2, 7]]
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

# After a deleted word, these characters keep the text readable when the space before it goes.
_SPACES = re.compile(r"\s+")
_CLOSING = ".,!?;:)]}\"'\u2019"


def phrase_spans(text: str, phrase: str) -> list[list[int]]:
    """Every whole-word occurrence of ``phrase`` in ``text`` as ``[start, end]``."""
    if not phrase.strip():
        return []
    return [[m.start(), m.end()] for m in phrase_pattern(phrase).finditer(text)]


@lru_cache(maxsize=4096)
def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A case-insensitive pattern for ``phrase`` as whole words: its words separated by anything
    that is not a word character (as a tokenizer reads "very, good" as "very good"), curly and
    straight apostrophes alike, and a contraction also in its tokenised spelling ("do n't").

    Examples:
        >>> bool(phrase_pattern("don't").search("I do n’t know")), bool(phrase_pattern("not").search("notable"))
        (True, False)
    """
    words = []
    for word in phrase.split():
        escaped = re.escape(word).replace("'", "['\u2019]")
        if word.endswith("n't") and len(word) > 3:
            escaped = re.escape(word[:-3]) + r"\s*n['\u2019]t"
        words.append(escaped)
    return re.compile(r"(?<![\w'\u2019])" + r"[^\w]+".join(words) + r"(?![\w'\u2019])", re.I)


def remove_phrase(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with every match of ``pattern`` deleted and the rest byte-identical, except one
    space next to each deletion, so no doubled space (or space before punctuation) is left.

    Examples:
        >>> remove_phrase("Honestly, I love it. I LOVE it!", phrase_pattern("love"))
        'Honestly, I it. I it!'
        >>> remove_phrase("love it, love", phrase_pattern("love"))
        'it,'
        >>> remove_phrase("lovely", phrase_pattern("love"))
        'lovely'
    """
    drop = np.zeros(len(text) + 1, dtype=np.int64)  # +1 at a deletion's start, -1 after its end
    for match in pattern.finditer(text):
        start, end = match.span()
        after = text[end] if end < len(text) else ""
        if start > 0 and text[start - 1] == " " and (after in ("", " ") or after in _CLOSING):
            start -= 1
        elif start == 0 and after == " ":
            end += 1
        drop[start] += 1
        drop[end] -= 1
    if not drop.any():
        return text
    keep = np.cumsum(drop[:-1]) == 0
    return "".join(ch for ch, kept in zip(text, keep.tolist(), strict=True) if kept)


def replace_phrase(text: str, pattern: re.Pattern[str], replacement: str) -> str:
    """``text`` with every match of ``pattern`` replaced by ``replacement`` (a mask token); an
    empty replacement is :func:`remove_phrase`.

    Examples:
        >>> replace_phrase("Frankly, it works. frankly!", phrase_pattern("frankly"), "[MASK]")
        '[MASK], it works. [MASK]!'
    """
    if not replacement:
        return remove_phrase(text, pattern)
    return pattern.sub(replacement.replace("\\", "\\\\"), text)


def word_starts(text: str) -> list[int]:
    """The offsets where a word may be inserted: the start and after every run of white space.

    Examples:
        >>> word_starts("Good film,  truly.")
        [0, 5, 12]
    """
    return [0] + [m.end() for m in _SPACES.finditer(text) if m.end() < len(text)]


def insert_phrase(text: str, phrase: str, choice: float) -> str:
    """``text`` with ``phrase`` inserted as a whole word before the word that ``choice`` (in
    [0, 1)) picks uniformly among :func:`word_starts`; an empty text becomes the phrase.

    Examples:
        >>> insert_phrase("Good film.", "frankly", 0.0), insert_phrase("Good film.", "frankly", 0.9)
        ('frankly Good film.', 'Good frankly film.')
    """
    if not text:
        return phrase
    starts = word_starts(text)
    at = starts[min(int(choice * len(starts)), len(starts) - 1)]
    return f"{text[:at]}{phrase} {text[at:]}"


def insert_phrases(texts: list[str], phrase: str, seed: int) -> list[str]:
    """:func:`insert_phrase` on every text, each position drawn from ``seed`` (one uniform per
    row, in order, so a row's position does not depend on later rows)."""
    choices = np.random.default_rng(seed).random(len(texts)).tolist()
    return [insert_phrase(t, phrase, c) for t, c in zip(texts, choices, strict=True)]
