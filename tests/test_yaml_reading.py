"""The one YAML reader: the bounds sit where they say, and what is within them reads as
``yaml.safe_load`` reads it."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import given

from shortcutlab.attributes.categories import load_categories
from shortcutlab.errors import ConfigError
from shortcutlab.yaml_reading import MAX_ALIAS_VALUES, MAX_DEPTH, read_yaml
from tests.number_spellings import FLOAT_SPELLINGS

ORDINARY = """
base: &base {name: tfidf-logreg, C: 1.0}
models: [*base, {<<: *base, C: 2.0}, majority]
when: 2024-01-02
seeds: [0, 1, .inf, ~, yes]
text: |
  two
  lines
"""


def test_ordinary_yaml_reads_as_the_safe_loader_reads_it():
    assert read_yaml(ORDINARY, "'spec.yaml'") == yaml.safe_load(ORDINARY)


def _aliased(copies: int) -> str:
    """One alias of a list of ``copies - 1`` strings: ``copies`` values added by the alias."""
    return f"a: &x [{', '.join(['s'] * (copies - 1))}]\nb: *x\n"


def test_aliases_may_add_up_to_the_bound_and_not_one_value_more():
    assert len(read_yaml(_aliased(MAX_ALIAS_VALUES), "f")["b"]) == MAX_ALIAS_VALUES - 1
    with pytest.raises(ConfigError, match=f"f uses YAML aliases .* more than {MAX_ALIAS_VALUES}"):
        read_yaml(_aliased(MAX_ALIAS_VALUES + 1), "f")


def test_nesting_may_reach_the_bound_and_not_one_level_more():
    def nested(levels: int) -> str:  # the document's mapping is the first level
        return "a: " + "[" * (levels - 1) + "]" * (levels - 1)

    assert read_yaml(nested(MAX_DEPTH), "f") is not None
    with pytest.raises(ConfigError, match=f"f nests values more than {MAX_DEPTH} levels deep"):
        read_yaml(nested(MAX_DEPTH + 1), "f")


@pytest.mark.parametrize(
    "text",
    ["k: 1\nk: 2\n", "a: 1\nb: {x: 1, y: 2, x: 3}\n", "a: !!set {x, y, x}\n"],
    ids=["top-level", "nested", "set"],
)
def test_a_key_given_twice_is_refused_at_any_depth(text):
    with pytest.raises(ConfigError, match="twice in one mapping"):
        read_yaml(text, "f")


def test_keys_that_python_merges_count_as_the_same_key():
    with pytest.raises(ConfigError, match=r"gives the key True twice .*\(line 1 and line 2\)"):
        read_yaml("1: a\ntrue: b\n", "f")


def test_a_category_file_goes_through_the_reader(tmp_path):
    path = tmp_path / "categories.yaml"
    path.write_text("categories:\n  taste: flavour\n  taste: smell\n", encoding="utf-8")
    with pytest.raises(
        ConfigError,
        match=f"The category file {path} of sentence-concept gives the key 'taste' twice",
    ):
        load_categories(str(path), "sentence-concept")


@given(spelled=FLOAT_SPELLINGS)
def test_every_spelling_python_reads_as_a_float_reads_as_that_float(spelled):
    number = float(spelled)  # the spelling is one Python reads
    read = [
        read_yaml(f"lr: {spelled}", "f")["lr"],
        read_yaml(f"lr: [{spelled}, x]", "f")["lr"][0],  # in a list (a grid's values)
        read_yaml(f"model: {{lr: {spelled}}}", "f")["model"]["lr"],  # in a flow mapping
    ]
    assert [(type(value), value) for value in read] == [(float, number)] * 3


@pytest.mark.parametrize(
    ("text", "value"),
    [("5e-5", 5e-5), ("1.0e5", 1e5), (".5E3", 500.0), ("+2.", 2.0), ("1_000.5", 1000.5)]
    + [("inf", "inf"), ("nan", "nan"), ("1e", "1e"), ("e5", "e5"), ("1.2.3", "1.2.3")]
    + [("010", 8), ("1_000", 1000), (".inf", math.inf)],
)
def test_numbers_yaml_1_1_missed_read_as_numbers_and_everything_else_as_before(text, value):
    assert read_yaml(f"v: {text}", "f") == {"v": value}
