"""The near-duplicate search: shingles, MinHash signatures equal to datasketch's, and the
similar rows it reports (each with its true Jaccard similarity)."""

from __future__ import annotations

import pytest
from datasketch import MinHash

from shortcutlab.families.audit.scan import near_duplicates as near_duplicates_module
from shortcutlab.families.audit.scan.near_duplicates import (
    Texts,
    minhash_signatures,
    near_duplicates,
    shingle_tables,
)
from tests.families.audit.test_leakage import LONG, filler


def test_short_texts_use_words_and_word_pairs() -> None:
    (shingles,) = shingle_tables(Texts(["The cat sat down", "one two three four five"]))
    assert [sorted(s) for s in shingles.sets()] == [
        ["cat", "cat sat", "down", "sat", "sat down", "the", "the cat"],
        ["one two three", "three four five", "two three four"],
    ]


def test_negations_stay_words_of_their_own() -> None:
    (shingles,) = shingle_tables(Texts(["it doesn't work"]))
    assert "doesn't" in shingles.sets()[0]


def test_signatures_equal_datasketch_minhash_across_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        near_duplicates_module, "_BATCH_SHINGLES", 7
    )  # many batches, rows across edges
    texts = ["", "a b", LONG, *filler(30), "x y z w v u t s r q"]
    (shingles,) = shingle_tables(Texts(texts))
    signatures = minhash_signatures(shingles, num_perm=32, seed=5)
    for row, words in enumerate(shingles.sets()):
        expected = MinHash(num_perm=32, seed=5)
        expected.update_batch([w.encode("utf-8") for w in words])
        assert signatures[row].tolist() == expected.hashvalues.tolist()


def test_every_reported_row_reaches_the_threshold_with_its_true_similarity() -> None:
    words = LONG.split()
    n = len(words) - 2  # 3-shingles per text
    changed = " ".join(words[:-1] + ["autumn"])  # the last word: one of n shingles differs
    reference = Texts([*filler(10), LONG, "nothing of the kind here at all"])
    found = near_duplicates(reference, Texts(["unrelated words only", changed, LONG]))
    assert found == {1: [(10, (n - 1) / (n + 1))], 2: [(10, 1.0)]}
    assert near_duplicates(reference, Texts([changed, LONG]), skip_queries={1}) == {
        0: [(10, (n - 1) / (n + 1))]
    }


def test_pairs_compare_both_parts() -> None:
    reference = Texts([LONG], [LONG])
    other_pair = Texts(
        [LONG, LONG], [LONG, "a hypothesis about something else entirely, with words"]
    )
    assert near_duplicates(reference, other_pair) == {0: [(0, 1.0)]}
