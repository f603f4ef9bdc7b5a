"""The scan's indicators of one part, fitted on the training rows a slice at a time.

A fitter counts what it needs as the slices pass (:meth:`~TokenFitter.add`: the n-grams' counts,
the spaced words' occurrences, the surface measures), then fixes its indicators' names and their
counts (:meth:`~TokenFitter.finish`). Each gives the plan a :class:`Block`: how to build its
indicators for any other table, and how to read chosen ones of the training rows again (the
examples of the top candidates, a model's measurement) without having held them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from shortcutlab.attributes import Attribute
from shortcutlab.attributes.words import spaced_phrases, word_presence
from shortcutlab.families.audit.indicator_counts import IndicatorCounts, row_weights
from shortcutlab.families.audit.inputs import AuditInputs
from shortcutlab.families.audit.lexicons import LexiconMatcher, PhraseTrie
from shortcutlab.families.audit.surface import (
    PRESENCE,
    fit_surface,
    presence_indicators,
    surface_measures,
)
from shortcutlab.families.audit.syllables import SyllableCounter
from shortcutlab.families.audit.text_slices import SLICE_ROWS, TextSlice, read_rows
from shortcutlab.families.audit.tokens import CLITIC_BREAK, TOKEN_PATTERN, token_texts
from shortcutlab.families.audit.vocabulary import NgramTally, WordTally, id_phrase_presence

#: Annotators that read the texts as one Arrow array, and whose value of a row depends on that
#: row alone: annotated a slice at a time.
ARROW_ATTRIBUTES = ("negation", "question")


@dataclass
class Block:
    """Indicators of one family for one part: names as fitted, and the columns kept.

    ``build`` gives any table's indicators (rows × names); ``read`` a slice of the training
    rows' columns at the given name indices (slice rows × chosen), from what the fit kept or the
    slice's texts."""

    kind: str
    part: str
    group: Callable[[str], str] | str
    names: list[str]
    build: Callable[[AuditInputs], sp.csr_matrix | np.ndarray]
    phrases: bool = False
    kept: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    read: Callable[[TextSlice, list[int]], np.ndarray] | None = field(default=None, repr=False)


def dense_counts(
    matrix: np.ndarray, ranks: np.ndarray, n_classes: int, rows: int = SLICE_ROWS
) -> IndicatorCounts:
    """The counts of a whole table's (rows × F) boolean indicators, a slice of rows at a time."""
    counts = IndicatorCounts.empty(n_classes, matrix.shape[1])
    for start in range(0, len(matrix), rows):
        stop = min(start + rows, len(matrix))
        counts.add_dense(matrix[start:stop], ranks[start:stop], row_weights(start, stop))
    return counts.take(np.arange(matrix.shape[1]))


