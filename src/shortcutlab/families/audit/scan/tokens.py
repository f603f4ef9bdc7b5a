"""The audit's words, ``re.findall(r"(?u)\\w*n't|\\w+", text)`` of every text, by Arrow kernels.

Python's regular expressions read one text at a time and give one Python string per word; here
every run of characters that cannot be in a word (not a letter, digit, underscore or apostrophe)
becomes a space, an apostrophe outside ``n't`` becomes a space too, and ``n't`` closes its word
(``"xn'ty"`` reads ``xn't``, ``y``, as the pattern does), all on whole arrays. The words are the
same, in the same order, except where Arrow's Unicode tables call a character a letter or digit
that this Python's do not know (one assigned after this Python's Unicode version): texts with one
are read by ``findall`` itself (:func:`arrow_words_agree` tells).

Examples:
    >>> words(pa.array(["don't x'n'ty", "o'brien_2 -- n't"], pa.large_string())).to_pylist()
    [["don't", 'x', "n't", 'y'], ['o', 'brien_2', "n't"]]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.lexical import normalised
from shortcutlab.attributes.words import spaced_normalised

#: A word, or a word ending in n't kept whole ("don't", "can't"); single characters count.
#: :func:`words` reads exactly this pattern.
TOKEN_PATTERN = r"(?u)\w*n't|\w+"
_WORD_CHARACTER = r"[\p{L}\p{N}_]"
_NOT_IN_WORD = r"[^\p{L}\p{N}_']+"
# A character no text holds once every character outside words became a space.
_MARK = "\x01"


def words(texts: pa.Array) -> pa.ListArray:
    """Per text, its words as the token pattern's ``findall`` gives them (a list array)."""
    spaced = _outside_words_spaced(texts)
    spaced = pc.replace_substring(spaced, "n't", f"n{_MARK}t ")
    spaced = pc.replace_substring(spaced, "'", " ")
    spaced = pc.replace_substring(spaced, _MARK, "'")
    # Every character outside words is a space by now, so an ASCII whitespace split is the
    # split (a longer UTF-8 character holds no ASCII byte), and faster than the Unicode one.
    return pc.ascii_split_whitespace(pc.utf8_trim(spaced, " "))


def _outside_words_spaced(texts: pa.Array) -> pa.Array:
    """``texts`` with the characters that cannot be in a word made spaces (runs of them, or each
    one: the words split at any whitespace run read the same). ASCII characters are mapped a
    byte at a time on the whole buffer (an ASCII byte is never part of a longer UTF-8 character):
    RE2's replacement of every run cost 2/3 of the token scan. Texts with other characters then
    take RE2's replacement too."""
    if texts.null_count or not pa.types.is_large_string(texts.type):
        return pc.replace_substring_regex(texts, _NOT_IN_WORD, " ")
    _, offset_buffer, data_buffer = texts.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int64)[
        texts.offset : texts.offset + len(texts) + 1
    ]
    first, last = int(offsets[0]), int(offsets[-1])
    data = np.frombuffer(data_buffer, dtype=np.uint8)[first:last] if last > first else _NO_BYTES
    spaced = pa.LargeStringArray.from_buffers(
        len(texts),
        pa.py_buffer(offsets - first),
        pa.py_buffer(data.tobytes().translate(_ASCII_SPACED)),
    )
    wide = pc.invert(pc.string_is_ascii(texts))
    if pc.any(wide).as_py():
        fixed = pc.replace_substring_regex(pc.filter(spaced, wide), _NOT_IN_WORD, " ")
        spaced = pc.replace_with_mask(spaced, wide, fixed)
    return spaced


def _ascii_spaced() -> bytes:
    """A ``bytes.translate`` table: itself for an ASCII word character or apostrophe and for
    every byte of a longer character (>= 0x80), a space for any other ASCII character."""
    keep = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'")
    return bytes(byte if byte in keep or byte >= 128 else ord(" ") for byte in range(256))


_ASCII_SPACED = _ascii_spaced()
_NO_BYTES = np.zeros(0, dtype=np.uint8)


