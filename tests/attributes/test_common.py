"""Common tests over every registered attribute (a new attribute without an entry here fails)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.attributes import ATTRIBUTES, Attribute, make_attribute
from shortcutlab.errors import ConfigError

TEXTS = [
    "a funny comedy , not a drama .",
    "is this a tearful drama ?",
    "the film's jokes never land",
    "nothing but laughs and jokes in this film",
    "",
]
COLUMNS = {"genre": ["comedy", "drama", None, "comedy", "drama"], "text": TEXTS}
CATEGORIES = {
    "Comedy": {"description": "humour and jokes", "keywords": ["comedy", "jokes", "laughs"]},
    "Drama": {"description": "serious themes", "keywords": ["drama", "tearful"]},
}
# Offline options for each registered attribute (the concept ones use their keywords method here).
OPTIONS = {
    "negation": {},
    "question": {},
    "frequent-words": {"k": 3},
    "column": {"column": "genre"},
    "sentence-concept": {"categories": CATEGORIES, "method": "keywords"},
    "core-word-concept": {"categories": CATEGORIES, "method": "keywords"},
}


def test_every_registered_attribute_has_common_test_options():
    assert sorted(OPTIONS) == ATTRIBUTES.names()


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_values_are_strings_or_none_one_per_text_and_reproducible(name):
    attribute = make_attribute(name, OPTIONS[name]).fitted(TEXTS)
    assert isinstance(attribute, Attribute) and attribute.name == name
    first = attribute.annotate(TEXTS, COLUMNS)
    again = make_attribute(name, OPTIONS[name]).fitted(TEXTS).annotate(TEXTS, COLUMNS)
    assert first.values.dtype == object and first.values.shape == (len(TEXTS),)
    assert all(v is None or (isinstance(v, str) and v) for v in first.values.tolist())
    assert first.values.tolist() == again.values.tolist()
    assert any(v is not None for v in first.values.tolist())
    known = attribute.possible_values()
    if known is not None:
        assert set(first.counts()) <= set(known)
    json.dumps(first.details)  # the manifest stores the details


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_config_is_json_and_names_the_attribute(name):
    attribute = make_attribute(name, OPTIONS[name]).fitted(TEXTS)
    config = attribute.config()
    assert config["name"] == name
    assert json.loads(json.dumps(config)) == config
    assert attribute.column.isidentifier()


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_an_empty_input_gives_an_empty_annotation(name):
    attribute = make_attribute(name, OPTIONS[name]).fitted(TEXTS)
    empty = attribute.annotate([], {key: [] for key in COLUMNS})
    assert empty.values.shape == (0,) and empty.counts() == {}


def test_concept_annotators_keep_six_values_by_default_and_the_others_all():
    kept = {name: make_attribute(name, OPTIONS[name]).top_values for name in OPTIONS}
    assert kept == {
        "negation": None,
        "question": None,
        "frequent-words": None,
        "column": None,
        "sentence-concept": 6,
        "core-word-concept": 6,
    }


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_an_unknown_option_is_a_config_error_listing_the_options(name):
    with pytest.raises(ConfigError, match=rf"The {name} attribute has no option 'colour'"):
        make_attribute(name, {**OPTIONS[name], "colour": "red"})


def test_annotation_counts_are_most_frequent_first_and_leave_out_none():
    from shortcutlab.attributes import Annotation

    values = np.array(["b", None, "a", "b", "a", "c"], dtype=object)
    assert Annotation(values).counts() == {"a": 2, "b": 2, "c": 1}