class TokenFitter:
    """Words and n-grams (:class:`~shortcutlab.families.audit.vocabulary.NgramTally`)."""

    def __init__(
        self, part: str, train: AuditInputs, ngram_max: int, min_support: int, most: int | None
    ) -> None:
        self.part, self.train = part, train
        self.ngram_max, self.min_support, self.most = ngram_max, min_support, most
        self.tally: NgramTally | None = NgramTally(
            ngram_max, len(train.labels), breaks=(CLITIC_BREAK,)
        )
        self.single_words: WordTally | None = None
        # Each row's words as ids (2 or 4 bytes a word), so the few token columns read after the
        # scan are found without tokenising the texts again (which cost a fifth of the audit).
        self.positions: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.last = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        self.stored = StoredWords([], [])

    def add(self, piece: TextSlice) -> None:
        assert self.tally is not None
        self.last = self.tally.add(piece.words, piece.ranks, piece.weights)
        ids, at = self.last
        narrow = len(self.tally.single.ids) <= np.iinfo(np.uint16).max + 1
        self.positions.append(ids.astype(np.uint16 if narrow else np.int32))
        self.lengths.append(np.bincount(at, minlength=len(piece.texts)).astype(np.int32))

    @property
    def words(self) -> WordTally:
        """The words numbered so far (with their counts)."""
        if self.tally is not None:
            return self.tally.single
        assert self.single_words is not None
        return self.single_words

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        assert self.tally is not None
        vocabulary, counts = self.tally.frequent(self.min_support, self.most)
        self.single_words = self.tally.single  # the frequent-words fit reads the words
        self.tally = None  # the n-grams' counts are the fit's largest state
        details["vocabulary"] = len(vocabulary)
        part, ngram_max = self.part, self.ngram_max

        def build(inputs: AuditInputs) -> sp.csr_matrix:
            rows = len(inputs)
            if not vocabulary:
                return sp.csr_matrix((rows, 0), dtype=np.int32)
            # Other tables only (a test table, held-out rows): scikit-learn loads when one is read.
            from sklearn.feature_extraction.text import CountVectorizer

            vectorizer = CountVectorizer(
                vocabulary=vocabulary,
                token_pattern=TOKEN_PATTERN,
                lowercase=False,
                binary=True,
                ngram_range=(1, ngram_max),
                dtype=np.int32,
            )
            return vectorizer.transform(token_texts(inputs.part(part)))

        self.stored = words = StoredWords(self.positions, self.lengths)
        self.positions, self.lengths = [], []
        number = self.single_words.ids

        def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
            ids, rows = words.rows(piece.start, piece.stop)
            phrases = [vocabulary[j] for j in columns]
            return id_phrase_presence(ids, rows, piece.stop - piece.start, phrases, number)

        return Block("token", part, part, vocabulary, build, phrases=True, read=read), counts


