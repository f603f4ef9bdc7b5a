"""Words and punctuation marks with their character offsets: the features SHAP masks, and how
each maps onto a build's cue spans.

The tokens are the model's input split the same way for every backend (TF-IDF, a sentence
encoder, BERT), so attributions of different models sit over the same features and a cue's tokens
are found by offsets alone, never by matching the cue's words.

Examples:
    >>> text = "Honestly, it was fine."
    >>> word_spans(text)
    [(0, 8), (8, 9), (10, 12), (13, 16), (17, 21), (21, 22)]
    >>> tokens_in_spans(word_spans(text), [(0, 10)]).tolist()
    [True, True, False, False, False, False]
    >>> remove_spans(text, [(0, 10)])
    'it was fine.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

Span = tuple[int, int]
# A word (letters, digits, underscores, inner apostrophes) or one other visible character.
_TOKEN = re.compile(r"\w+(?:['\u2019]\w+)*|[^\w\s]")


def word_spans(text: str) -> list[Span]:
    """The ``[start, end)`` offsets of every token of ``text``."""
    return [match.span() for match in _TOKEN.finditer(text)]


class WordTokenizer:
    """:func:`word_spans` in the shape ``shap.maskers.Text`` calls a tokenizer (Hugging Face's
    ``input_ids`` and ``offset_mapping``); the ids are the token strings themselves."""

    def __call__(self, text: str, return_offsets_mapping: bool = True) -> dict[str, Any]:
        spans = word_spans(text)
        found: dict[str, Any] = {"input_ids": [text[start:end] for start, end in spans]}
        if return_offsets_mapping:
            found["offset_mapping"] = spans
        return found


def tokens_in_spans(offsets: Sequence[Span], spans: Sequence[Span]) -> np.ndarray:
    """Per token, whether it shares a character with any span (a subword or a token cut by a
    span's edge counts as the cue's)."""
    return np.array(
        [
            any(start < end_s and start_s < end for start_s, end_s in spans)
            for start, end in offsets
        ],
        dtype=bool,
    )


def remove_spans(text: str, spans: Sequence[Span]) -> str:
    """``text`` without the characters of ``spans`` (ordered, not overlapping): a build's cue
    span holds the inserted text with its separator, so this gives back the text before insertion."""
    kept, position = [], 0
    for start, end in spans:
        kept.append(text[position:start])
        position = end
    kept.append(text[position:])
    return "".join(kept)


def visible_characters(text: str, spans: Sequence[Span]) -> set[int]:
    """The positions of non-space characters inside ``spans`` (what two span sets share is
    counted on these, so a trailing space never decides an overlap)."""
    return {i for start, end in spans for i in range(start, end) if not text[i].isspace()}
