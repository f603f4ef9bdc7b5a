"""Texts as runs of words, for whole-word counting by plain substring search (Arrow kernels).

The frequent-words annotator and the concept keywords share this view. A text is normalised as
the negation annotator does it (lower case, straight apostrophes, ``do n't`` joined), its ``n't``
words are dropped (negations belong to NBS, and "ca n't" would otherwise leave the piece "ca"),
English clitics are cut off their word ("film's" counts as "film", "i'm" as "i"), and every run of
characters that are not letters or digits becomes a separator. Each word then sits between single
spaces, ``" the  film  was  fun "``, so a whole word is the substring ``" film "`` and two
neighbouring matches never share a space.

Examples:
    >>> spaced_words(["The film's plot -- it doesn't WORK!"]).to_pylist()
    [' the  film  plot  it  work ']
    >>> spaced_phrases(["Sci-Fi", "--"])
    [' sci  fi ', '']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.lexical import normalised

_NOT_WORD = r"[\p{L}\p{N}]*n't"
# The English clitics after a word; "o'brien" keeps both its parts as words.
_CLITIC = r"([\p{L}\p{N}])'(s|m|re|ve|ll|d)([^\p{L}\p{N}]|$)"
_SEPARATORS = r"[^\p{L}\p{N}]+"
#: Texts whose words are counted at once.
_SLICE = 65_536


def spaced_words(texts: Sequence[str] | pa.Array) -> pa.Array:
    """Each text as its words, each word between single spaces (see the module docstring)."""
    return spaced_normalised(normalised(texts))


def spaced_normalised(array: pa.Array) -> pa.Array:
    """:func:`spaced_words` of texts already :func:`~shortcutlab.attributes.lexical.normalised`."""
    array = pc.replace_substring_regex(array, _NOT_WORD, " ")
    array = pc.replace_substring_regex(array, _CLITIC, r"\1 \3")
    array = pc.utf8_trim(pc.replace_substring_regex(array, _SEPARATORS, "  "), " ")
    space = pa.scalar(" ", pa.large_string())
    return pc.binary_join_element_wise(space, array, space, pa.scalar("", pa.large_string()))


def spaced_phrases(phrases: Sequence[str]) -> list[str]:
    """Phrases (keywords, a user's words) in the same form, in one pass; "" for one with no word."""
    spaced = spaced_words(list(phrases)).to_pylist()
    return [text if text.strip() else "" for text in spaced]


class SplitWords:
    """The words of spaced texts (from :func:`spaced_words`), split once, in slices of rows (the
    split of all rows at once would hold every word's copy: peak memory): per slice, its distinct
    words in the order they first occur, each word's number and its row. Counting the words and
    finding given words both read this one split."""

    def __init__(self, spaced: pa.Array) -> None:
        self._slices: list[tuple[pa.Array, np.ndarray, np.ndarray]] = []
        for start in range(0, len(spaced), _SLICE):
            # Words hold no whitespace, so splitting at whitespace runs gives them without the
            # empty pieces a split at single spaces leaves between "  " (and ~25% faster).
            split = pc.utf8_split_whitespace(spaced[start : start + _SLICE])
            encoded = pc.dictionary_encode(pc.list_flatten(split).cast(pa.large_string()))
            rows = pc.list_parent_indices(split).to_numpy(zero_copy_only=False) + start
            codes = encoded.indices.to_numpy(zero_copy_only=False)
            self._slices.append((encoded.dictionary, codes, rows))
        self._rows = len(spaced)

    def counts(self) -> dict[str, int]:
        """Occurrences of every word, in the order the words first occur."""
        if not self._slices:
            return {}
        counted = pa.table(
            {
                "values": pa.concat_arrays([words for words, _, _ in self._slices]),
                "counts": np.concatenate(
                    [np.bincount(codes, minlength=len(words)) for words, codes, _ in self._slices]
                ).astype(np.int64),
            }
        )
        # Summed per word in the order of first occurrence (a single-threaded group_by keeps it).
        summed = counted.group_by("values", use_threads=False).aggregate([("counts", "sum")])
        return dict(
            zip(summed["values"].to_pylist(), summed["counts_sum"].to_pylist(), strict=True)
        )

    def presence(self, words: Sequence[str]) -> np.ndarray:
        """Per text (rows) and word (columns, single words as :func:`spaced_phrases` strips
        them): whether the text holds it."""
        present = np.zeros((self._rows, len(words)), dtype=bool)
        if not words:
            return present
        wanted = pa.array(list(words), pa.large_string())
        for dictionary, codes, rows in self._slices:
            column_of = pc.index_in(dictionary, value_set=wanted).fill_null(-1)
            column = column_of.to_numpy(zero_copy_only=False)[codes]
            found = column >= 0
            present[rows[found], column[found]] = True
        return present


def word_counts(spaced: pa.Array) -> dict[str, int]:
    """Occurrences of every word in ``spaced`` (texts from :func:`spaced_words`), in the order
    the words first occur."""
    return SplitWords(spaced).counts()


def word_presence(spaced: pa.Array, words: Sequence[str]) -> np.ndarray:
    """Per text (rows) and word (columns, single words as :func:`spaced_phrases` strips them):
    whether ``spaced`` (texts from :func:`spaced_words`) holds it."""
    return SplitWords(spaced).presence(words)


def phrase_counts(
    spaced: pa.Array, phrases: Sequence[str], *, presence: bool = False
) -> np.ndarray:
    """Per text (rows) and spaced phrase (columns): occurrences (int64), or whether it occurs."""
    counts = np.zeros((len(spaced), len(phrases)), dtype=bool if presence else np.int64)
    kernel = pc.match_substring if presence else pc.count_substring
    for column, phrase in enumerate(phrases):
        counts[:, column] = kernel(spaced, phrase).to_numpy(zero_copy_only=False)
    return counts