class StoredWords:
    """Every row's word ids, kept as the slices gave them (a list of arrays: no copy of all)."""

    def __init__(self, positions: list[np.ndarray], lengths: list[np.ndarray]) -> None:
        self.positions = positions
        per_row = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int32)
        self.offsets = np.zeros(len(per_row) + 1, dtype=np.int64)
        np.cumsum(per_row, out=self.offsets[1:])
        sizes = [len(ids) for ids in positions]
        self.firsts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)

    def rows(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """The word ids of rows ``start``..``stop``-1 and each one's row (from 0), in order."""
        low, high = int(self.offsets[start]), int(self.offsets[stop])
        pieces = []
        for index, ids in enumerate(self.positions):
            first = int(self.firsts[index])
            if first < high and first + len(ids) > low:
                pieces.append(ids[max(low - first, 0) : high - first])
        ids = np.concatenate(pieces).astype(np.int64) if pieces else np.zeros(0, np.int64)
        counts = np.diff(self.offsets[start : stop + 1])
        return ids, np.repeat(np.arange(stop - start), counts)


class AttributeFitter:
    """One indicator per value of a registered annotator ("negation = with_negation").

    :data:`ARROW_ATTRIBUTES` are annotated a slice at a time; any other is fitted on and
    annotated over the part's whole column, as it may depend on all rows (a concept's clusters).
    """

    def __init__(self, part: str, attribute: Attribute, train: AuditInputs) -> None:
        self.part, self.attribute, self.train = part, attribute, train
        self.streamed = attribute.name in ARROW_ATTRIBUTES
        self.coded: list[np.ndarray] = []
        self.values: dict[str, int] = {}

    def add(self, piece: TextSlice) -> None:
        if self.streamed:
            self.coded.append(self._codes(annotated(self.attribute, piece.texts, piece.columns)))

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        attribute, part, train = self.attribute, self.part, self.train
        if not self.streamed:
            texts = train.part(part)
            attribute = attribute.fitted(texts)
            self.coded = [self._codes(annotated(attribute, texts, train.columns))]
        details.setdefault("attributes", {})[attribute.name] = attribute.config()
        codes = np.concatenate(self.coded) if self.coded else np.zeros(0, dtype=np.int32)
        self.coded = []
        found = list(self.values)
        values = attribute.possible_values()
        if values is None:
            values = sorted(found)
        if len(values) == 2 and not (codes < 0).any():
            # A two-valued attribute every row has (with / without negation): the second value is
            # the first's complement, the same 2×K table and test, so it is one candidate, not two.
            values = values[:1]
        position = {value: i for i, value in enumerate(values)}
        renumber = np.array([position.get(value, -1) for value in found] + [-1], dtype=np.int32)
        codes = renumber[codes]  # a value outside ``values`` (and None, -1) is no indicator
        columns = np.array(values, dtype=object)[None, :]

        def build(inputs: AuditInputs) -> np.ndarray:
            read = inputs.array(part) if attribute.name in ARROW_ATTRIBUTES else inputs.part(part)
            return annotated(attribute, read, inputs.columns)[:, None] == columns

        def read(piece: TextSlice, chosen: list[int]) -> np.ndarray:
            here = codes[piece.start : piece.stop]
            return here[:, None] == np.asarray(chosen, dtype=np.int32)[None, :]

        every = codes[:, None] == np.arange(len(values), dtype=np.int32)[None, :]
        counts = dense_counts(every, train.ranks, len(train.labels))
        names = [f"{attribute.name} = {value}" for value in values]
        return Block("attribute", part, attribute.name, names, build, read=read), counts

    def _codes(self, values: np.ndarray) -> np.ndarray:
        """Each row's value as a number (-1: no value), values numbered as first seen."""
        local, distinct = pd.factorize(values, use_na_sentinel=True)
        known = np.array(
            [self.values.setdefault(value, len(self.values)) for value in distinct.tolist()] + [-1],
            dtype=np.int32,
        )
        return known[local]  # -1 (no value) reads the last entry, -1


def annotated(attribute: Attribute, texts: Any, columns: Mapping[str, Any]) -> np.ndarray:
    """The attribute's value of each text as a string (None: no value)."""
    values = attribute.annotate(texts, columns).values
    return np.array([None if v is None else str(v) for v in values.tolist()], dtype=object)


class WordPresenceFitter:
    """The frequent-words annotator's words, one indicator each: the row contains the word.

    The annotator gives each row one value, the rarest pool word it holds, which is what an MPS
    build needs; as an audit candidate that value would read "honestly and no rarer frequent
    word", which points wherever the rarer words do not. Presence means what it says (and a word
    with exactly the rows of its token is folded into that token's candidate).

    The words are those of the spaced view (:mod:`shortcutlab.attributes.words`), which on most
    rows are the row's tokens less the "n't" words and the clitic breaks: their occurrences (the
    pool counts) and rows are the token scan's (``tokens``), corrected on the other rows
    (:attr:`TextSlice.irregular`), where their tokens are taken away and their spaced words added.
    """

    def __init__(self, part: str, attribute: Any, train: AuditInputs, tokens: TokenFitter) -> None:
        self.part, self.attribute, self.train, self.tokens = part, attribute, train, tokens
        n_classes = len(train.labels)
        self.irregular_tokens = WordTally(n_classes)
        self.irregular_spaced = WordTally(n_classes)

    def add(self, piece: TextSlice) -> None:
        rows = np.flatnonzero(piece.irregular)
        if not len(rows):
            return
        ranks, weights = piece.ranks[rows], piece.weights[rows]
        taken = pa.array(rows, pa.int64())
        self.irregular_tokens.add(pc.take(piece.words, taken), ranks, weights)
        spaced = pc.utf8_split_whitespace(piece.subset(rows).spaced)
        self.irregular_spaced.add(spaced, ranks, weights)

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        part, train = self.part, self.train
        tokens = self.tokens.single_words
        if tokens is None:
            raise ValueError("the token fitter finishes first")
        # Every word of the spaced view: the tokens that can be one, and the irregular rows'.
        candidates = [w for w in tokens.ids if w and "'" not in w and w != CLITIC_BREAK]
        candidates += [w for w in self.irregular_spaced.ids if w not in tokens.ids]
        occurrences, _ = self._stats(candidates, tokens)
        pool = {w: int(n) for w, n in zip(candidates, occurrences.tolist(), strict=True) if n}
        attribute = self.attribute.fitted_to_counts(pool, len(train))
        details.setdefault("attributes", {})[attribute.name] = attribute.config()
        words = attribute.possible_values() or []
        # Single words, spelled as the spaced view spells them.
        spelled = [phrase.strip() for phrase in spaced_phrases(words)]
        _, counts = self._stats(spelled, tokens)

        def build(inputs: AuditInputs) -> np.ndarray:
            return word_presence(inputs.spaced(part), spelled)

        def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
            chosen = [spelled[j] for j in columns]
            return read_rows(
                piece, chosen, len(chosen), lambda rows: word_presence(rows.spaced, chosen)
            )

        names = [f"{attribute.name} has '{word}'" for word in words]
        return Block("attribute", part, attribute.name, names, build, read=read), counts

    def _stats(self, words: list[str], tokens: WordTally) -> tuple[np.ndarray, IndicatorCounts]:
        """The spaced words' occurrences and counts: the tokens', less the irregular rows'
        tokens, plus their spaced words (whole numbers throughout: the sums are exact)."""
        total = [
            tally.stats(words) for tally in (tokens, self.irregular_tokens, self.irregular_spaced)
        ]
        (occurrences, counts), (gone, gone_counts), (added, added_counts) = total
        return occurrences - gone + added, IndicatorCounts(
            counts.support - gone_counts.support + added_counts.support,
            counts.counts - gone_counts.counts + added_counts.counts,
            counts.prints - gone_counts.prints + added_counts.prints,
        )


class SurfaceFitter:
    """Length, sentence and readability bins (quartiles of the training rows' measures, kept
    per row until the bins are fitted), and the presence properties, counted as they pass."""

    def __init__(self, part: str, train: AuditInputs) -> None:
        self.part, self.train = part, train
        self.syllables = SyllableCounter()
        self.measures: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.presence = IndicatorCounts.empty(len(train.labels))

    def add(self, piece: TextSlice) -> None:
        self.measures.append(surface_measures(piece.texts, self.syllables))
        self.presence.add_dense(presence_indicators(piece.texts), piece.ranks, piece.weights)

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        part, train = self.part, self.train
        if not self.measures:
            self.measures.append(surface_measures(pa.array([], pa.large_string())))
        words, sentences, readability = (
            np.concatenate(v) for v in zip(*self.measures, strict=True)
        )
        measures = (words, sentences, readability)
        self.measures = []
        surface = fit_surface(measures)
        details["surface"] = surface.config()
        names, groups = surface.columns()
        bins = dense_counts(surface.bin_indicators(measures), train.ranks, len(train.labels))
        presence = self.presence.take(np.arange(len(PRESENCE)))
        counts = IndicatorCounts.joined([bins, presence], len(train.labels))
        group_of = dict(zip(names, groups, strict=True))

        def build(inputs: AuditInputs) -> np.ndarray:
            return surface.indicators(inputs.array(part))

        def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
            here = slice(piece.start, piece.stop)
            binned = surface.bin_indicators((words[here], sentences[here], readability[here]))
            out = np.zeros((len(piece.texts), len(columns)), dtype=bool)
            for i, column in enumerate(columns):
                if column < binned.shape[1]:
                    out[:, i] = binned[:, column]
                else:  # only the properties asked for are searched
                    out[:, i] = presence_indicators(piece.texts, [column - binned.shape[1]])[:, 0]
            return out

        block = Block("surface", part, group_of.__getitem__, names, build, read=read)
        return block, counts


class LexiconFitter:
    """One indicator per word list: the row holds one of its phrases as whole words of the
    spaced view. On most rows the spaced words are the row's tokens less the "n't" words and the
    clitic breaks (:attr:`TextSlice.irregular` tells the others), so the lists are matched on the
    token scan's word ids (:class:`~shortcutlab.families.audit.lexicons.PhraseTrie`); the other
    rows' spaced texts are searched."""

    def __init__(
        self, part: str, matcher: LexiconMatcher, train: AuditInputs, tokens: TokenFitter
    ) -> None:
        self.part, self.matcher, self.tokens = part, matcher, tokens
        phrases = [
            [phrase.split() for phrase in spaced_phrases(matcher.entries[name]) if phrase]
            for name in matcher.names
        ]
        assert tokens.tally is not None
        ids = iter(tokens.tally.number([w for found in phrases for p in found for w in p]))
        self.phrases = [[[next(ids) for _ in p] for p in found] for found in phrases]
        self.trie = PhraseTrie(self.phrases)
        self.irregular: list[np.ndarray] = []
        self.dropped = np.zeros(0, dtype=bool)
        self.counts = IndicatorCounts.empty(len(train.labels), len(matcher.names))

    def add(self, piece: TextSlice) -> None:
        ids, rows = self.tokens.last
        self.irregular.append(piece.irregular)
        found = self._listed(self.trie, self.matcher, ids, rows, piece.irregular, piece)
        self.counts.add_dense(found, piece.ranks, piece.weights)

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        part, matcher, stored = self.part, self.matcher, self.tokens.stored
        irregular = np.concatenate(self.irregular) if self.irregular else np.zeros(0, bool)
        self.irregular = []

        def build(inputs: AuditInputs) -> np.ndarray:
            return matcher.matrix(inputs.spaced(part))

        @functools.cache
        def chosen(columns: tuple[int, ...]) -> tuple[PhraseTrie, LexiconMatcher]:
            names = [matcher.names[j] for j in columns]
            lists = LexiconMatcher({name: matcher.entries[name] for name in names})
            return PhraseTrie([self.phrases[j] for j in columns]), lists

        def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
            trie, lists = chosen(tuple(columns))
            ids, rows = stored.rows(piece.start, piece.stop)
            odd = irregular[piece.start : piece.stop]
            return self._listed(trie, lists, ids, rows, odd, piece)

        names = [f"lexicon = {name}" for name in matcher.names]
        counts = self.counts.take(np.arange(len(names)))
        return Block("lexicon", part, "lexicon", names, build, read=read), counts

    def _listed(
        self,
        trie: PhraseTrie,
        lists: LexiconMatcher,
        ids: np.ndarray,
        rows: np.ndarray,
        irregular: np.ndarray,
        piece: TextSlice,
    ) -> np.ndarray:
        """(slice rows, lists): the regular rows' matches on their word ids, the others' on
        their spaced texts."""
        words = self.tokens.words.words
        if len(self.dropped) < len(words):  # the words not in the spaced view, as they come
            more = [w.endswith("n't") or w == CLITIC_BREAK for w in words[len(self.dropped) :]]
            self.dropped = np.concatenate([self.dropped, np.array(more, dtype=bool)])
        keep = ~self.dropped[ids] & ~irregular[rows]
        found = trie.matrix(ids[keep], rows[keep], len(piece.texts))
        odd = np.flatnonzero(irregular)
        if len(odd):
            found[odd] = lists.matrix(piece.subset(odd).spaced)
        return found


#: What the fit of one part holds while the slices pass.
Fitter = TokenFitter | AttributeFitter | WordPresenceFitter | SurfaceFitter | LexiconFitter


def rows_reader(
    build: Callable[[AuditInputs], np.ndarray], train: AuditInputs
) -> Callable[[TextSlice, list[int]], np.ndarray]:
    """A block's ``read`` that builds the slice's rows again (metadata: the user's columns)."""

    def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
        return np.asarray(build(train.rows(piece.start, piece.stop)), dtype=bool)[:, columns]

    return read


def kept_counts(blocks: Sequence[tuple[Block, IndicatorCounts]], min_support: int) -> None:
    """Mark each block's columns with ``min_support`` training rows as kept."""
    for block, counts in blocks:
        block.kept = np.flatnonzero(counts.support >= min_support)
