"""Casing and character noise: what changes, what stays, and the same bytes for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.perturb import perturb

TEXTS = ["Don't stop me now, Freddie!", "1234 ...", "the form of THE film"]


def run(name, texts=TEXTS, seed=0, **params):
    return perturb(
        name, texts, np.zeros(len(texts), dtype=int), label_values=["a"], seed=seed, params=params
    )


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("case-upper", ["DON'T STOP ME NOW, FREDDIE!", "1234 ...", "THE FORM OF THE FILM"]),
        ("case-lower", ["don't stop me now, freddie!", "1234 ...", "the form of the film"]),
        ("case-title", ["Don't Stop Me Now, Freddie!", "1234 ...", "The Form Of The Film"]),
    ],
)
def test_case_changes_letters_only(name, expected):
    out = run(name)
    assert out.texts == expected
    assert out.changed.tolist() == [a != b for a, b in zip(TEXTS, expected, strict=True)]
    assert out.expected is None


def _differing(before: str, after: str) -> list[tuple[str, str]]:
    return [(a, b) for a, b in zip(before, after, strict=True) if a != b]


def test_keyboard_typos_replace_letters_by_neighbouring_keys_keeping_case():
    from shortcutlab.perturb.typos import KEYBOARD_NEIGHBOURS

    out = run("typos-keyboard", rate=0.3)
    assert out.changed.tolist() == [True, False, True]
    assert out.texts[1] == "1234 ..."
    for before, after in zip(TEXTS, out.texts, strict=True):
        assert len(after) == len(before)
        for old, new in _differing(before, after):
            assert new.lower() in KEYBOARD_NEIGHBOURS[old.lower()]
            assert old.isupper() == new.isupper()


def test_char_swap_swaps_adjacent_letters_only():
    out = run("typos-swap", rate=0.3)
    assert out.changed.tolist() == [True, False, True]
    for before, after in zip(TEXTS, out.texts, strict=True):
        assert sorted(before) == sorted(after)
        assert [c for c in before if not c.isalpha()] == [c for c in after if not c.isalpha()]


def test_ocr_typos_use_the_confusion_table():
    from shortcutlab.perturb.typos import OCR_CONFUSIONS

    out = run("typos-ocr", rate=0.5)
    assert out.changed.all()
    for before, after in zip(TEXTS, out.texts, strict=True):
        for old, new in _differing(before, after):
            assert new in OCR_CONFUSIONS[old]


@pytest.mark.parametrize("name", ["typos-keyboard", "typos-swap", "typos-ocr"])
def test_noise_is_deterministic_per_seed_and_per_row(name):
    texts = ["A rather long sentence about films and the people who watch them."] * 20
    first, again, other = (
        run(name, texts, seed=3),
        run(name, texts, seed=3),
        run(name, texts, seed=4),
    )
    assert first.texts == again.texts
    assert first.texts != other.texts
    assert len(set(first.texts)) > 1  # equal texts in different rows get their own draws
    assert run(name, texts[:7], seed=3).texts == first.texts[:7]  # not on the rows after it


def test_bad_rate_and_seed_are_refused_in_one_line():
    with pytest.raises(
        ConfigError,
        match=r"^The 'rate' parameter of typos-keyboard must be a float in \[0, 1\)\. Got 1\.5 instead\.$",
    ):
        run("typos-keyboard", rate=1.5)
    with pytest.raises(
        ConfigError,
        match=r"^The 'seed' parameter of case-upper must be a non-negative integer\. Got -1 instead\.$",
    ):
        run("case-upper", seed=-1)


def test_the_scalar_draw_is_the_vector_draw():
    from shortcutlab.perturb.base import stream_key, uniforms
    from shortcutlab.perturb.words import uniform_at

    key = stream_key(7, "names-swap")
    rows, slots = np.array([0, 3, 9, 2**40]), np.array([0, 5, 1, 7])
    assert uniforms(key, rows, slots).tolist() == [
        uniform_at(int(key), int(r), int(s)) for r, s in zip(rows, slots, strict=True)
    ]
