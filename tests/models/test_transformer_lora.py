"""LoRA fine-tuning of a causal LM through its sequence-classification head (tiny local Llama)."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import make_model

pytest.importorskip("peft")

WORDS = ("alpha", "bravo", "charlie")


def toy(n, seed):
    labels = np.random.default_rng(seed).integers(0, 3, n)
    return [f"the item {WORDS[label]} was number {i % 7}" for i, label in enumerate(labels)], labels


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory, review_texts):
    from shortcutlab.models.tiny import build_tiny_llama

    return build_tiny_llama(
        tmp_path_factory.mktemp("llama") / "tiny-llama", review_texts + toy(60, 9)[0]
    )


def params(path, **extra):
    return {
        "path": str(path),
        "epochs": 3,
        "batch_size": 16,
        "lr": 5e-3,
        "lora": {"r": 4, "alpha": 8},
        **extra,
    }


def test_lora_trains_adapters_and_head_only_and_learns(tiny_llama):
    import torch
    from transformers import AutoModelForCausalLM

    texts, labels = toy(240, 0)
    test_texts, test_labels = toy(90, 1)
    model = make_model("transformer", params(tiny_llama), seed=0).fit(
        texts, labels, n_classes=3, validation=(test_texts, test_labels)
    )
    assert (model.predict(test_texts) == test_labels).mean() > 0.8  # chance is 1/3
    trainable = [name for name, p in model.model_.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in name or "score" in name for name in trainable)
    original = AutoModelForCausalLM.from_pretrained(tiny_llama).state_dict()
    adapted = {
        name.replace("base_model.model.", "").replace(".base_layer", ""): p
        for name, p in model.model_.named_parameters()
    }
    frozen = "model.layers.0.self_attn.q_proj.weight"
    assert torch.equal(adapted[frozen], original[frozen])


def test_lora_is_deterministic_per_seed(tiny_llama):
    texts, labels = toy(60, 0)
    first = make_model("transformer", params(tiny_llama, epochs=1), seed=3).fit(
        texts, labels, n_classes=3
    )
    second = make_model("transformer", params(tiny_llama, epochs=1), seed=3).fit(
        texts, labels, n_classes=3
    )
    assert np.array_equal(first.predict_proba(texts), second.predict_proba(texts))


@pytest.mark.parametrize(
    ("lora", "message"),
    [
        (
            {"rank": 4},
            r"Unknown key 'rank' in the transformer 'lora' parameter\. Allowed keys: r, alpha, dropout, target_modules",
        ),
        ({"r": 0}, r"'lora.r' parameter of transformer must be a positive integer"),
        ({"dropout": 2.0}, r"'lora.dropout'"),
        ("yes", r"must be a mapping like"),
    ],
)
def test_bad_lora_settings(tiny_llama, lora, message):
    with pytest.raises(ConfigError, match=message):
        make_model("transformer", {"path": str(tiny_llama), "lora": lora}).check(3)
