import pytest

from shortcutlab.shortcuts.occurrence import PAPER_SYNONYMS
from shortcutlab.shortcuts.phrases import (
    PhraseRemover,
    WordCounter,
    is_marker,
    needles,
    parse_phrase,
)

SYNONYMS = [parse_phrase(p) for p in PAPER_SYNONYMS]
REMOVE = PhraseRemover(SYNONYMS)
COUNT = WordCounter(SYNONYMS)


def test_parse_phrase_splits_words_and_joints():
    phrase = parse_phrase("If I\u2019m being  honest")
    assert phrase.words == ("if", "i", "m", "being", "honest")
    assert phrase.joints == ("space", "apostrophe", "space", "space")
    assert not phrase.everywhere and parse_phrase("honestly").everywhere
    assert parse_phrase("well-known").joints == ("hyphen",)
    assert parse_phrase("e-mail!") is None and parse_phrase("to, be") is None


def test_needles_cover_every_phrase_with_the_fewest_words():
    assert needles(SYNONYMS) == [
        "candidly", "clean", "direct", "frank", "honest", "plain", "speaking", "truth"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("before", "after", "at_start", "at_end", "marker"),
    [
        ("", ", ", True, False, True),  # "In truth, ..."
        (". ", " ", False, False, True),  # "... fine. In truth it ..."
        ('." ', ", ", False, False, True),
        ("\n", " ", False, False, True),
        (' "', " ", False, False, False),  # '... said "in truth" ...' is a quotation
        (", ", ", ", False, False, True),  # "Well, to be frank, no."
        (", ", ".", False, False, True),  # "It was fine, to be honest."
        (", ", "", False, True, True),
        (" (", ") ", False, False, True),
        (" \u2014 ", " \u2014 ", False, False, True),
        (" - ", " - ", False, False, True),
        (" ", " ", False, False, False),  # "I believe in truth and justice."
        (", ", " ", False, False, False),  # "Yes, in truth we can" is not set off
        (" ", ".", False, False, False),  # "... force her to be honest."
        ("-", "-", False, False, False),  # "a not-in truth-based claim"
    ],
)
def test_is_marker(before, after, at_start, at_end, marker):
    assert is_marker(before, after, at_start=at_start, at_end=at_end) is marker


@pytest.mark.parametrize(
    ("text", "expected", "removed"),
    [
        # Issue 7: ordinary uses keep their meaning.
        ("I believe in truth and justice.", "I believe in truth and justice.", 0),
        ("He had to come clean to his wife.", "He had to come clean to his wife.", 0),
        ("A family meeting might force her to be honest.", None, 0),
        # Discourse markers go.
        ("In truth, it is fine.", "It is fine.", 1),
        ("It was fine, to be honest.", "It was fine.", 1),
        ("Well, to be frank, no.", "Well, no.", 1),
        ("It was (in truth) fine.", "It was fine.", 1),
        ("If I\u2019m being  honest, no.", "No.", 1),
        ("Fine. To come clean\nI lied.", "Fine.\nI lied.", 1),
        # A one-word synonym goes wherever a tokenizer sees it, even inside a kept phrase.
        ("He was speaking candidly about it.", "He was speaking about it.", 1),
        ("Speaking candidly, no.", "No.", 1),
        ("I honestly think so", "I think so", 1),
        # A removal that makes another phrase sentence-initial removes that one too.
        ("Honestly in truth we trust.", "We trust.", 2),
    ],
)
def test_synonyms_are_removed_only_as_markers(text, expected, removed):
    assert REMOVE.remove_from(text) == (text if expected is None else expected, removed)


def test_word_counter_counts_cues_and_other_uses():
    assert COUNT("I believe in truth and justice.") == (0, 1)
    assert COUNT("To be honest, in truth it was fine") == (1, 1)  # "in truth" is not set off
    assert COUNT("Speaking candidly, no.") == (1, 0)  # one marker, the word inside it
    assert COUNT("he was speaking candidly") == (1, 1)  # the word; the phrase is no marker
    assert COUNT("dishonestly, candidly2, honestly_x") == (1, 0)


def test_a_shorter_phrase_at_the_same_start_is_still_a_cue():
    phrases = [parse_phrase("honestly"), parse_phrase("honestly speaking")]
    assert WordCounter(phrases)("yes honestly speaking yes") == (1, 1)
    assert PhraseRemover(phrases).remove_from("yes honestly speaking yes") == (
        "yes speaking yes",
        1,
    )
