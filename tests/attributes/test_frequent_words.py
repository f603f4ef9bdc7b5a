"""frequent-words (WFS): the pool's top content words, and the rarest-word rule for a row."""

from __future__ import annotations

import pytest

from shortcutlab.attributes import make_attribute
from shortcutlab.attributes.frequent_words import FrequentWords
from shortcutlab.attributes.words import phrase_counts, spaced_phrases, spaced_words, word_presence
from shortcutlab.errors import ConfigError

POOL = [
    "The film is a film about a film .",  # film x3
    "a movie , a good movie",  # movie x2, good
    "good story , good acting",  # good x2, story
    "the story is n't good",  # story, good; "n't" must not leave "is" or "n"
    "2002 was the year , 2002 ! it's not bad , not bad , nothing new .",
]


def test_the_top_k_are_content_words_by_count_with_ties_alphabetical():
    wfs = FrequentWords(k=4).fitted(POOL)
    # good 4, film 3, then bad, movie and story 2 each (alphabetical); 2002 and not are left out.
    assert wfs.words == ["good", "film", "bad", "movie"]
    assert wfs.pool_counts == {"good": 4, "film": 3, "bad": 2, "movie": 2}
    assert wfs.config()["words"] == wfs.words and wfs.possible_values() == wfs.words


def test_numbers_negations_stop_words_and_short_words_are_never_chosen():
    wfs = FrequentWords(k=50).fitted(POOL + ["ca n't stop , wo n't stop , x y z"])
    chosen = set(wfs.words)
    assert not chosen & {"2002", "not", "nothing", "the", "is", "a", "ca", "wo", "x", "s", "it"}
    assert {"bad", "year", "acting", "new", "stop"} <= chosen
    longer = FrequentWords(k=50, min_length=5).fitted(POOL)
    assert all(len(w) >= 5 for w in longer.words) and "story" in longer.words


def test_a_row_with_several_words_takes_the_rarest_in_the_pool_whatever_the_order():
    wfs = FrequentWords(words=["good", "film", "movie"]).fitted(POOL)  # 4, 3 and 2 in the pool
    texts = ["good film", "film good", "a good movie about a film", "nothing here", "FILM's end"]
    assert wfs.annotate(texts).values.tolist() == ["film", "film", "movie", None, "film"]
    details = wfs.annotate(texts).details
    assert details == {"no_word": 1, "several_words": 3}


def test_equal_pool_counts_go_to_the_earlier_word():
    wfs = FrequentWords(words=["story", "movie"]).fitted(POOL)  # both occur twice
    assert wfs.pool_counts == {"story": 2, "movie": 2}
    assert wfs.annotate(["a movie with a story"]).values.tolist() == ["story"]
    assert FrequentWords(words=["movie", "story"]).fitted(POOL).annotate(
        ["a movie with a story"]
    ).values.tolist() == ["movie"]


def test_given_words_are_kept_as_given_and_only_counted_on_the_pool():
    wfs = make_attribute("frequent-words", {"words": ["Bad", "year", "film"]}).fitted(POOL)
    assert wfs.words == ["bad", "year", "film"]
    assert wfs.pool_counts == {"bad": 2, "year": 1, "film": 3}
    assert wfs.config()["words_given"] is True
    assert wfs.annotate(["a bad film", "a film", "bad years"]).values.tolist() == [
        "bad",
        "film",
        "bad",
    ]


def test_a_test_file_is_annotated_with_the_pool_words():
    wfs = FrequentWords(k=2).fitted(POOL)  # good, film
    test = ["a movie , a movie", "a good one"]
    assert wfs.annotate(test).values.tolist() == [None, "good"]
    # Unfitted, annotate fits on the texts it is given (here the test file's own words).
    assert FrequentWords(k=1).annotate(test).values.tolist() == ["movie", None]


def test_whole_words_only():
    wfs = FrequentWords(words=["film"]).fitted(POOL)
    texts = ["films galore", "filmmaker", "a film-maker", "film.", "(film)"]
    assert wfs.annotate(texts).values.tolist() == [None, None, "film", "film", "film"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"k": 0}, "The 'k' parameter of frequent-words must be a positive integer. Got 0"),
        ({"min_length": -1}, "'min_length' parameter of frequent-words must be a positive"),
        ({"words": "film"}, "must be a non-empty list of words. Got 'film'"),
        ({"words": []}, "must be a non-empty list of words"),
        ({"words": ["sci-fi"]}, "takes single words of letters or digits; 'sci-fi' is not one"),
        ({"words": ["--"]}, "takes single words of letters or digits; '--' is not one"),
        ({"words": ["Film", "film"]}, "lists a word twice"),
        ({"stop_words": "french"}, "must be 'english', a list of words or null. Got 'french'"),
    ],
)
def test_bad_options_are_config_errors(options, message):
    with pytest.raises(ConfigError, match=message):
        make_attribute("frequent-words", options)


def test_a_pool_without_content_words_is_a_config_error():
    with pytest.raises(ConfigError, match="found no content word in 2 texts .* words=\\[...\\]"):
        FrequentWords().fitted(["the and of", "not 42"])


def test_own_stop_words_replace_the_english_list():
    wfs = FrequentWords(k=2, stop_words=["Film", "good"]).fitted(POOL)
    assert wfs.words == ["the", "bad"]  # the own list replaces the English one
    assert FrequentWords(k=1, stop_words=None, min_length=1).fitted(POOL).words == ["a"]


def test_rotten_tomatoes_top_six(rotten_tomatoes):
    """The paper's hand-picked words are comedy, film, good, like, movie, story (Table 14)."""
    wfs = FrequentWords().fitted(rotten_tomatoes["text"].tolist())
    assert wfs.words == ["film", "movie", "like", "story", "just", "good"]
    counts = wfs.annotate(rotten_tomatoes["text"].tolist()).counts()
    assert counts == {
        "film": 1224,
        "movie": 1074,
        "like": 621,
        "story": 449,
        "just": 407,
        "good": 393,
    }


def test_the_packaged_english_stop_words_are_scikit_learns():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from shortcutlab.attributes.frequent_words import english_stop_words

    assert english_stop_words() == ENGLISH_STOP_WORDS


def test_word_presence_is_the_whole_word_search():
    texts = ["The film's plot -- it doesn't WORK!", "", "filmy film_plot plot", "work work"] * 40000
    spaced = spaced_words(texts)
    words = ["film", "plot", "work", "absent"]
    expected = phrase_counts(spaced, spaced_phrases(words), presence=True)
    assert word_presence(spaced, words).tolist() == expected.tolist()
