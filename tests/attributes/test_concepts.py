"""sentence-concept / core-word-concept: options, the keywords method, and configs."""

from __future__ import annotations

import pytest

from shortcutlab.attributes import make_attribute
from shortcutlab.errors import ConfigError

CATEGORIES = {
    "Comedy": {"description": "jokes", "keywords": ["funny", "jokes", "laugh out loud"]},
    "Horror": {"description": "fear", "keywords": ["scary", "ghost", "ghosts"]},
    "Drama": {"description": "tears", "keywords": ["tears", "funny"]},
}
CLIENT = {"name": "openai-chat", "base_url": "http://127.0.0.1:9/v1", "model": "m"}


def keywords(texts, name="sentence-concept"):
    attribute = make_attribute(name, {"categories": CATEGORIES, "method": "keywords"})
    return attribute.annotate(texts)


def test_the_category_with_most_keyword_hits_wins_and_ties_go_to_the_earlier_one():
    texts = [
        "a scary , funny ghost story with ghosts",  # Horror 3, Comedy 1, Drama 1
        "FUNNY !",  # Comedy 1 and Drama 1: the earlier category
        "tears , then more tears , and jokes",  # Drama 2 (tears twice), Comedy 1
        "laugh out loud funny",  # the phrase and the word: Comedy 2, Drama 1
        "nothing to see",  # no keyword
        "funnyman ghostly",  # whole words only
    ]
    annotation = keywords(texts)
    assert annotation.values.tolist() == ["Horror", "Comedy", "Drama", "Comedy", None, None]
    assert annotation.details == {"method": "keywords", "no_value": 2, "tied": 1}


def test_both_levels_read_the_same_keywords_and_record_their_method():
    texts = ["ghosts", "jokes"]
    for name in ("sentence-concept", "core-word-concept"):
        assert keywords(texts, name).values.tolist() == ["Horror", "Comedy"]
    config = make_attribute(
        "core-word-concept", {"categories": CATEGORIES, "method": "keywords"}
    ).config()
    assert config["method"] == "keywords" and config["categories_source"] == "inline"
    assert [c["name"] for c in config["categories"]] == ["Comedy", "Horror", "Drama"]
    assert "client" not in config and "min_margin" not in config


def test_rotten_tomatoes_keyword_values(rotten_tomatoes):
    texts = rotten_tomatoes["text"].tolist()
    scs = make_attribute(
        "sentence-concept", {"categories": "rotten-tomatoes-sentence", "method": "keywords"}
    ).annotate(texts)
    # The six most frequent are the paper's six SCS values for Rotten Tomatoes (Table 14).
    assert list(scs.counts())[:6] == [
        "Comedy",
        "Drama",
        "Romance",
        "Documentary",
        "Thriller",
        "Action",
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"method": "bert"},
            "The 'method' parameter of sentence-concept must be one of 'llm', 'embedding', 'keywords'",
        ),
        (
            {"method": "keywords", "client": CLIENT},
            "The 'client' option of sentence-concept belongs to method 'llm', and this annotator uses method 'keywords'",
        ),
        (
            {"method": "embedding", "max_tokens": 5},
            "'max_tokens' option .* belongs to method 'llm'",
        ),
        (
            {"method": "llm", "client": CLIENT, "min_margin": 0.1},
            "'min_margin' option .* belongs to method 'embedding'",
        ),
        ({"method": "llm"}, "Method 'llm' of sentence-concept needs a 'client' option"),
        (
            {"method": "llm", "client": CLIENT, "template": "no fields"},
            "must be text holding {categories} and {text} once each",
        ),
        (
            {"method": "llm", "client": CLIENT, "max_tokens": 0},
            "'max_tokens' parameter of sentence-concept must be a positive integer",
        ),
        (
            {"method": "embedding", "min_margin": -0.1},
            "'min_margin' parameter of sentence-concept must be a non-negative float",
        ),
        (
            {"method": "embedding", "dataset_name": 5},
            "'dataset_name' option of sentence-concept must be text",
        ),
    ],
)
def test_bad_options_are_config_errors(options, message):
    with pytest.raises(ConfigError, match=message):
        make_attribute("sentence-concept", {"categories": CATEGORIES, **options})


def test_the_keywords_method_needs_keywords_for_every_category():
    categories = {**CATEGORIES, "Romance": "love stories"}
    with pytest.raises(ConfigError, match="needs keywords for every category; 'Romance' has none"):
        make_attribute("sentence-concept", {"categories": categories, "method": "keywords"})
    # The other methods read descriptions only.
    make_attribute("sentence-concept", {"categories": categories, "method": "embedding"})


def test_one_category_is_refused_before_anything_runs():
    with pytest.raises(ConfigError, match="sentence-concept needs at least two categories"):
        make_attribute(
            "sentence-concept", {"categories": {"Comedy": "jokes"}, "method": "keywords"}
        )
