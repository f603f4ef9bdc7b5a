"""openai-chat against a real local HTTP server: concurrency, order, deduplication, the cache."""

from __future__ import annotations

import threading

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.llm import ChatRequest, ChatResponse
from shortcutlab.serving.server import ChatServer, echo_backend
from tests.llm.conftest import prompts


def test_requests_overlap_up_to_the_concurrency_and_keep_their_order(openai_client):
    with ChatServer(latency=0.2) as server:
        client = openai_client(server, concurrency=8)
        requests = prompts(32)
        responses = client.complete(requests)
    assert [r.text for r in responses] == [f"review {i} was fine overall" for i in range(32)]
    assert all(r.error is None and not r.cached for r in responses)
    # The server saw several requests at once, never more than the client's limit.
    assert 4 <= server.stats.max_in_flight <= 8
    assert server.stats.requests == client.usage.requests == 32
    assert client.usage.to_json() == {
        "requests": 32,
        "cache_hits": 0,
        "retries": 0,
        "failures": 0,
        "prompt_tokens": 32 * 5,
        "completion_tokens": 32 * 5,
    }


def test_on_done_sees_every_position_once_in_the_calling_thread(server, openai_client):
    client = openai_client(server)
    requests = prompts(10)
    seen: dict[int, ChatResponse] = {}
    threads = set()

    def on_done(index: int, response: ChatResponse) -> None:
        assert index not in seen
        seen[index] = response
        threads.add(threading.get_ident())

    responses = client.complete(requests, on_done=on_done)
    assert sorted(seen) == list(range(10))
    assert all(seen[i] is responses[i] for i in range(10))
    assert threads == {threading.get_ident()}


def test_identical_requests_in_one_call_are_sent_once(server, openai_client):
    client = openai_client(server)
    a, b, c = prompts(3)
    responses = client.complete([a, b, a, a, c, b])
    assert server.stats.requests == 3 == client.usage.requests
    assert [r.text for r in responses] == [
        "review 0 was fine overall",
        "review 1 was fine overall",
        "review 0 was fine overall",
        "review 0 was fine overall",
        "review 2 was fine overall",
        "review 1 was fine overall",
    ]
    assert responses[0] is not responses[2]  # each position gets its own object


def test_a_rerun_is_answered_from_the_cache_without_requests(server, openai_client, tmp_path):
    cache = tmp_path / "llm.sqlite"
    first = openai_client(server, cache=cache).complete(prompts(20))
    assert server.stats.requests == 20
    client = openai_client(server, cache=cache)  # a new process, in effect
    again = client.complete(prompts(20))
    assert server.stats.requests == 20
    assert [r.text for r in again] == [r.text for r in first]
    assert all(r.cached for r in again) and again[0].prompt_tokens == first[0].prompt_tokens
    assert client.usage.requests == 0 and client.usage.cache_hits == 20


class _Interrupted(Exception):
    pass


def test_an_interrupted_run_resends_nothing_it_received(openai_client, tmp_path):
    cache = tmp_path / "llm.sqlite"
    delivered: list[int] = []

    def stop_after_three(index: int, response: ChatResponse) -> None:
        delivered.append(index)
        if len(delivered) == 3:
            raise _Interrupted

    with ChatServer(latency=0.05) as server:
        with pytest.raises(_Interrupted):
            openai_client(server, cache=cache, concurrency=4).complete(
                prompts(40), stop_after_three
            )
        sent_first = server.stats.requests
        assert 3 <= sent_first < 40  # queued requests were never sent
        client = openai_client(server, cache=cache, concurrency=4)
        responses = client.complete(prompts(40))
    assert all(r.text is not None for r in responses)
    # Every answer the first run received (delivered or still in flight) was cached, so no prompt
    # was answered twice, and the re-run asked only for the rest.
    assert server.stats.duplicate_billable() == {}
    assert client.usage.cache_hits == sent_first
    assert server.stats.requests == 40


def test_request_fields_and_extra_body_reach_the_server(openai_client):
    seen: list[dict] = []

    def recording(messages: list[dict], params: dict) -> str:
        seen.append({"messages": messages, **params})
        return echo_backend(messages, params)

    with ChatServer(recording) as server:
        client = openai_client(server, extra_body={"seed": 7, "top_p": 0.5})
        request = ChatRequest(
            messages=(("system", "Answer with one word."), ("user", "Is it good?")),
            temperature=0.3,
            max_tokens=2,
            stop=("\n",),
            repetition_penalty=1.1,
        )
        [response] = client.complete([request])
    assert response.text == "Is it"
    assert seen == [
        {
            "messages": [
                {"role": "system", "content": "Answer with one word."},
                {"role": "user", "content": "Is it good?"},
            ],
            "model": "shortcutlab-test",
            "temperature": 0.3,
            "max_tokens": 2,
            "stop": ["\n"],
            "seed": 7,
            "top_p": 0.5,
        }
    ]
    assert client.identity().endswith('|{"seed": 7, "top_p": 0.5}')


def test_failures_are_reported_not_raised_and_never_cached(openai_client):
    def fragile(messages: list[dict], params: dict) -> str:
        if "boom" in messages[-1]["content"]:
            raise RuntimeError("cannot answer this one")
        return echo_backend(messages, params)

    with ChatServer(fragile) as server:
        client = openai_client(server, max_retries=2)
        requests = [*prompts(2), ChatRequest(messages=(("user", "boom"),))]
        ok_a, ok_b, failed = client.complete(requests)
        assert ok_a.text and ok_b.text
        assert failed.text is None and not failed.cached
        assert failed.error.startswith("server error (HTTP 500): Backend failed: RuntimeError")
        assert failed.error.endswith("after 3 attempts")
        assert client.usage.failures == 1 and client.usage.retries == 2
        again = client.complete(requests)
        assert [r.cached for r in again] == [True, True, False]
        assert server.stats.requests == 2 + 3 + 3  # the failed prompt was asked again


def test_other_client_errors_fail_at_once(server, openai_client):
    client = openai_client(server, model="no-such-model")  # without check(), as a careless caller
    [response] = client.complete(prompts(1))
    assert response.text is None
    assert response.error == (
        "request refused (HTTP 404 for POST /v1/chat/completions): The model 'no-such-model' "
        "does not exist."
    )  # under /v1 already: no hint about the path
    assert client.usage.to_json()["requests"] == 1 and client.usage.retries == 0


def test_a_missing_key_variable_stops_complete_before_any_request(
    server, openai_client, monkeypatch
):
    monkeypatch.delenv("SHORTCUTLAB_TEST_NO_KEY", raising=False)
    client = openai_client(server, api_key_env="SHORTCUTLAB_TEST_NO_KEY")
    with pytest.raises(ConfigError, match="environment variable SHORTCUTLAB_TEST_NO_KEY, which"):
        client.complete(prompts(3))
    assert server.stats.requests == 0
