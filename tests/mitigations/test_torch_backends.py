"""Methods on the torch backends: GroupDRO through bow-mlp's objective hook, and the NFL losses
keeping a tiny BERT's encoder near its pretrained weights and token states."""

from __future__ import annotations

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from tests.mitigations.conftest import accuracies
from tests.mitigations.synthetic import cue_benchmark

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

BOW = {"epochs": 5, "device": "cpu"}


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_groupdro_trains_bow_mlp_through_the_objective_hook(cue_bench):
    plain = accuracies(cue_bench, "erm", model="bow-mlp", model_params=BOW)
    robust = accuracies(cue_bench, "groupdro", model="bow-mlp", model_params=BOW)
    assert robust["anti_test"] > plain["anti_test"] + 0.15


@pytest.fixture(scope="module")
def small_bench():
    return cue_benchmark(n_train=80, n_validation=20, seed=1)


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory, small_bench):
    from shortcutlab.models.tiny import build_tiny_bert

    texts = small_bench["train"]["text"].tolist()
    return build_tiny_bert(tmp_path_factory.mktemp("nfl") / "bert", texts, vocab_size=120)


def _fine_tuned(bench, path, method, params=None):
    mitigation = make_mitigation(method, params)
    settings = {"path": str(path), "epochs": 2, "lr": 1e-3, "batch_size": 16, "device": "cpu"}
    context = mitigation_context(bench, mitigation, model="transformer", params=settings, seed=0)
    return mitigation.fit(context)


def _pretrained(path):
    from transformers import AutoModel

    return AutoModel.from_pretrained(str(path)).eval()


def test_nfl_cp_keeps_the_encoder_weights_near_the_pretrained_ones(small_bench, tiny_bert):
    pretrained = dict(_pretrained(tiny_bert).named_parameters())

    def distance(model) -> float:
        encoder = model.model_.base_model
        return sum(
            float((p.detach() - pretrained[name].detach()).pow(2).sum())
            for name, p in encoder.named_parameters()
            if name.endswith("weight") and name in pretrained
        )

    plain = distance(_fine_tuned(small_bench, tiny_bert, "erm"))
    constrained = distance(_fine_tuned(small_bench, tiny_bert, "nfl-cp", {"strength": 1.0}))
    assert constrained < plain / 10


def test_nfl_co_keeps_token_states_near_the_pretrained_ones(small_bench, tiny_bert):
    pretrained = _pretrained(tiny_bert)
    texts = small_bench["test"]["text"].tolist()[:40]

    def similarity(model) -> float:
        batch = model.tokenizer_(texts, padding=True, return_tensors="pt")
        with torch.no_grad():
            tuned = model.model_.base_model(**batch).last_hidden_state
            reference = pretrained(**batch).last_hidden_state
        cosine = torch.nn.functional.cosine_similarity(tuned, reference, dim=-1)
        mask = batch["attention_mask"].float()
        return float((cosine * mask).sum() / mask.sum())

    plain = similarity(_fine_tuned(small_bench, tiny_bert, "erm"))
    fitted = _fine_tuned(small_bench, tiny_bert, "nfl-co", {"strength": 10.0})
    constrained = similarity(fitted)
    assert constrained > plain
    assert constrained > 0.95
    # The objective (with its frozen copy of the encoder) is not kept alive by the fitted model.
    assert fitted.objective() is None


def test_nfl_is_transformer_only():
    for method in ("nfl-co", "nfl-cp"):
        with pytest.raises(ConfigError, match="Models it supports: transformer"):
            make_mitigation(method).check_backend("bow-mlp")


def test_llr_disagreement_refits_on_an_epoch_backend(cue_bench):
    # Smoke test of the early-stopped comparison: it fits, selects rows and moves the head.
    plain = accuracies(cue_bench, "erm", model="bow-mlp", model_params=BOW)
    refit = accuracies(
        cue_bench, "llr", {"selection": "disagreement"}, model="bow-mlp", model_params=BOW
    )
    assert refit != plain
