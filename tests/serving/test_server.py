"""The local test server itself: routes, keys, errors, statistics and its command line."""

from __future__ import annotations

import httpx
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.serving.faults import prompt_key
from shortcutlab.serving.server import ChatServer, echo_backend
from tests.cli.refusals import assert_refused

BODY = {"model": "shortcutlab-test", "messages": [{"role": "user", "content": "one two three"}]}


def test_models_and_completions_follow_the_openai_shapes(server):
    models = httpx.get(f"{server.url}/models").json()
    assert [m["id"] for m in models["data"]] == ["shortcutlab-test"]
    answer = httpx.post(f"{server.url}/chat/completions", json={**BODY, "max_tokens": 2}).json()
    assert answer["object"] == "chat.completion"
    assert answer["choices"][0]["message"] == {"role": "assistant", "content": "one two"}
    assert answer["usage"] == {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    key = prompt_key({**BODY, "max_tokens": 2})
    assert server.stats.requests_by_prompt == {key: 1} == server.stats.billable_by_prompt


def test_errors_use_the_openai_error_shape(server):
    url = f"{server.url}/chat/completions"
    assert httpx.post(f"{server.url}/completions", json=BODY).status_code == 404
    bad_json = httpx.post(url, content=b"{not json")
    assert (
        bad_json.status_code == 400 and bad_json.json()["error"]["type"] == "invalid_request_error"
    )
    too_deep = httpx.post(url, content=b"[" * 20_000)  # past json.loads' recursion limit
    assert (
        too_deep.status_code == 400 and too_deep.json()["error"]["type"] == "invalid_request_error"
    )
    unknown = httpx.post(url, json={**BODY, "model": "gpt-4o"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "model_not_found"
    assert server.stats.requests == 3 and server.stats.billable_by_prompt == {}


def test_a_server_with_a_key_refuses_other_keys():
    with ChatServer(api_key="right") as server:
        url = f"{server.url}/chat/completions"
        assert httpx.post(url, json=BODY).status_code == 401
        wrong = httpx.post(url, json=BODY, headers={"Authorization": "Bearer wrong"})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "invalid_api_key"
        assert httpx.get(f"{server.url}/models").status_code == 401
        right = httpx.post(url, json=BODY, headers={"Authorization": "Bearer right"})
        assert right.status_code == 200


def test_a_busy_port_is_a_config_error(server, tmp_path):
    port = int(server.url.rsplit(":", 1)[1].split("/")[0])
    with pytest.raises(ConfigError, match=f"cannot listen on 127.0.0.1:{port} .*port 0"):
        ChatServer(port=port).start()
    result = assert_refused(
        tmp_path, f"cannot listen on 127.0.0.1:{port} (", "llm-server", "--port", port
    )
    assert result.stderr.strip().endswith("Pick another port, or port 0 for a free one.")
    assert result.stdout == ""  # no 'Serving ...' line for a server that never listened


def test_echo_backend_is_deterministic():
    messages = [{"role": "user", "content": "a b c"}, {"role": "assistant", "content": "x"}]
    assert (
        echo_backend(messages, {"max_tokens": 2})
        == "a b"
        == echo_backend(messages, {"max_tokens": 2})
    )
    assert echo_backend(messages, {}) == "a b c"
