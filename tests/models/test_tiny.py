"""Tiny local models: deterministic builds that load like hub checkpoints, without a network."""

import json

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, OutputExistsError
from shortcutlab.models import make_model
from shortcutlab.models.tiny import build_tiny_bert, build_tiny_llama
from tests.conftest import folder_bytes


def test_tiny_bert_is_a_base_model_and_builds_identically(tiny_bert, review_texts, tmp_path):
    config = json.loads((tiny_bert / "config.json").read_text())
    assert config["architectures"] == ["BertModel"]
    assert (config["hidden_size"], config["num_hidden_layers"]) == (64, 2)
    assert (tiny_bert / "model.safetensors").is_file()
    again = build_tiny_bert(tmp_path / "again", review_texts)
    assert folder_bytes(again) == folder_bytes(tiny_bert)
    other_seed = build_tiny_bert(tmp_path / "seed1", review_texts, seed=1)
    assert folder_bytes(other_seed)["tokenizer.json"] == folder_bytes(tiny_bert)["tokenizer.json"]
    assert (
        folder_bytes(other_seed)["model.safetensors"]
        != folder_bytes(tiny_bert)["model.safetensors"]
    )


def test_tiny_bert_tokenizer_is_a_bert_wordpiece(tiny_bert):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_bert)
    tokens = tokenizer.convert_ids_to_tokens(tokenizer("This THING stopped")["input_ids"])
    assert tokens[:3] == ["[CLS]", "this", "thing"] and tokens[-1] == "[SEP]"
    assert any(t.startswith("##") for t in tokens)  # word pieces
    assert tokenizer.pad_token_id == 0 and len(tokenizer) <= 800


def test_refuses_a_non_empty_folder_and_bad_sizes(tiny_bert, review_texts):
    with pytest.raises(OutputExistsError):
        build_tiny_bert(tiny_bert, review_texts)
    with pytest.raises(
        ConfigError, match="'hidden_size' parameter of build_tiny_bert must be a multiple"
    ):
        build_tiny_bert(tiny_bert.parent / "odd", review_texts, hidden_size=63)


def test_tiny_llama_loads_as_a_sequence_classifier_and_trains(review_texts, tmp_path):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    folder = build_tiny_llama(tmp_path / "llama", review_texts)
    assert folder_bytes(build_tiny_llama(tmp_path / "again", review_texts)) == folder_bytes(folder)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder, num_labels=4)
    assert model.config.pad_token_id == tokenizer.pad_token_id is not None
    batch = tokenizer(["short", "a much longer review text"], padding=True, return_tensors="pt")
    with torch.no_grad():
        alone = model(**tokenizer(["short"], return_tensors="pt")).logits
        padded = model(**batch).logits
    assert padded.shape == (2, 4)
    assert torch.allclose(padded[0], alone[0], atol=1e-5)  # padding does not change the answer
    texts, labels = review_texts[:24], np.array([0, 1, 2] * 8)
    params = {"path": str(folder), "epochs": 1, "batch_size": 8}
    proba = make_model("transformer", params).fit(texts, labels, n_classes=4).predict_proba(texts)
    assert proba.shape == (24, 4) and np.allclose(proba.sum(axis=1), 1)
