"""The audit's word and n-gram vocabulary, counted a slice of rows at a time: per n-gram only its
counts (:class:`~shortcutlab.families.audit.scan.indicator_counts.IndicatorCounts`), never its rows.

Each slice's words are encoded into integer ids (its distinct words joined to one running
dictionary), and each n-gram is coded by its first n-1 words (an (n-1)-gram's id) and its last
word, so no per-occurrence string outlives its slice. At the end the n-grams in at least
``min_support`` rows are the vocabulary that scikit-learn's ``CountVectorizer(binary=True,
ngram_range=(1, n))`` keeps after pruning to ``min_support`` rows: the same words (the same
``findall`` of the same pattern), in the same alphabetical order. Memory grows with the distinct
n-grams, as CountVectorizer's vocabulary does, not with the rows.

Examples:
    >>> names, counts = frequent_ngrams(["a b c", "a b", "b c a"], ngram_max=2, min_support=2)
    >>> names, counts.support.tolist()
    (['a', 'a b', 'b', 'b c', 'c'], [3, 2, 3, 2, 2])
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.lexical import text_array
from shortcutlab.families.audit.scan.indicator_counts import IndicatorCounts, grown, row_weights
from shortcutlab.families.audit.scan.tokens import (
    TOKEN_PATTERN,
    arrow_words_agree,
    findall_words,
    words,
)

#: Texts tokenised at once by :func:`frequent_ngrams`.
CHUNK_ROWS = 65_536
_WORD_BITS = np.int64(32)
_WORD_MASK = np.int64((1 << 32) - 1)


def slice_words(texts: pa.Array, token_pattern: str = TOKEN_PATTERN) -> pa.ListArray:
    """Per text, ``re.findall(token_pattern, text)``: by Arrow's kernels where they read the
    same words (:func:`~shortcutlab.families.audit.scan.tokens.words`), else by Python."""
    if token_pattern == TOKEN_PATTERN and arrow_words_agree(texts):
        return words(texts)
    return findall_words(texts, token_pattern)


@dataclass
class _Level:
    """The n-grams of one length found so far: ids by code (n >= 2), each one's first n-1
    words (an id one level down) and last word, and their counts."""

    counts: IndicatorCounts
    ids: dict[int, int] = field(default_factory=dict)
    prefix: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    last: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    size: int = 0

    def identify(self, codes: np.ndarray) -> np.ndarray:
        """The ids of distinct ``codes`` (new ones numbered on), their prefix and last word kept."""
        before = len(self.ids)
        found = np.fromiter(
            (self.ids.setdefault(code, len(self.ids)) for code in codes.tolist()),
            dtype=np.int64,
            count=len(codes),
        )
        self.size = len(self.ids)
        if self.size > before:
            new = found >= before
            self.prefix = grown(self.prefix, self.size)
            self.last = grown(self.last, self.size)
            self.prefix[found[new]] = codes[new] >> _WORD_BITS
            self.last[found[new]] = codes[new] & _WORD_MASK
        return found


class WordTally:
    """Words with their occurrences and their rows' counts, added a slice of rows at a time."""

    def __init__(self, n_classes: int) -> None:
        self.ids: dict[str, int] = {}
        self.words: list[str] = []  # by id
        self.occurrences = np.zeros(0, dtype=np.int64)
        self.counts = IndicatorCounts.empty(n_classes)

    def add(
        self, found: pa.ListArray, ranks: np.ndarray, weights: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Count a slice of rows: ``found`` their words (a list array), ``ranks`` their labels,
        ``weights`` their :func:`~shortcutlab.families.audit.scan.indicator_counts.row_weights`.
        Returns each word position's id and row, in reading order (empty words left out)."""
        flat = pc.list_flatten(found).cast(pa.large_string())
        at = pc.list_parent_indices(found).to_numpy(zero_copy_only=False)
        present = pc.not_equal(flat, "")  # a text with no word reads as one empty one
        encoded = pc.filter(flat, present).dictionary_encode()
        at = at[present.to_numpy(zero_copy_only=False)].astype(np.int64)
        del flat, present
        to_global = self._numbered(encoded.dictionary.to_pylist())
        local = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        del encoded
        self.occurrences = grown(self.occurrences, len(self.ids))
        self.occurrences[to_global] += np.bincount(local, minlength=len(to_global))
        self.counts.add_entries(to_global, local, at, ranks, weights)
        return to_global[local], at

    def number(self, words: Iterable[str]) -> np.ndarray:
        """The ids of ``words``, numbering those not seen yet (at zero counts, so a word
        numbered before it is read is counted as any other)."""
        words = list(words)
        self._numbered(list(dict.fromkeys(words)))
        self.occurrences = grown(self.occurrences, len(self.ids))
        self.counts.grow(len(self.ids))
        return np.array([self.ids[word] for word in words], dtype=np.int64)

    def _numbered(self, words: list[str]) -> np.ndarray:
        """The ids of distinct ``words``, new ones numbered on (and listed in :attr:`words`)."""
        before = len(self.ids)
        ids = np.fromiter(
            (self.ids.setdefault(word, len(self.ids)) for word in words),
            dtype=np.int64,
            count=len(words),
        )
        if len(self.ids) > before:  # new ids were given in the order of ``words``
            self.words.extend(
                word for word, i in zip(words, ids.tolist(), strict=True) if i >= before
            )
        return ids

    def stats(self, words: Sequence[str]) -> tuple[np.ndarray, IndicatorCounts]:
        """The occurrences and counts of ``words`` (zero for a word never seen)."""
        n_classes = self.counts.counts.shape[1]
        index = np.array([self.ids.get(word, -1) for word in words], dtype=np.int64)
        seen = np.flatnonzero(index >= 0)
        occurrences = np.zeros(len(words), dtype=np.int64)
        occurrences[seen] = self.occurrences[index[seen]]
        counts = IndicatorCounts.empty(n_classes, len(words))
        found = self.counts.take(index[seen])
        counts.support[seen], counts.counts[seen], counts.prints[seen] = (
            found.support,
            found.counts,
            found.prints,
        )
        return occurrences, counts


class NgramTally:
    """The 1..``ngram_max``-grams of a table's rows with their counts, added a slice at a time
    (:meth:`add`); :meth:`frequent` gives the vocabulary. Words in ``breaks`` are no n-gram and
    no part of one: they mark where a word was cut out, so an n-gram is made of adjacent words.
    ``single`` holds the words (with their occurrences)."""

    def __init__(self, ngram_max: int, n_classes: int, breaks: Collection[str] = ()) -> None:
        self.ngram_max = ngram_max
        self.breaks = frozenset(breaks)
        self.single = WordTally(n_classes)
        self.breaking = np.zeros(0, dtype=bool)
        self.levels = [_Level(IndicatorCounts.empty(n_classes)) for _ in range(ngram_max - 1)]

    def number(self, words: Iterable[str]) -> np.ndarray:
        """:meth:`WordTally.number` of the words (before or between slices)."""
        before = len(self.single.ids)
        ids = self.single.number(words)
        self._new_words(before)
        return ids

    def add(
        self, found: pa.ListArray, ranks: np.ndarray, weights: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Count a slice of rows: ``found`` their words (a list array), ``ranks`` their labels,
        ``weights`` their :func:`~shortcutlab.families.audit.scan.indicator_counts.row_weights`.
        Returns each word position's id (in :attr:`single`) and row, in reading order."""
        before = len(self.single.ids)
        ids, at = self.single.add(found, ranks, weights)
        self._new_words(before)
        previous = np.where(self.breaking[ids], -1, ids)
        for n in range(2, self.ngram_max + 1):
            span = len(ids) - n + 1
            if span <= 0:
                break
            head = previous[:span]
            last = ids[n - 1 :]
            valid = (head >= 0) & (at[:span] == at[n - 1 :]) & ~self.breaking[last]
            codes = (head[valid] << _WORD_BITS) | last[valid]
            local_codes, distinct = pd.factorize(codes)
            level = self.levels[n - 2]
            level_ids = level.identify(np.asarray(distinct, dtype=np.int64))
            level.counts.add_entries(level_ids, local_codes, at[:span][valid], ranks, weights)
            previous = np.full(len(ids), -1, dtype=np.int64)
            previous[:span][valid] = level_ids[local_codes]
            del codes, local_codes, valid
        return ids, at

    def _new_words(self, before: int) -> None:
        """Mark which of the words numbered from ``before`` on are breaks."""
        words = self.single.ids
        if len(words) > before:
            self.breaking = grown(self.breaking, len(words))
            for word in self.breaks:
                if words.get(word, -1) >= before:
                    self.breaking[words[word]] = True

    def frequent(
        self, min_support: int, max_features: int | None = None
    ) -> tuple[list[str], IndicatorCounts]:
        """The n-grams in at least ``min_support`` rows (words joined by one space), sorted (with
        ``max_features``, the most supported ones; equal support: alphabetical order), and their
        counts in that order."""
        spelled = self.single.words
        single = self.single.counts
        kept = np.flatnonzero(
            (single.support[: len(spelled)] >= min_support) & ~self.breaking[: len(spelled)]
        )
        below: dict[int, str] = {int(i): spelled[i] for i in kept.tolist()}
        names: list[str] = list(below.values())
        parts: list[IndicatorCounts] = [single.take(kept)]
        for level in self.levels:
            kept = np.flatnonzero(level.counts.support[: level.size] >= min_support)
            # A frequent n-gram's first n-1 words are a frequent (n-1)-gram.
            named = {
                int(i): f"{below[int(level.prefix[i])]} {spelled[int(level.last[i])]}"
                for i in kept.tolist()
            }
            names.extend(named.values())
            parts.append(level.counts.take(kept))
            below = named
        counts = IndicatorCounts.joined(parts, single.counts.shape[1])
        order = sorted(range(len(names)), key=names.__getitem__)
        if max_features is not None and len(order) > max_features:
            ranked = np.argsort(-counts.support[order], kind="stable")[:max_features]
            order = [order[i] for i in np.sort(ranked).tolist()]
        index = np.asarray(order, dtype=np.int64)
        return [names[i] for i in order], counts.take(index)


def frequent_ngrams(
    texts: Sequence[str] | pa.Array,
    *,
    ngram_max: int,
    min_support: int,
    max_features: int | None = None,
    token_pattern: str = TOKEN_PATTERN,
    ranks: np.ndarray | None = None,
    n_classes: int = 1,
) -> tuple[list[str], IndicatorCounts]:
    """The 1..``ngram_max``-grams (words joined by one space) in at least ``min_support`` of the
    ``texts`` (tokenised as they are), sorted, and their counts (by ``ranks``, the texts' labels
    0..``n_classes``-1; without, all one label)."""
    array = text_array(texts)
    ranks = np.zeros(len(array), dtype=np.int64) if ranks is None else np.asarray(ranks)
    tally = NgramTally(ngram_max, n_classes)
    for start in range(0, len(array), CHUNK_ROWS):
        stop = min(start + CHUNK_ROWS, len(array))
        found = slice_words(array[start:stop], token_pattern)
        tally.add(found, ranks[start:stop], row_weights(start, stop))
    return tally.frequent(min_support, max_features)


def phrase_presence(found: pa.ListArray, phrases: Sequence[str]) -> np.ndarray:
    """(texts, phrases) boolean: text ``i``'s words (``found[i]``) hold the phrase (words joined
    by one space) as adjacent words."""
    flat = pc.list_flatten(found).cast(pa.large_string())
    rows = pc.list_parent_indices(found).to_numpy(zero_copy_only=False)
    encoded = flat.dictionary_encode()
    number = {word: i for i, word in enumerate(encoded.dictionary.to_pylist())}
    ids = encoded.indices.to_numpy(zero_copy_only=False)
    return id_phrase_presence(ids, rows, len(found), phrases, number)


def id_phrase_presence(
    ids: np.ndarray, rows: np.ndarray, texts: int, phrases: Sequence[str], number: dict[str, int]
) -> np.ndarray:
    """(texts, phrases) boolean from every word position's id (``number`` numbers the words)
    and row (in reading order): the text holds the phrase's words adjacent, in order.

    Phrases of one and two words are found in one pass over the positions for all of them (a
    lookup by id, and by the pair's joint code); longer ones a pass each. A pass per phrase made
    the triage's reads of a few hundred words take minutes at 200,000 rows.
    """
    present = np.zeros((texts, len(phrases)), dtype=bool)
    wanted = [[number.get(word, -1) for word in phrase.split(" ")] for phrase in phrases]
    size = max(len(number), int(ids.max()) + 1 if len(ids) else 0, 1)
    singles = [(j, w[0]) for j, w in enumerate(wanted) if len(w) == 1 and w[0] >= 0]
    if singles and len(ids):
        column_of = np.full(size, -1, dtype=np.int64)
        for column, word in singles:
            column_of[word] = column
        found = column_of[ids]
        hit = found >= 0
        present[rows[hit], found[hit]] = True
        # Two phrases of the same word (not made by the scan) each get its rows.
        for column, word in singles:
            if column_of[word] != column:
                present[:, column] = present[:, column_of[word]]
    pairs = [(j, w) for j, w in enumerate(wanted) if len(w) == 2 and min(w) >= 0]
    if pairs and len(ids) > 1:
        joint = ids[:-1].astype(np.int64) * size + ids[1:]
        codes = np.array([w[0] * size + w[1] for _, w in pairs], dtype=np.int64)
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        at = np.searchsorted(sorted_codes, joint)
        at[at == len(sorted_codes)] = 0
        hit = (sorted_codes[at] == joint) & (rows[:-1] == rows[1:])
        columns = np.array([j for j, _ in pairs], dtype=np.int64)[order][at[hit]]
        present[rows[:-1][hit], columns] = True
        for index in range(1, len(sorted_codes)):  # the same pair named twice
            if sorted_codes[index] == sorted_codes[index - 1]:
                present[:, _column_of(pairs, order, index)] = present[
                    :, _column_of(pairs, order, index - 1)
                ]
    for column, longer in enumerate(wanted):
        span = len(ids) - len(longer) + 1
        if len(longer) < 3 or min(longer) < 0 or span <= 0:
            continue
        hit = rows[:span] == rows[len(longer) - 1 :]
        for offset, word in enumerate(longer):
            hit &= ids[offset : offset + span] == word
        present[rows[:span][hit], column] = True
    return present


def _column_of(pairs: Sequence[tuple[int, list[int]]], order: np.ndarray, index: int) -> int:
    """The column of the ``index``-th pair in code order."""
    return pairs[int(order[index])][0]
