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

import pyarrow as pa
import pyarrow.compute as pc

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
    spaced = pc.replace_substring_regex(texts, _NOT_IN_WORD, " ")
    spaced = pc.replace_substring(spaced, "n't", f"n{_MARK}t ")
    spaced = pc.replace_substring(spaced, "'", " ")
    spaced = pc.replace_substring(spaced, _MARK, "'")
    return pc.utf8_split_whitespace(pc.utf8_trim(spaced, " "))


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

    Where a text holds neither "n't" nor "_", both read the same words, the runs of letters and
    digits once the clitics are cut, so its spaced form is its words joined by two spaces, with
    one around: no regular expression to run. The other texts (an n't word is dropped there, and
    "_" parts words) take the regular expressions' way.
    """
    space = pa.scalar(" ", pa.large_string())
    joined = pc.binary_join(found, pa.scalar("  ", pa.large_string()))
    spaced = pc.binary_join_element_wise(space, joined, space, pa.scalar("", pa.large_string()))
    differ = pc.or_(
        pc.match_substring(normalised_texts, "n't"), pc.match_substring(normalised_texts, "_")
    )
    if pc.any(differ).as_py():
        fallback = spaced_normalised(pc.filter(normalised_texts, differ))
        spaced = pc.replace_with_mask(spaced, differ, fallback)
    return spaced
