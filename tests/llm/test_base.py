"""The client contract: requests and their keys, usage counters, the registry, the cache file."""

from __future__ import annotations

import pickle
import threading

import pytest

from shortcutlab.errors import ConfigError, UnknownComponentError
from shortcutlab.llm import LLM_CLIENTS, ChatRequest, ChatResponse, Usage, make_client
from shortcutlab.llm.cache import CachedResponse, ResponseCache, resolve_cache_path


def test_requests_built_from_lists_or_tuples_have_the_same_key():
    from_tuples = ChatRequest(messages=(("system", "Be brief."), ("user", "Hi")), temperature=0)
    from_lists = ChatRequest(messages=[["system", "Be brief."], ["user", "Hi"]], temperature=0.0)
    assert from_tuples == from_lists and hash(from_tuples) == hash(from_lists)
    assert from_tuples.key("m") == from_lists.key("m")
    assert len(from_tuples.key("m")) == 64 and isinstance(from_tuples.temperature, float)


@pytest.mark.parametrize(
    "change",
    [
        {"messages": (("user", "Hello"),)},
        {"temperature": 0.7},
        {"max_tokens": 6},
        {"stop": ("\n",)},
        {"repetition_penalty": 1.1},
    ],
)
def test_every_field_and_the_identity_change_the_key(change):
    base = ChatRequest(messages=(("user", "Hi"),))
    assert ChatRequest(**{"messages": base.messages, **change}).key("m") != base.key("m")
    assert base.key("m") != base.key("other-model")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"messages": ()}, "'messages' parameter of ChatRequest must be a non-empty sequence"),
        ({"messages": (("bot", "hi"),)}, "roles system/user/assistant. Got \\('bot', 'hi'\\)"),
        ({"temperature": -1}, "'temperature' parameter of ChatRequest must be a non-negative"),
        ({"max_tokens": 0}, "'max_tokens' parameter of ChatRequest must be a positive integer"),
        ({"stop": ("",)}, "'stop' parameter of ChatRequest must be a tuple of non-empty strings"),
        ({"repetition_penalty": 0}, "'repetition_penalty' parameter of ChatRequest must be"),
    ],
)
def test_bad_request_fields_are_config_errors(params, message):
    with pytest.raises(ConfigError, match=message):
        ChatRequest(**{"messages": (("user", "hi"),), **params})


def test_usage_counts_exactly_across_threads():
    usage = Usage()

    def work() -> None:
        for _ in range(1000):
            usage.add(requests=1, prompt_tokens=2)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert usage.to_json() == {
        "requests": 8000,
        "cache_hits": 0,
        "retries": 0,
        "failures": 0,
        "prompt_tokens": 16000,
        "completion_tokens": 0,
    }


def test_registry_and_make_client_errors():
    assert LLM_CLIENTS.names() == ["hf-causal", "openai-chat"]
    with pytest.raises(UnknownComponentError, match="Did you mean 'openai-chat'"):
        make_client({"name": "openai_chat"})
    with pytest.raises(ConfigError, match="must be a mapping with a 'name' key"):
        make_client({"base_url": "http://127.0.0.1:1/v1"})
    with pytest.raises(ConfigError, match="has no parameter 'api_key'. Its parameters are"):
        make_client({"name": "openai-chat", "base_url": "http://x/v1", "model": "m", "api_key": 1})


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"base_url": "127.0.0.1:8000"}, "'base_url' parameter of openai-chat must be an http"),
        ({"model": ""}, "'model' parameter of openai-chat must be the name of a model"),
        ({"concurrency": 0}, "'concurrency' parameter of openai-chat must be a positive integer"),
        ({"timeout": 0}, "'timeout' parameter of openai-chat must be a positive float"),
        ({"max_retries": -1}, "'max_retries' parameter of openai-chat must be a non-negative"),
        ({"extra_body": [1]}, "'extra_body' parameter of openai-chat must be a mapping"),
    ],
)
def test_bad_client_parameters_are_config_errors(params, message):
    config = {"name": "openai-chat", "base_url": "http://127.0.0.1:1/v1", "model": "m", **params}
    with pytest.raises(ConfigError, match=message):
        make_client(config)


def test_complete_refuses_plain_strings_and_clients_pickle_as_their_parameters(tmp_path):
    client = make_client(
        {"name": "openai-chat", "base_url": "http://127.0.0.1:1/v1/", "model": "m", "cache": None}
    )
    with pytest.raises(ConfigError, match="item 0 is a str. Wrap prompts as ChatRequest"):
        client.complete(["hello"])
    copy = pickle.loads(pickle.dumps(client))
    assert copy.get_params() == client.get_params()
    assert copy.identity() == client.identity() == "openai-chat|http://127.0.0.1:1/v1|m"
    client.close()


def test_the_cache_keeps_first_answers_and_is_shared_by_connections(tmp_path):
    path = tmp_path / "shared.sqlite"
    assert resolve_cache_path(None).name == "llm-cache.sqlite"
    assert resolve_cache_path(path) == path
    caches = [ResponseCache(path) for _ in range(4)]  # four connections, like four processes

    def write(worker: int) -> None:
        for i in range(200):
            caches[worker].put(f"k{i}", CachedResponse(f"w{worker}", 1, 1))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    found = caches[0].get([f"k{i}" for i in range(200)])
    assert len(found) == 200 == len(caches[3])
    assert all(found[f"k{i}"] == caches[2].get([f"k{i}"])[f"k{i}"] for i in range(200))
    with pytest.raises(ValueError, match="only successful answers"):
        caches[0].put("failed", ChatResponse(None, error="HTTP 500"))
    for cache in caches:
        cache.close()
