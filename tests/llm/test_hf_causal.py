"""hf-causal on a tiny random Llama: deterministic, only new tokens, batching changes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.llm import ChatRequest, make_client
from shortcutlab.llm.hf_causal import _cut_at_stop
from shortcutlab.llm.hf_generation import folder_fingerprint, prompt_text

TEXTS = [
    "Rate this review: the blender broke after two days.",
    "Great",
    "The delivery was late, the box was crushed and the colour was not what the photo showed.",
    "Answer positive or negative: I love it.",
    "Service was friendly.",
]


@pytest.fixture(scope="session")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from shortcutlab.corpus import generate_reviews
    from shortcutlab.models.tiny import build_tiny_llama

    texts = generate_reviews(300, seed=0)["text"].tolist()
    return build_tiny_llama(tmp_path_factory.mktemp("llm") / "tiny-llama", texts)


def hf_client(path: Path, cache: Path, **params):
    return make_client({"name": "hf-causal", "path": str(path), "cache": cache, **params})


def requests_for(texts: list[str], **fields) -> list[ChatRequest]:
    return [ChatRequest(messages=(("user", text),), **fields) for text in texts]


def test_batched_and_unbatched_generation_agree_and_repeat(tiny_llama, tmp_path):
    requests = requests_for(TEXTS, max_tokens=6)
    requests.append(
        ChatRequest(messages=(("system", "Be brief."), ("user", "Great")), max_tokens=3)
    )
    batched = hf_client(tiny_llama, tmp_path / "a.sqlite", batch_size=8)
    one_by_one = hf_client(tiny_llama, tmp_path / "b.sqlite", batch_size=1)
    again = hf_client(tiny_llama, tmp_path / "c.sqlite", batch_size=3)
    answers = [c.complete(requests) for c in (batched, one_by_one, again)]
    assert answers[0] == answers[1] == answers[2]
    assert all(a.text is not None and a.completion_tokens <= 6 for a in answers[0])
    # One generate call per (max_tokens, penalty) group and batch.
    assert (batched.usage.requests, one_by_one.usage.requests, again.usage.requests) == (2, 6, 3)
    assert batched.usage.completion_tokens == sum(a.completion_tokens for a in answers[0])


def test_only_the_new_tokens_come_back(tiny_llama, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    [answer] = hf_client(tiny_llama, tmp_path / "c.sqlite").complete(requests_for([TEXTS[2]]))
    tokenizer = AutoTokenizer.from_pretrained(tiny_llama)
    model = AutoModelForCausalLM.from_pretrained(tiny_llama).eval()
    ids = tokenizer(TEXTS[2], return_tensors="pt")
    with torch.no_grad():  # one unpadded prompt: transformers' own penalty is the same as ours
        output = model.generate(
            **ids, do_sample=False, max_new_tokens=5, repetition_penalty=1.1, pad_token_id=0
        )
    new = output[0, ids["input_ids"].shape[1] :]
    assert answer.text == tokenizer.decode(new, skip_special_tokens=True)
    assert answer.prompt_tokens == ids["input_ids"].shape[1] and answer.completion_tokens == 5
    assert not answer.text.startswith(TEXTS[2][:10])


def test_a_cached_rerun_does_not_load_the_model(tiny_llama, tmp_path):
    cache = tmp_path / "llm.sqlite"
    first = hf_client(tiny_llama, cache).complete(requests_for(TEXTS))
    client = hf_client(tiny_llama, cache)
    again = client.complete(requests_for(TEXTS))
    assert [a.text for a in again] == [f.text for f in first] and all(a.cached for a in again)
    assert client.usage.requests == 0 and client._loaded is None


def test_sampling_and_missing_folders_are_config_errors(tiny_llama, tmp_path):
    client = hf_client(tiny_llama, tmp_path / "c.sqlite")
    client.check()
    with pytest.raises(ConfigError, match="requests must have temperature 0. Got temperature 0.7"):
        client.complete(requests_for(["hi"], temperature=0.7))
    with pytest.raises(ConfigError, match="'path' parameter of hf-causal points to .*not exist"):
        hf_client(tmp_path / "missing", tmp_path / "c.sqlite").check()
    with pytest.raises(ConfigError, match="'batch_size' parameter of hf-causal must be a positive"):
        hf_client(tiny_llama, tmp_path / "c.sqlite", batch_size=0)


def test_prompts_use_the_chat_template_when_there_is_one(tiny_llama):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_llama)
    messages = (("system", "Be brief."), ("user", "Is it good?"))
    assert prompt_text(tokenizer, messages) == ("Be brief.\n\nIs it good?", True)
    tokenizer.chat_template = (
        "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
        "{% if add_generation_prompt %}<assistant>{% endif %}"
    )
    assert prompt_text(tokenizer, messages) == (
        "<system>Be brief.<user>Is it good?<assistant>",
        False,
    )


def test_the_repetition_penalty_ignores_padding():
    import torch

    from shortcutlab.llm.hf_generation import _PaddingAwareRepetitionPenalty

    # Row 0 is padded with token 0 at position 0; row 1 really contains token 0.
    input_ids = torch.tensor([[0, 2, 3], [0, 2, 3]])
    scores = torch.tensor([[2.0, 2.0, 2.0, -2.0], [2.0, 2.0, 2.0, -2.0]])
    penalised = _PaddingAwareRepetitionPenalty(2.0, torch.tensor([1, 0]))(input_ids, scores)
    assert penalised.tolist() == [[2.0, 2.0, 1.0, -4.0], [1.0, 2.0, 1.0, -4.0]]


def test_stop_sequences_and_the_folder_fingerprint(tiny_llama, tmp_path):
    assert _cut_at_stop("positive\nbecause", ("\n", "because")) == "positive"
    assert _cut_at_stop("positive", ()) == "positive"
    copy = Path(shutil.copytree(tiny_llama, tmp_path / "copy"))
    assert folder_fingerprint(copy) == folder_fingerprint(tiny_llama)
    weights = copy / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0xFF  # "retrained" weights in the same place
    weights.write_bytes(bytes(data))
    assert folder_fingerprint(copy) != folder_fingerprint(tiny_llama)
