"""Where a candidate sits in a text: the whole-word occurrences of a token or n-gram.

Highlighting in the report and counterfactual removal both need the exact characters. A phrase is
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
