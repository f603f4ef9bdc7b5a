"""WFS: the row's value is one of the data set's most frequent content words (paper 002, A.4).

The paper takes "the top six words that best align with the dataset's thematic content"; here the
choice is mechanical and reproducible: the ``k`` words with the most occurrences in the training
pool after a stop-word list, negation words (NBS's domain) and pure numbers are left out.
Words are whole words of the :mod:`~shortcutlab.attributes.words` view, so "film's" counts as
"film" and "films" does not.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import numpy as np
import pyarrow as pa

from shortcutlab.attributes.base import Annotation, Attribute
from shortcutlab.attributes.lexical import DEFAULT_LEXICON, PAPER_LEXICON
from shortcutlab.attributes.words import (
    SplitWords,
    phrase_counts,
    spaced_phrases,
    spaced_words,
    word_counts,
)
from shortcutlab.errors import ConfigError
from shortcutlab.params import check_positive_int, quoted

_NUMBER = re.compile(r"\d+")
_NEGATIONS = frozenset(DEFAULT_LEXICON + PAPER_LEXICON)


class FrequentWords(Attribute):
    """WFS: the value is a frequent word the row contains; rows with none of them get ``None``.

    ``words`` (a list) fixes the words and ``k`` is unused; otherwise :meth:`fitted` picks the
    ``k`` most frequent words of the pool that are not stop words (``stop_words``: ``"english"``
    for scikit-learn's list, a list of words, or ``None``), not negations, not numbers and at
    least ``min_length`` characters long; equal counts are ordered alphabetically.

    A row holding several of the words takes the one that is **rarest in the pool** (fewest
    occurrences; equal counts by the words' order). Rare words' groups are the small ones, so
    this evens the group sizes out instead of letting the commonest word ("film") swallow every
    row that also names a rarer one, and the value does not depend on where the words stand in
    the sentence. The pool counts are measured by :meth:`fitted` for given words too.

    Examples:
        >>> pool = ["a good film", "good fun", "a good story", "the film's end", "nothing here"]
        >>> wfs = FrequentWords(k=2).fitted(pool)
        >>> wfs.words, wfs.annotate(pool).values.tolist()
        (['good', 'film'], ['film', 'good', 'good', 'film', None])

    Args:
        k: How many of the pool's most frequent words become values.
        words: A fixed list of words instead (k is then unused).
        stop_words: Words never picked: english, a list of words, or None.
        min_length: Picked words have at least this many characters.
    """

    name = "frequent-words"

    def __init__(
        self,
        k: int = 6,
        words: Sequence[str] | None = None,
        stop_words: str | Sequence[str] | None = "english",
        min_length: int = 2,
    ) -> None:
        check_positive_int(self.name, "k", k)
        check_positive_int(self.name, "min_length", min_length)
        self.k = k
        self.min_length = min_length
        self.stop_words = _checked_stop_words(stop_words)
        self.given = words is not None
        self.words: list[str] | None = _checked_words(words) if words is not None else None
        self.pool_counts: dict[str, int] | None = None
        self._fitted_on: tuple[Sequence[str] | None, Any] = (None, None)

    def fitted(
        self,
        texts: Sequence[str],
        *,
        spaced: pa.Array | None = None,
        split: SplitWords | None = None,
    ) -> FrequentWords:
        """A copy with the words (unless given) and their occurrence counts taken from ``texts``
        (``spaced``: the texts as :func:`spaced_words` gives them, when the caller has them;
        ``split``: their words split once, when the caller reads them too)."""
        spaced = spaced_words(texts) if spaced is None else spaced
        twin = FrequentWords(self.k, self.words, self.stop_words, self.min_length)
        # Annotating the pool right after fitting on it (what a build does) reuses its words.
        twin._fitted_on = (texts, spaced)
        if twin.words is not None:
            totals = phrase_counts(spaced, spaced_phrases(twin.words)).sum(axis=0)
            twin.pool_counts = {w: int(n) for w, n in zip(twin.words, totals, strict=True)}
            return twin
        counts = word_counts(spaced) if split is None else split.counts()
        twin._pick(counts, len(texts))
        return twin

    def fitted_to_counts(self, counts: Mapping[str, int], texts: int) -> FrequentWords:
        """A copy fitted as :meth:`fitted` fits it, from the occurrences of every word of the
        pool's ``texts`` texts (words of :func:`spaced_words`; a scan counts them a slice of
        rows at a time, never holding the texts)."""
        twin = FrequentWords(self.k, self.words, self.stop_words, self.min_length)
        if twin.words is not None:
            twin.pool_counts = {w: int(counts.get(w, 0)) for w in twin.words}
            return twin
        twin._pick(counts, texts)
        return twin

    def _pick(self, counts: Mapping[str, int], texts: int) -> None:
        """The ``k`` most frequent content words of ``counts`` become the words."""
        kept = [(w, n) for w, n in counts.items() if self._is_content_word(w)]
        kept.sort(key=lambda pair: (-pair[1], pair[0]))
        if not kept:
            raise ConfigError(
                f"The frequent-words attribute found no content word in {texts} texts "
                "(after stop words, negations and numbers). Give the words with words=[...]."
            )
        self.pool_counts = {word: int(count) for word, count in kept[: self.k]}
        self.words = list(self.pool_counts)

    def annotate(
        self, texts: Sequence[str], columns: Mapping[str, Sequence[Any]] | None = None
    ) -> Annotation:
        """Each row's rarest pool word (see the class docstring); fits on ``texts`` when unfitted."""
        if self.pool_counts is None:
            return self.fitted(texts).annotate(texts, columns)
        words = list(self.pool_counts)
        fitted_texts, fitted_spaced = self._fitted_on
        spaced = fitted_spaced if texts is fitted_texts else spaced_words(texts)
        present = phrase_counts(spaced, spaced_phrases(words), presence=True)
        values = np.full(len(texts), None, dtype=object)
        assigned = np.zeros(len(texts), dtype=bool)
        # Rarest first; Python's sort is stable, so equal counts keep the words' order.
        for index in sorted(range(len(words)), key=lambda i: self.pool_counts[words[i]]):
            values[present[:, index] & ~assigned] = words[index]
            assigned |= present[:, index]
        held = present.sum(axis=1)
        details = {"no_word": int((held == 0).sum()), "several_words": int((held > 1).sum())}
        return Annotation(values, details)

    def config(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "k": self.k,
            "stop_words": self.stop_words,
            "min_length": self.min_length,
            "words_given": self.given,
            "words": self.words,
            "pool_counts": self.pool_counts,
        }

    def possible_values(self) -> list[str] | None:
        return None if self.words is None else list(self.words)

    def _is_content_word(self, word: str) -> bool:
        stop = _stop_list(self.stop_words)
        return (
            len(word) >= self.min_length
            and word not in stop
            and word not in _NEGATIONS
            and not _NUMBER.fullmatch(word)
        )


def _stop_list(stop_words: str | list[str] | None) -> frozenset[str]:
    if stop_words == "english":
        return english_stop_words()
    return frozenset(stop_words or ())


@functools.cache
def english_stop_words() -> frozenset[str]:
    """scikit-learn's ``ENGLISH_STOP_WORDS``, as a packaged copy (importing scikit-learn costs
    more than the whole frequent-words fit; a test checks the copy against it)."""
    text = resources.files("shortcutlab.attributes.resources").joinpath("english-stop-words.txt")
    return frozenset(text.read_text(encoding="utf-8").split())


def _checked_stop_words(stop_words: Any) -> str | list[str] | None:
    if stop_words is None or stop_words == "english":
        return stop_words
    if isinstance(stop_words, str) or not all(isinstance(w, str) for w in stop_words):
        raise ConfigError(
            "The 'stop_words' parameter of frequent-words must be 'english', a list of words or "
            f"null. Got {quoted(stop_words)} instead."
        )
    return sorted({w.strip().lower() for w in stop_words})


def _checked_words(words: Any) -> list[str]:
    """The user's words in the spaced-word form's spelling (lower case, one word each)."""
    if isinstance(words, str) or not words:
        raise ConfigError(
            f"The 'words' parameter of frequent-words must be a non-empty list of words. Got {quoted(words)} instead."
        )
    spelled = spaced_phrases([w if isinstance(w, str) else "" for w in words])
    cleaned = []
    for word, spaced in zip(words, spelled, strict=True):
        if not spaced or "  " in spaced.strip():
            raise ConfigError(
                f"The 'words' parameter of frequent-words takes single words of letters or digits; "
                f"{quoted(word)} is not one. Give one word per entry."
            )
        cleaned.append(spaced.strip())
    if len(set(cleaned)) < len(cleaned):
        raise ConfigError(
            f"The 'words' parameter of frequent-words lists a word twice: {quoted(list(words))}."
        )
    return cleaned
