"""Word-level perturbations: each changes the words it lists and nothing else."""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.perturb import perturb


def run(name, texts, seed=0, labels=None, values=("a",), **params):
    labels = np.zeros(len(texts), dtype=int) if labels is None else np.asarray(labels)
    return perturb(name, texts, labels, label_values=list(values), seed=seed, params=params)


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("contractions-expand", "Don't go, it's late. I'M DONE", "Do not go, it is late. I AM DONE"),
        ("contractions-contract", "I do not know what it is.", "I don't know what it is."),
        ("spelling-american", "My favourite colour is grey; I apologised.", "My favorite color is gray; I apologized."),
        ("spelling-british", "The theater's color.", "The theatre's colour."),
        ("gender-swap", "He gave her book to his Uncle. I saw her.", "She gave his book to her Aunt. I saw him."),
        ("gender-swap", "The book is his.", "The book is hers."),
        ("numbers-to-words", "3 stars, 1,200 fans, 3.5 points, mp3", "three stars, one thousand two hundred fans, 3.5 points, mp3"),
        ("punctuation-strip", "Well-made, isn't it? 3.5/5!", "Well-made isn't it 3.55"),
    ],
)  # fmt: skip
def test_listed_words_change_and_the_rest_stays(name, before, after):
    out = run(name, [before, "nothing to see"])
    assert out.texts == [after, "nothing to see"]
    assert out.changed.tolist() == [True, False]


def test_strip_at_the_end_only():
    assert run("punctuation-strip", ["Hi, you!!", "Hi"], scope="end").texts == ["Hi, you", "Hi"]


def test_names_swap_within_their_list_consistently_per_row():
    from shortcutlab.perturb.words import word_list

    out = run("names-swap", ["Mary met James and then Mary left.", "mary is lower case."])
    first, second = out.texts[0].split()[0], out.texts[0].split()[2]
    assert first in word_list("names_female") and first != "Mary"
    assert second in word_list("names_male") and second != "James"
    assert out.texts[0] == f"{first} met {second} and then {first} left."
    assert out.changed.tolist() == [True, False]
    given = run("names-swap", ["Ann and Bob."], names=[["Ann", "Eve"], ["Bob", "Dan"]])
    assert given.texts == ["Eve and Dan."]


def test_any_case_swaps_names_in_lower_cased_data_keeping_their_case():
    out = run(
        "names-swap",
        ["mary met james. MARY left."],
        any_case=True,
        names=[["Mary", "Ann"], ["James", "Bob"]],
    )
    assert out.texts == ["ann met bob. ANN left."]
    assert run("locations-swap", ["paris"], places=[["Paris", "Rome"]]).texts == ["paris"]
    assert run("locations-swap", ["paris"], places=[["Paris", "Rome"]], any_case=True).texts == [
        "rome"
    ]


def test_locations_swap_countries_for_countries_and_cities_for_cities():
    from shortcutlab.perturb.words import word_list

    out = run("locations-swap", ["From Paris, France to New York."], seed=1)
    words = out.texts[0]
    assert "Paris" not in words and "France" not in words and "New York" not in words
    assert any(words.startswith(f"From {city}, ") for city in word_list("places_cities"))


def test_number_change_keeps_the_length_and_changes_the_value():
    out = run("number-change", ["7 of 10, 1,200 and 3.5 or mp3"], seed=2)
    first, _, second, third = out.texts[0].split()[:4]
    assert first != "7" and len(first) == 1
    assert second.rstrip(",") != "10" and len(second.rstrip(",")) == 2
    assert len(third) == 5 and third[1] == "," and third != "1,200"
    assert out.texts[0].endswith(" and 3.5 or mp3")


@pytest.mark.parametrize(
    ("name", "at_start"), [("sentence-prefix", True), ("sentence-suffix", False)]
)
def test_an_irrelevant_sentence_goes_before_or_after(name, at_start):
    out = run(name, ["Great film.", ""], sentences=["It rained."])
    assert out.texts == [
        "It rained. Great film." if at_start else "Great film. It rained.",
        "It rained.",
    ]
    assert out.changed.all()


def test_whitespace_classes_change_spaces_only():
    text = "a b c d e f g h"
    newlines = run("whitespace-newlines", [text]).texts[0]
    assert "\n" in newlines and newlines.replace("\n", " ") == text
    tabs = run("whitespace-tabs", [text], rate=0.5).texts[0]
    assert "\t" in tabs and tabs.replace("\t", " ") == text
    spaces = run("whitespace-spaces", [text]).texts[0]
    assert "  " in spaces and " ".join(spaces.split()) == text
    assert run("whitespace-tabs", ["nospace"]).changed.tolist() == [False]


def test_punctuation_add_puts_one_of_the_marks_before_trailing_space():
    out = run("punctuation-add", ["Good film \n", "  "], marks=["!"])
    assert out.texts == ["Good film! \n", "  "]
    assert out.changed.tolist() == [True, False]


def test_bad_word_list_parameters_are_refused_in_one_line():
    with pytest.raises(
        ConfigError,
        match=r"^The 'names' parameter of names-swap must be a list of lists of two or more names\. Got \['Ann'\] instead\.$",
    ):
        run("names-swap", ["Ann"], names=["Ann"])
    with pytest.raises(
        ConfigError,
        match=r"^The 'sentences' parameter of sentence-prefix must be a list of non-empty strings\.",
    ):
        run("sentence-prefix", ["x"], sentences="One.")
