"""The HTTP boundary: httpx failures and bad answers map onto BackendError; retry pauses."""

from __future__ import annotations

import email.utils
import json
import random
import time

import httpx
import pytest

from shortcutlab.errors import BackendError, RateLimited, ShortcutlabError, Timeout
from shortcutlab.llm.http import MAX_DELAY, parse_retry_after, post_chat, retry_delay
from shortcutlab.serving.faults import FaultPlan
from shortcutlab.serving.server import ChatServer

BODY = {"model": "shortcutlab-test", "messages": [{"role": "user", "content": "is it good"}]}


def post(url: str, timeout: float = 5.0, body: dict | None = None):
    with httpx.Client(timeout=timeout) as client:
        return post_chat(client, f"{url}/chat/completions", {}, body or BODY, timeout=timeout)


def fault_error(kind: str, timeout: float = 5.0, **plan: float) -> BackendError:
    with ChatServer(faults=FaultPlan(**{f"rate_{kind}": 1.0}, **plan)) as server:
        with pytest.raises(BackendError) as caught:
            post(server.url, timeout=timeout)
    return caught.value


def test_a_good_answer_is_parsed(server):
    reply = post(server.url)
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens) == ("is it good", 3, 3)


def test_a_refused_connection_is_a_retryable_backend_error():
    with ChatServer() as stopped:
        url = stopped.url
    with pytest.raises(BackendError, match="connection failed: .*refused") as caught:
        post(url)
    assert caught.value.retryable and isinstance(caught.value.__cause__, httpx.ConnectError)
    assert isinstance(caught.value, ShortcutlabError) and isinstance(caught.value, RuntimeError)


def test_a_stall_is_a_timeout():
    error = fault_error("timeout", timeout=0.3, timeout_seconds=1.0)
    assert isinstance(error, Timeout) and isinstance(error, TimeoutError) and error.retryable
    assert isinstance(error.__cause__, httpx.TimeoutException)
    assert str(error) == "no answer within 0.3 s (ReadTimeout)"


def test_a_dropped_connection_is_retryable():
    error = fault_error("drop")
    assert type(error) is BackendError and error.retryable
    assert isinstance(error.__cause__, httpx.RemoteProtocolError)


def test_a_malformed_body_is_retryable():
    error = fault_error("malformed")
    assert error.retryable and isinstance(error.__cause__, json.JSONDecodeError)
    assert str(error).startswith('malformed response body (JSONDecodeError): \'{"id": ')


def test_rate_limits_carry_retry_after_and_server_errors_are_retryable():
    limited = fault_error("429", retry_after=0.25)
    assert isinstance(limited, RateLimited) and limited.retry_after == 0.25
    assert str(limited) == "rate limited (HTTP 429): Injected rate limit."
    server_error = fault_error("500")
    assert server_error.retryable and server_error.retry_after is None


def test_other_4xx_answers_are_final(server):
    with pytest.raises(
        BackendError, match=r"request refused \(HTTP 404 for POST /v1/chat/completions\)"
    ) as caught:
        post(server.url, body={**BODY, "model": "other"})
    assert not caught.value.retryable
    with pytest.raises(BackendError, match=r"HTTP 400\): Invalid request body") as caught:
        post(server.url, body={"model": "shortcutlab-test"})
    assert not caught.value.retryable


def test_retry_delays_are_jittered_capped_and_honour_retry_after():
    rng = random.Random(0)
    delays = [retry_delay(attempt, 0.5, None, rng) for attempt in range(6) for _ in range(50)]
    for attempt in range(6):
        chunk = delays[attempt * 50 : (attempt + 1) * 50]
        assert all(0 <= d <= 0.5 * 2**attempt for d in chunk) and len(set(chunk)) == 50
    assert all(retry_delay(20, 0.5, None, rng) <= MAX_DELAY for _ in range(20))
    assert retry_delay(0, 0.5, 3.0, rng) == 3.0  # the server's wish beats a shorter jitter
    assert retry_delay(0, 0.5, 3600.0, rng) == MAX_DELAY


def test_retry_after_values():
    assert parse_retry_after("2") == 2.0 and parse_retry_after("0.5") == 0.5
    assert parse_retry_after(None) is None and parse_retry_after("later") is None
    assert parse_retry_after("-3") == 0.0
    in_ten_seconds = email.utils.formatdate(time.time() + 10, usegmt=True)
    assert 5 < parse_retry_after(in_ten_seconds) <= 10
