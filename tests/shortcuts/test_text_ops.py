import numpy as np
import pytest

from shortcutlab.shortcuts.text_ops import (
    PatternRemover,
    insert_at,
    phrase_pattern,
    sentence_starts,
)

REMOVE = PatternRemover(
    phrase_pattern(["honestly", "to be honest", "if I'm being honest", "in truth"]),
    ["honest", "truth"],
)


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
        ("If I\u2019m being honest, no. To be honest, yes.", "No. Yes."),
        ("lol. honestly, i do", "lol. i do"),
        ("dishonestly done, honestly-ish", "dishonestly done, honestly-ish"),
        ("In truth, it is fine.\nHonestly, good.", "It is fine.\nGood."),
    ],
)
def test_removal_tidies_locally(text, expected):
    cleaned, count = REMOVE.remove_from(text)
    assert cleaned == expected
    assert count == (
        0 if expected == text else text.lower().count("honest") + text.lower().count("truth")
    )


def test_removal_leaves_other_whitespace_alone_and_counts_per_row():
    texts = ["Keep  double  spaces. Honestly, yes.", "nothing here", "to be honest"]
    cleaned, counts = REMOVE(texts)
    assert cleaned == ["Keep  double  spaces. Yes.", "nothing here", ""]
    assert counts.tolist() == [1, 0, 1]


def test_sentence_starts_handles_quotes_newlines_and_empty_text():
    offsets, pointer = sentence_starts(['He said "no." Then left!', "  Lead space", "", "a\nb"])
    rows = [offsets[pointer[i] : pointer[i + 1]].tolist() for i in range(4)]
    assert rows == [[0, 14], [2], [0], [0, 2]]


def test_sentence_starts_match_per_row_scan_when_separator_present():
    texts = ["One. Two.", "Has \x00 nul. Second."]
    offsets, pointer = sentence_starts(texts)
    assert offsets[pointer[1] : pointer[2]].tolist() == [0, 11]


def test_insert_at():
    out = insert_at(["One. Two.", "x"], np.array([0]), np.array([5]), ["Honestly, "])
    assert out == ["One. Honestly, Two.", "x"]
