"""The scan's word indicators of one part, fitted on the training rows a slice at a time from
the token scan's words: the words and n-grams, the frequent-words annotator's words and the word
lists. The token fitter keeps every row's word ids, so the other two read its counts and ids
instead of splitting a second view of the texts, and the columns read after the scan are found
without tokenising again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from shortcutlab.attributes.words import spaced_phrases, word_presence
from shortcutlab.families.audit.scan.indicator_counts import IndicatorCounts
from shortcutlab.families.audit.scan.indicator_fitters import Block
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.lexicons import LexiconMatcher, PhraseTrie
from shortcutlab.families.audit.scan.text_slices import TextSlice, read_rows
from shortcutlab.families.audit.scan.tokens import CLITIC_BREAK, TOKEN_PATTERN, token_texts
from shortcutlab.families.audit.scan.vocabulary import NgramTally, WordTally, id_phrase_presence


class TokenFitter:
    """Words and n-grams (:class:`~shortcutlab.families.audit.scan.vocabulary.NgramTally`)."""

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
        spaced = pc.utf8_split_whitespace(piece.irregular_spaced)
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


class LexiconFitter:
    """One indicator per word list: the row holds one of its phrases as whole words of the
    spaced view. On most rows the spaced words are the row's tokens less the "n't" words and the
    clitic breaks (:attr:`TextSlice.irregular` tells the others), so the lists are matched on the
    token scan's word ids (:class:`~shortcutlab.families.audit.scan.lexicons.PhraseTrie`); the other
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
        found = self._listed(
            self.trie,
            self.matcher,
            ids,
            rows,
            piece.irregular,
            len(piece.texts),
            lambda: piece.irregular_spaced,
        )
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

            def spaced() -> pa.Array:
                return piece.subset(np.flatnonzero(odd)).spaced

            return self._listed(trie, lists, ids, rows, odd, len(piece.texts), spaced)

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
        texts: int,
        odd_spaced: Callable[[], pa.Array],
    ) -> np.ndarray:
        """(``texts`` rows of a slice, lists): the regular rows' matches on their word ids, the
        irregular ones' on their spaced texts (``odd_spaced()``)."""
        words = self.tokens.words.words
        if len(self.dropped) < len(words):  # the words not in the spaced view, as they come
            more = [w.endswith("n't") or w == CLITIC_BREAK for w in words[len(self.dropped) :]]
            self.dropped = np.concatenate([self.dropped, np.array(more, dtype=bool)])
        keep = ~self.dropped[ids] & ~irregular[rows]
        found = trie.matrix(ids[keep], rows[keep], texts)
        odd = np.flatnonzero(irregular)
        if len(odd):
            found[odd] = lists.matrix(odd_spaced())
        return found
