"""Category lists of the concept annotators: YAML files, packaged lists, inline mappings, errors."""

from __future__ import annotations

import pytest

from shortcutlab.attributes.categories import PACKAGED_LISTS, Category, load_categories
from shortcutlab.errors import ConfigError

YAML = """\
dataset_name: Movie Snippets
categories:
  Comedy:
    description: humorous elements, joke design
    keywords: [funny, Laugh, sci-fi comedy]
  Thriller: tense atmosphere
  Other:
"""


def test_a_yaml_file_gives_names_descriptions_keywords_and_the_data_set(tmp_path):
    path = tmp_path / "concepts.yaml"
    path.write_text(YAML, encoding="utf-8")
    listed = load_categories(str(path), "sentence-concept")
    assert listed.categories == (
        Category("Comedy", "humorous elements, joke design", ("funny", "Laugh", "sci-fi comedy")),
        Category("Thriller", "tense atmosphere"),
        Category("Other"),
    )
    assert listed.dataset_name == "Movie Snippets" and listed.source == str(path)
    assert listed.categories[0].sentence() == "Comedy: humorous elements, joke design"
    assert listed.categories[2].sentence() == "Other"


def test_an_inline_mapping_may_hold_the_categories_alone():
    listed = load_categories({"A": "first", "B": {"description": "second"}}, "x")
    assert listed.names == ["A", "B"] and listed.dataset_name is None and listed.source == "inline"


@pytest.mark.parametrize("name", [n for n in PACKAGED_LISTS if n.startswith("rotten-tomatoes")])
def test_the_packaged_rotten_tomatoes_lists_copy_the_papers_figures(name):
    listed = load_categories(name, "x")
    assert listed.dataset_name == "Rotten Tomatoes" and listed.source == f"packaged:{name}"
    assert len(listed.categories) == 10 and all(c.keywords for c in listed.categories)
    # Table 14's six values per level are among the ten categories of figures 15 and 16.
    table_14 = {
        "rotten-tomatoes-sentence": [
            "Comedy",
            "Thriller",
            "Romance",
            "Documentary",
            "Drama",
            "Action",
        ],
        "rotten-tomatoes-core-word": [
            "Film Terms",
            "Actors/Actresses",
            "Genres",
            "Film Titles",
            "Cultural Impact Terms",
            "Directors",
        ],
    }
    assert set(table_14[name]) <= set(listed.names)
    first = listed.categories[0]
    expected = {
        "rotten-tomatoes-sentence": "humorous elements, joke design, comedic effects, focusing on entertainment.",
        "rotten-tomatoes-core-word": "film, movie, review, involving movie terminology.",
    }
    assert first.description == expected[name]


@pytest.mark.parametrize(
    "spec", [{"Comedy": "jokes"}, {"categories": {"Comedy": "jokes"}}, {"categories": {}}]
)
def test_fewer_than_two_categories_is_a_config_error(spec):
    with pytest.raises(ConfigError, match=r"^core-word-concept needs at least two categories"):
        load_categories(spec, "core-word-concept")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("categories: [Comedy, Drama]", "must map category names to descriptions"),
        ("categories: {A: x, B: y}\ncolour: red", r"has unknown keys 'colour'; it takes"),
        ("categories: {yes: x, B: y}", "quote the name"),
        (
            "categories: {A: {description: x, words: [a]}, B: y}",
            "mapping with the keys description, keywords",
        ),
        ("categories: {A: {keywords: a}, B: y}", "needs a text description and a list of keywords"),
        ("categories: {A: {keywords: ['--']}, B: y}", "each with a letter or digit"),
        (
            "categories: {Film Terms: x, film-terms: y}",
            "'Film Terms' and 'film-terms', which read the same",
        ),
        ("categories: {A: x, B: y}\ndataset_name: 3", "dataset_name of .* must be text"),
        ("categories: {A: x\n  B", "is not valid YAML"),
    ],
)
def test_malformed_files_are_config_errors(tmp_path, content, message):
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_categories(path, "sentence-concept")


def test_a_name_that_is_neither_a_file_nor_a_packaged_list_is_a_config_error(tmp_path):
    with pytest.raises(
        ConfigError,
        match=r"neither a file nor a packaged list \(reviews-aspects, reviews-products, rotten-tomatoes",
    ):
        load_categories(str(tmp_path / "missing.yaml"), "sentence-concept")
    with pytest.raises(ConfigError, match="sentence-concept needs the 'categories' option"):
        load_categories(None, "sentence-concept")


def test_the_packaged_product_types_cover_every_product_of_the_embedded_corpus():
    from shortcutlab.corpus.lexicon import PRODUCTS

    listed = load_categories("reviews-products", "x")
    keywords = {k for c in listed.categories for k in c.keywords}
    assert {product for product, _, _ in PRODUCTS} <= keywords and len(listed.categories) == 5
