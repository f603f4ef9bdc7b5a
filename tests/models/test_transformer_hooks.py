"""The transformer's hooks on the tiny BERT and a tiny LoRA Llama: last-layer input and head,
pooled embeddings, and what a training objective is handed."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import make_model
from tests.models.test_last_layer import softmax_of_last_layer
from tests.models.test_transformer_lora import params as lora_params
from tests.models.test_transformer_lora import tiny_llama, toy  # noqa: F401 (a fixture)

TEXTS = ["good fine great", "awful bad", "fine", "bad bad bad awful terrible"] * 4
LABELS = np.array([1, 0, 1, 0] * 4)
ROWS = ["good", "a much longer row that needs padding when batched with short ones", "bad"]


@pytest.fixture(scope="module")
def fitted_bert(tiny_bert):
    params = {"path": str(tiny_bert), "epochs": 1, "batch_size": 8, "eval_batch_size": 2}
    return make_model("transformer", params, seed=0).fit(TEXTS, LABELS, n_classes=3)


def test_features_are_bert_pooled_cls_state_the_classifier_reads(fitted_bert):
    import torch

    network = fitted_bert.model_.eval()  # fit leaves it in train mode (dropout)
    encoded = fitted_bert.tokenizer_(ROWS[1], return_tensors="pt")
    with torch.inference_mode():
        pooled = network.bert(**encoded).pooler_output
    assert np.allclose(fitted_bert.features([ROWS[1]]), pooled.numpy(), atol=1e-5)
    assert np.allclose(softmax_of_last_layer(fitted_bert, ROWS), fitted_bert.predict_proba(ROWS))


def test_embed_pools_the_last_layer_over_real_tokens_only(fitted_bert):
    import torch

    encoded = fitted_bert.tokenizer_(ROWS[0], return_tensors="pt")
    with torch.inference_mode():
        states = fitted_bert.model_.eval().bert(**encoded).last_hidden_state[0]
    batched_cls = fitted_bert.embed(ROWS, pooling="cls")  # eval_batch_size 2: padded batches
    batched_mean = fitted_bert.embed(ROWS, pooling="mean")
    assert np.allclose(batched_cls[0], states[0].numpy(), atol=1e-5)
    assert np.allclose(batched_mean[0], states.mean(0).numpy(), atol=1e-5)
    alone = fitted_bert.embed([ROWS[0]], pooling="mean")
    assert np.allclose(batched_mean[0], alone[0], atol=1e-5)
    assert fitted_bert.embed([]).shape == (0, 64)
    with pytest.raises(ConfigError, match="'pooling' parameter of transformer embed must be one"):
        fitted_bert.embed(ROWS, pooling="max")


def test_an_objective_asking_for_hidden_states_gets_them(tiny_bert):
    seen = []

    class HiddenStates:
        def __init__(self, needs_hidden_states):
            self.needs_hidden_states = needs_hidden_states

        def start(self, model, n_rows):
            pass

        def loss(self, losses, index, *, model, inputs, outputs):
            seen.append((self.needs_hidden_states, outputs.hidden_states, inputs["input_ids"]))
            return losses.mean()

    for needs in (True, False):
        model = make_model("transformer", {"path": str(tiny_bert), "epochs": 1, "batch_size": 8})
        model.set_objective(HiddenStates(needs))
        model.fit(TEXTS, LABELS, n_classes=2)
    asked = [states for needs, states, _ in seen if needs]
    assert asked and all(len(states) == 3 for states in asked)  # embeddings + 2 layers
    assert asked[0][-1].shape[:2] == seen[0][2].shape
    assert all(states is None for needs, states, _ in seen if not needs)


def test_a_lora_llama_scores_its_last_real_token_and_the_last_layer_follows(tiny_llama):  # noqa: F811
    texts, labels = toy(48, 0)
    model = make_model("transformer", lora_params(tiny_llama, epochs=1), seed=0)
    model.fit(texts, labels, n_classes=4)  # label 3 unseen
    rows = texts[:3] + ["the item"]  # different lengths: padded batches
    weights, bias = model.last_layer()
    assert weights.shape == (4, 64) and bias.tolist() == [0, 0, 0, -np.inf]  # score has no bias
    assert np.allclose(softmax_of_last_layer(model, rows), model.predict_proba(rows), atol=1e-5)
