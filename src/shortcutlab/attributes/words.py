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


def word_counts(spaced: pa.Array) -> dict[str, int]:
    """Occurrences of every word in ``spaced`` (texts from :func:`spaced_words`), in the order
    the words first occur."""
    # Words hold no whitespace, so splitting at whitespace runs gives them without the empty
    # pieces a split at single spaces leaves between "  " (and ~25% faster). In slices of rows:
    # the split of all rows at once would hold every word's copy (peak memory).
    slices = [
        pc.value_counts(pc.list_flatten(pc.utf8_split_whitespace(spaced[start : start + _SLICE])))
        for start in range(0, len(spaced), _SLICE)
    ]
    if not slices:
        return {}
    counted = pa.Table.from_struct_array(pa.concat_arrays(slices))
    # Summed per word in the order of first occurrence (a single-threaded group_by keeps it).
    summed = counted.group_by("values", use_threads=False).aggregate([("counts", "sum")])
    return dict(zip(summed["values"].to_pylist(), summed["counts_sum"].to_pylist(), strict=True))


def phrase_counts(
    spaced: pa.Array, phrases: Sequence[str], *, presence: bool = False
) -> np.ndarray:
    """Per text (rows) and spaced phrase (columns): occurrences (int64), or whether it occurs."""
    counts = np.zeros((len(spaced), len(phrases)), dtype=bool if presence else np.int64)
    kernel = pc.match_substring if presence else pc.count_substring
    for column, phrase in enumerate(phrases):
        counts[:, column] = kernel(spaced, phrase).to_numpy(zero_copy_only=False)
    return counts
