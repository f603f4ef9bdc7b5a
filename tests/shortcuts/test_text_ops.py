import numpy as np
import pytest

from shortcutlab.shortcuts.text_ops import (
    PatternRemover,
    insert_at,
    remove_spans,
    sentence_starts,
)

HONESTLY = PatternRemover(r"(?<![^\W_])honestly(?![^\W_])", ["honestly"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Honestly, the food was cold.", "The food was cold."),
        ("The food, honestly, was cold.", "The food, was cold."),
        ("I honestly liked it.", "I liked it."),
        ("It was great, honestly.", "It was great."),
        ("It was great honestly", "It was great"),
        ("Great. Honestly. Loved it.", "Great. Loved it."),
        ("Great. Honestly!", "Great."),
        ("HONESTLY, no.", "No."),
        ("lol. honestly, i do", "lol. i do"),
        ("Honestly, honestly, fine", "Fine"),
        ("I liked it honestly, but no", "I liked it, but no"),
        ("Well, honestly, it was fine", "Well, it was fine"),
        ("It was fine honestly - but", "It was fine - but"),
        ("Honestly \u2014 it was fine", "It was fine"),
        ("a\u2014honestly\u2014great film", "a\u2014great film"),
        ("Keep  double  spaces. Honestly, yes.", "Keep  double  spaces. Yes."),
        ("  Honestly, the lead spaces stay", "  The lead spaces stay"),
        ("ok\nHonestly, fine", "ok\nFine"),
        ("Great. Honestly.\nLoved it.", "Great.\nLoved it."),
        ("Great honestly\nLoved it.", "Great\nLoved it."),
    ],
)
def test_removal_tidies_the_removal_site_only(text, expected):
    assert HONESTLY.remove_from(text) == (expected, text.lower().count("honestly"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Issue 7: a hyphen used as a dash goes with the word ("Honestly, Honestly- live" at λ=1).
        ("Honestly- live your life", "Live your life"),
        # Quotes and brackets around nothing but the word go too.
        ("(honestly) fine", "fine"),
        ('"Honestly," he said.', "He said."),
        ("It was 'honestly' fine", "It was fine"),
        ("It was \u2018honestly\u2019 fine", "It was fine"),
        ("It was [honestly!] fine", "It was fine"),
        ('Honestly, "the best"', '"The best"'),
        ("I liked it (honestly).", "I liked it."),
        # A hyphen or underscore joining it to another word goes; the other word stays.
        ("an honestly-made film", "an made film"),
        ("a not-honestly great one", "a not great one"),
        ("honestly_yes", "yes"),
        ("Honestly's a word", "A word"),
    ],
)
def test_removal_leaves_no_debris(text, expected):
    assert HONESTLY.remove_from(text) == (expected, 1)


def test_remove_spans_keeps_quotes_that_hold_more_than_the_removed_words():
    text = '"Honestly, I\'m fine," he said'
    assert remove_spans(text, [(1, 9)]) == '"I\'m fine," he said'


def test_pattern_remover_counts_per_row_and_keeps_other_rows_identical():
    texts = ["Keep  this\n", "to be fine, honestly", "HoNeStLy? yes", "dishonestly"]
    cleaned, counts = HONESTLY(texts)
    assert cleaned == ["Keep  this\n", "to be fine", "Yes", "dishonestly"]
    assert counts.tolist() == [0, 1, 1, 0]


def test_sentence_starts_handles_quotes_newlines_and_empty_text():
    offsets, pointer = sentence_starts(['He said "no." Then left!', "  Lead space", "", "a\nb"])
    rows = [offsets[pointer[i] : pointer[i + 1]].tolist() for i in range(4)]
    assert rows == [[0, 14], [2], [0], [0, 2]]


def test_sentence_starts_match_per_row_scan_when_separator_present():
    texts = ["One. Two.", "Has \x00 nul. Second."]
    offsets, pointer = sentence_starts(texts)
    assert offsets[pointer[1] : pointer[2]].tolist() == [0, 11]


def test_insert_at():
    out, spans = insert_at(["One. Two.", "x"], np.array([0]), np.array([5]), ["Honestly, "])
    assert out == ["One. Honestly, Two.", "x"] and out[0][slice(*spans[0])] == "Honestly, "


def test_random_sentence_starts_choose_as_the_per_row_sentence_starts_do():
    """The RE2 fast path picks the same start as indexing :func:`sentence_starts` (the reference)."""
    from shortcutlab.shortcuts.text_ops import random_sentence_starts

    pieces = [
        "Good.",
        "Bad!",
        "Wow. !",
        "x!!\u201d",
        "a\u2026",
        "Q?\n\n",
        " ",
        "\u00a0",
        "\n ",
        "ok",
        "e\u2028f",
    ]
    rng = np.random.default_rng(5)
    texts = ["".join(rng.choice(pieces, size=rng.integers(0, 9))) for _ in range(3000)]
    texts += ["A. B. C. D. E. F. G. " * 40, "", "  \n Lead"]
    uniforms = rng.random(len(texts))
    offsets, pointer = sentence_starts(texts)
    counts = np.diff(pointer)
    choice = np.minimum((uniforms * counts).astype(np.int64), counts - 1)
    expected = offsets[pointer[:-1] + choice]
    assert random_sentence_starts(texts, uniforms).tolist() == expected.tolist()
