"""The Arrow word split reads the same words as the token pattern's findall."""

from __future__ import annotations

import re

import pyarrow as pa

from shortcutlab.attributes.lexical import normalised
from shortcutlab.attributes.words import spaced_normalised
from shortcutlab.families.audit.scan.tokens import (
    TOKEN_PATTERN,
    arrow_words_agree,
    clitics_cut,
    spaced_from_words,
    words,
)

TEXTS = [
    "",
    "   ",
    "don't x'n'ty nn't n'tn't 'n't can'tx",
    "o'brien_2 -- n't!",
    "é 日本 ² x_1\tnew\nline \x01mark\x01",
    "it  's   'quoted'  ''  n''t",
    "emoji 😀ok",
]


def test_the_words_are_findalls():
    array = pa.array(TEXTS, pa.large_string())
    pattern = re.compile(TOKEN_PATTERN)
    found = [[word for word in row if word] for row in words(array).to_pylist()]
    assert found == [pattern.findall(text) for text in TEXTS]
    assert arrow_words_agree(array)


def test_a_character_this_python_does_not_know_is_told():
    # U+11F04 (Kawi, Unicode 15) is a letter to Arrow; to a Python before 3.12 it is unassigned.
    text = pa.array(["a \U00011f04b"], pa.large_string())
    agree = re.fullmatch(r"(?u)\w", "\U00011f04") is not None
    assert arrow_words_agree(text) == agree


def test_the_spaced_words_from_the_scan_are_the_regular_expressions():
    # n't words dropped, a clitic after one ("don't's"), "_" inside words, words around n't.
    texts = TEXTS + [
        "don't's fine",
        "x'sn't isn't've it'sn't o'n't",
        "foo_bar don't",
        "abn'tcdn't xn'ty can't won't",
        "the film's plot -- it doesn't work",
    ]
    normalised_texts = normalised(pa.array(texts, pa.large_string()))
    found = words(clitics_cut(normalised_texts))
    made = spaced_from_words(found, normalised_texts).to_pylist()
    assert made == spaced_normalised(normalised_texts).to_pylist()