def findall_words(texts: pa.Array, token_pattern: str = TOKEN_PATTERN) -> pa.ListArray:
    """Per text, ``re.findall(token_pattern, text)`` by Python (what :func:`words` reads where
    :func:`arrow_words_agree` says it cannot)."""
    pattern = re.compile(token_pattern)
    found = [pattern.findall(text) for text in texts.to_pylist()]
    return pa.array(found, pa.list_(pa.large_string()))


def arrow_words_agree(texts: pa.Array) -> bool:
    """Whether every character of ``texts`` that Arrow's regular expressions take for a word
    character is one for Python's too (only characters outside ASCII can differ)."""
    wide = pc.filter(texts, pc.invert(pc.string_is_ascii(texts)))
    if len(wide) == 0:
        return True
    characters = sorted(set("".join(wide.to_pylist())))
    python = [re.fullmatch(r"(?u)\w", character) is not None for character in characters]
    arrow = pc.match_substring_regex(
        pa.array(characters, pa.large_string()), f"^{_WORD_CHARACTER}$"
    ).to_pylist()
    return python == arrow


def spaced_from_words(found: pa.ListArray, normalised_texts: pa.Array) -> pa.Array:
    """:func:`~shortcutlab.attributes.words.spaced_normalised` of ``normalised_texts``, from
    ``found``, their :func:`words` after their clitics were cut (as the token scan reads them).

    Where a text holds no "_", both read the same words, the runs of letters and digits once the
    clitics are cut, except the words ending in "n't", which the spaced form drops: its spaced
    form is its other words joined by two spaces, with one around, no regular expression to run.
    The texts with a "_" (which parts words there) or an "n't'" (where dropping the n't word
    first lets a clitic after it stay a word) take the regular expressions' way.
    """
    space = pa.scalar(" ", pa.large_string())
    joined = pc.binary_join(_without_negations(found), pa.scalar("  ", pa.large_string()))
    spaced = pc.binary_join_element_wise(space, joined, space, pa.scalar("", pa.large_string()))
    differ = pc.or_(
        pc.match_substring(normalised_texts, "n't'"), pc.match_substring(normalised_texts, "_")
    )
    if pc.any(differ).as_py():
        fallback = spaced_normalised(pc.filter(normalised_texts, differ))
        spaced = pc.replace_with_mask(spaced, differ, fallback)
    return spaced


def _without_negations(found: pa.ListArray) -> pa.ListArray:
    """Each text's words less those ending in "n't" (the spaced form drops them) and the
    :data:`CLITIC_BREAK` marks."""
    flat = pc.list_flatten(found)
    negation = pc.or_(pc.ends_with(flat, "n't"), pc.equal(flat, CLITIC_BREAK))
    if not pc.any(negation).as_py():
        return found
    keep = pc.invert(negation)
    parents = pc.filter(pc.list_parent_indices(found), keep).to_numpy(zero_copy_only=False)
    offsets = np.zeros(len(found) + 1, dtype=np.int32)
    np.cumsum(np.bincount(parents, minlength=len(found)), out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), pc.filter(flat, keep))


# English clitics other than n't are cut off their word ("film's" -> "film"), as attributes/words does.
_CLITIC = r"([\p{L}\p{N}])'(s|m|re|ve|ll|d)([^\p{L}\p{N}]|$)"
#: The word a cut clitic leaves in its place, so no n-gram spans it ("i'm glad" makes no "i glad"):
#: upper case, which no lower-cased text holds. The scan keeps it out of the vocabulary.
CLITIC_BREAK = "X"


def token_texts(texts: Sequence[str]) -> list[str]:
    """Texts as the vectorizer reads them: lower case, straight apostrophes, ``do n't`` joined,
    clitics other than n't cut off (a :data:`CLITIC_BREAK` in their place).

    Examples:
        >>> token_texts(["I do n't think it’s NOT fine"])
        ["i don't think it X  not fine"]
    """
    return token_text_array(texts).to_pylist()


def token_text_array(texts: Sequence[str]) -> pa.Array:
    """:func:`token_texts` as an Arrow array."""
    return clitics_cut(normalised(texts))


def clitics_cut(normalised_texts: pa.Array) -> pa.Array:
    return pc.replace_substring_regex(normalised_texts, _CLITIC, rf"\1 {CLITIC_BREAK} \3")
