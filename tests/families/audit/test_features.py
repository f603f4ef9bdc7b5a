"""Indicators fitted on the training rows: tokens (negations whole), attributes, surface bins,
lexicons and metadata, applied unchanged to other tables."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.audit.scan import text_slices
from shortcutlab.families.audit.scan.features import FeatureConfig, fit_features
from tests.families.audit.tables import table

PREMISES = ["A man is sleeping on the couch.", "The dog runs in a park."] * 10
HYPOTHESES = [
    "Nobody is not sleeping.",
    "The dog does n't run.",
    "The dog doesn't run, never.",
    "Nothing happens and no dog runs.",
    "A man can't sleep.",
] * 4


def _row(features, name: str) -> list[int]:
    """A feature's column: of a table's matrix, or read again from the scanned rows."""
    return features.column(features.keys[features.names.index(name)]).astype(int).tolist()


def test_pairs_name_both_parts_and_keep_negation_words_whole():
    train = table(PREMISES, ["e", "c"] * 10, pairs=HYPOTHESES)
    plan, features = fit_features(train, FeatureConfig(min_support=2, surface=False))
    names = set(features.names)
    for word in ("not", "doesn't", "can't", "never", "nothing", "nobody", "no", "a"):
        assert f"text_pair: {word}" in names, word
    assert "text_pair: n't" not in names and "text_pair: does" not in names
    # "does n't" (tokenised) and "doesn't" are the same token: 8 rows of 20.
    assert sum(_row(features, "text_pair: doesn't")) == 8
    assert "text: sleeping" in names and "text: a man" in names
    assert "text_pair: negation = with_negation" in names
    j = features.names.index("text_pair: dog runs")
    assert (features.kinds[j], features.parts[j], features.phrases[j]) == (
        "ngram",
        "text_pair",
        "dog runs",
    )
    assert features.keys[j] == "ngram:text_pair:dog runs"
    assert json.loads(json.dumps(plan.config()))["paired"] is True


def test_ngrams_are_made_of_adjacent_words_only():
    """A cut clitic leaves a break: "I'm glad" makes no "i glad", on training or test rows."""
    texts = ["I'm glad you came", "i am glad", "She's happy now", "she is happy now"] * 5
    train = table(texts, ["pos", "neg"] * 10)
    config = FeatureConfig(min_support=2, surface=False, attributes=(), packaged_lexicons=False)
    plan, features = fit_features(train, config)
    assert "i glad" not in features.names and "she happy" not in features.names
    assert {"glad you", "i am", "am glad", "happy now", "i", "glad"} <= set(features.names)
    assert not any("X" in name for name in features.names)  # the break mark is no candidate
    test = plan.transform(table(["I'm glad", "i glad"], ["pos", "neg"], space=["neg", "pos"]))
    assert _row(test, "glad") == [1, 1] and _row(test, "i") == [1, 1]


def test_min_support_and_max_features_cut_the_vocabulary_on_training_rows():
    texts = ["alpha beta"] * 5 + ["alpha gamma"] * 3 + ["delta"]
    _, features = fit_features(
        table(texts, [0] * 9),
        FeatureConfig(
            min_support=3, ngram_max=1, attributes=(), surface=False, packaged_lexicons=False
        ),
    )
    assert features.names == ["alpha", "beta", "gamma"]
    _, top = fit_features(
        table(texts, [0] * 9),
        FeatureConfig(
            min_support=3,
            ngram_max=1,
            max_features=2,
            attributes=(),
            surface=False,
            packaged_lexicons=False,
        ),
    )
    assert top.names == ["alpha", "beta"]


def test_surface_bins_on_test_rows_use_the_training_edges():
    train_texts = [" ".join(["word"] * n) for n in range(1, 101)]
    train = table(train_texts, [0, 1] * 50)
    config = FeatureConfig(min_support=1, attributes=(), packaged_lexicons=False, ngram_max=1)
    plan, features = fit_features(train, config)
    lengths = [name for name in features.names if name.startswith("length = ")]
    assert lengths == [
        "length = 1–25 words",
        "length = 26–50 words",
        "length = 51–75 words",
        "length = 76–100 words",
    ]
    test = table(
        ["word word word", " ".join(["word"] * 500), " ".join(["word"] * 60)],
        [0, 1, 0],
        space=(0, 1),
    )
    applied = plan.transform(test)
    assert applied.names == features.names
    assert _row(applied, "length = 1–25 words") == [1, 0, 0]
    assert _row(applied, "length = 76–100 words") == [0, 1, 0]
    assert _row(applied, "length = 51–75 words") == [0, 0, 1]
    assert plan.config()["parts"]["text"]["surface"]["length"]["edges"] == [25.0, 50.0, 75.0]


def test_surface_presence_properties_read_the_text():
    texts = ["WOW that is great!", "see https://x.org", 'it was 3 "days"', "i guess so 😀"] * 5
    _, features = fit_features(
        table(texts, [0, 1] * 10),
        FeatureConfig(min_support=1, attributes=(), packaged_lexicons=False),
    )
    assert _row(features, "has '!'")[:4] == [1, 0, 0, 0]
    assert _row(features, "has an upper-case word")[:4] == [1, 0, 0, 0]
    assert _row(features, "has URL")[:4] == [0, 1, 0, 0]
    assert _row(features, "has digits")[:4] == [0, 0, 1, 0]
    assert _row(features, "has quotes")[:4] == [0, 0, 1, 0]
    assert _row(features, "has emoji")[:4] == [0, 0, 0, 1]
    assert _row(features, "starts lower-case")[:4] == [0, 1, 1, 1]


def test_lexicons_match_whole_phrases_packaged_and_the_users():
    texts = ["To be honest, it was fine.", "be honest", "We flew to Paris.", "honestly fine"] * 5
    lexicons = {"hedges": ["to be honest", "honestly"], "places": ["paris"]}
    _, features = fit_features(
        table(texts, [0] * 20),
        FeatureConfig(min_support=1, attributes=(), surface=False, lexicons=lexicons),
    )
    assert _row(features, "lexicon = hedges")[:4] == [1, 0, 0, 1]
    assert _row(features, "lexicon = places")[:4] == [0, 0, 1, 0]
    _, packaged = fit_features(
        table(texts, [0] * 20), FeatureConfig(min_support=1, attributes=(), surface=False)
    )
    assert _row(packaged, "lexicon = candour-markers")[:4] == [1, 0, 0, 1]


def test_metadata_values_and_numeric_bins():
    rng = np.random.default_rng(0)
    source = ["forum", "news", None, "forum"] * 10
    score = rng.permutation(np.arange(40)).tolist()
    train = table(["x"] * 40, [0, 1] * 20, columns={"source": source, "score": score})
    plan, features = fit_features(
        train,
        FeatureConfig(
            min_support=1,
            attributes=(),
            surface=False,
            packaged_lexicons=False,
            metadata=("source", "score"),
        ),
    )
    assert _row(features, "source = forum") == [1, 0, 0, 1] * 10
    assert _row(features, "source = news") == [0, 1, 0, 0] * 10
    bins = [
        name
        for name, kind in zip(features.names, features.kinds, strict=True)
        if name.startswith("score")
    ]
    assert bins == ["score = 0–9", "score = 10–19", "score = 20–29", "score = 30–39"]
    assert {features.kinds[features.names.index(n)] for n in bins} == {"metadata"}
    test = table(["x", "x"], [0, 1], columns={"source": ["blog", "news"], "score": [5, 99]})
    applied = plan.transform(test)
    assert _row(applied, "source = news") == [0, 1] and _row(applied, "score = 30–39") == [0, 1]


def test_a_missing_metadata_column_names_the_columns_there_are():
    train = table(["x"] * 4, [0, 1] * 2, columns={"topic": ["a"] * 4})
    with pytest.raises(
        DataError,
        match=r"^Metadata column 'source' is not in the table; the metadata columns there are: topic\.$",
    ):
        fit_features(train, FeatureConfig(metadata=("source",)))


def test_tables_of_another_shape_and_bad_options_are_refused():
    plan, _ = fit_features(
        table(["a b"] * 3, [0] * 3), FeatureConfig(min_support=1, attributes=(), surface=False)
    )
    with pytest.raises(DataError, match="holds pairs but the features were fitted on single texts"):
        plan.transform(table(["a b"], [0], pairs=["c"]))
    with pytest.raises(
        ConfigError, match="'min_support' parameter of audit must be a positive integer. Got 0"
    ):
        FeatureConfig(min_support=0)


def test_features_are_the_same_for_the_same_rows():
    texts = [f"row {i % 7} says {'not ' if i % 3 else ''}much!" for i in range(60)]
    first = fit_features(table(texts, [i % 2 for i in range(60)]), FeatureConfig(min_support=2))[1]
    second = fit_features(table(texts, [i % 2 for i in range(60)]), FeatureConfig(min_support=2))[1]
    assert first.keys == second.keys
    np.testing.assert_array_equal(first.counts.counts, second.counts.counts)
    np.testing.assert_array_equal(first.counts.prints, second.counts.prints)


@pytest.mark.parametrize("pairs", [False, True])
def test_the_scanned_rows_counts_and_columns_are_those_of_the_plans_matrix(monkeypatch, pairs):
    """The scan counts its rows a slice at a time and keeps no matrix: its counts, and the
    columns it reads again, are those of the matrix the plan builds for the same rows."""
    monkeypatch.setattr(text_slices, "SLICE_ROWS", 37)  # many slices, a short last one
    rng = np.random.default_rng(1)
    # Rows whose spaced words are not their tokens ("x_1", "don't's").
    words = ["not", "don't", "don't's", "honestly", "I'm", "film's", "x_1", "café", "fine", "WOW"]
    words += ["?", "!", "1997", "to", "be", "fair", "honest", "frankly"]
    texts = [" ".join(rng.choice(words, size=rng.integers(1, 9))) for _ in range(300)]
    # A word the spaced view drops leaves its neighbours adjacent; a raw "X" is no break.
    texts[:4] = ["to be don't fair", "be fair's day", "so be don't fair", "be X fair"]
    # A letter only Arrow knows (U+11F04 before Python 3.12): its slice is read by findall.
    texts[200] = "to be fair a\U00011f04b honestly"
    seconds = [" ".join(rng.choice(words, size=3)) for _ in range(300)] if pairs else None
    source = rng.choice(["a", "b", None], size=300).tolist()
    labels = rng.integers(3, size=300).tolist()
    train = table(texts, labels, pairs=seconds, columns={"source": source})
    config = FeatureConfig(
        min_support=1,  # every feature is kept, so a miscount shows in the matrix
        # Phrases across a dropped word ("to be don't fair" has "be fair" in the spaced view).
        lexicons={"hedges": ["honestly", "to be fair"], "fair": ["be fair"]},
        metadata=("source",),
    )
    plan, features = fit_features(train, config)
    matrix = plan.transform(train).matrix.toarray().astype(bool)
    assert features.matrix is None and matrix.shape == (300, len(features.keys))
    np.testing.assert_array_equal(features.counts.support, matrix.sum(axis=0))
    by_label = np.eye(3, dtype=np.int64)[train.ranks]
    np.testing.assert_array_equal(features.counts.counts, matrix.T.astype(np.int64) @ by_label)
    read = features.columns(features.keys)
    np.testing.assert_array_equal(np.column_stack([read[k] for k in features.keys]), matrix)
    # The first rows alone, and "any of" a group's features from a row inside a slice on.
    np.testing.assert_array_equal(features.block(features.keys[:9], rows=50), matrix[:50, :9])
    groups = [features.keys[:5], features.keys[3:12], features.keys[-4:]]
    where = {key: j for j, key in enumerate(features.keys)}
    expected = np.column_stack(
        [matrix[:, [where[k] for k in group]].any(axis=1) for group in groups]
    )
    np.testing.assert_array_equal(features.any_of(groups, start=50), expected[50:])
    np.testing.assert_array_equal(features.any_of(groups), expected)


def test_a_vocabulary_past_two_byte_ids_reads_its_last_words_rows():
    """The scan keeps each row's word ids in two bytes while the words fit, then in four."""
    texts = [f"w{i} common" for i in range(70_000)] + ["w69999 w5 common"]
    config = FeatureConfig(
        min_support=1, ngram_max=1, attributes=(), surface=False, packaged_lexicons=False
    )
    _, features = fit_features(table(texts, [i % 2 for i in range(70_001)]), config)
    assert _row(features, "w69999")[-3:] == [0, 1, 1] and sum(_row(features, "w69999")) == 2
    assert _row(features, "w5")[:7] == [0, 0, 0, 0, 0, 1, 0] and sum(_row(features, "w5")) == 2
