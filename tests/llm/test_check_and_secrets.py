"""check() refuses bad setups early with one-line messages; the API key never leaks anywhere."""

from __future__ import annotations

import json
import logging
import pickle
import zlib

import pytest
import yaml

from shortcutlab.corpus import generate_corpus
from shortcutlab.errors import ConfigError
from shortcutlab.llm import ChatRequest, make_client
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer, echo_backend
from tests.cli.refusals import invoke
from tests.llm.conftest import prompts

SECRET = "sk-test-SECRET-0123456789"
KEY_ENV = "SHORTCUTLAB_TEST_API_KEY"


def test_check_sends_the_key_and_spends_no_completion(openai_client, monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)
    with ChatServer(api_key=SECRET) as server:  # refuses any request without this key
        openai_client(server, api_key_env=KEY_ENV).check()
        assert server.stats.requests == 0  # GET /models only: check() costs nothing billable


def test_check_names_an_unreachable_url(openai_client):
    with ChatServer() as stopped:
        url = stopped.url
    client = openai_client(url)
    with pytest.raises(ConfigError) as caught:
        client.check()
    assert str(caught.value) == (
        f"Cannot reach the LLM server at {url}: connection refused. "
        "Check base_url or start the server."
    )


@pytest.mark.parametrize("value", [None, "", "  "])
def test_check_names_a_missing_or_empty_key_variable(server, openai_client, monkeypatch, value):
    if value is None:
        monkeypatch.delenv(KEY_ENV, raising=False)
    else:
        monkeypatch.setenv(KEY_ENV, value)
    client = openai_client(server, api_key_env=KEY_ENV)
    with pytest.raises(ConfigError, match=f"names the environment variable {KEY_ENV}, which is"):
        client.check()


def test_check_lists_the_served_models_for_an_unknown_one(server, openai_client):
    with pytest.raises(ConfigError) as caught:
        openai_client(server, model="gpt-4o").check()
    assert str(caught.value) == (
        f"The server at {server.url} has no model 'gpt-4o'. Models it serves: shortcutlab-test. "
        "Set the 'model' parameter to one of them."
    )


def test_check_reports_a_refused_key(openai_client, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "not-the-right-key")
    with ChatServer(api_key=SECRET) as server:
        with pytest.raises(ConfigError, match=rf"refused the key in \${KEY_ENV} \(HTTP 401\)"):
            openai_client(server, api_key_env=KEY_ENV).check()
        with pytest.raises(ConfigError, match=r"refused requests without a key .*\(HTTP 401\)"):
            openai_client(server, api_key_env=None).check()


def test_check_skips_the_model_test_when_models_is_not_served(server, openai_client):
    unknown = openai_client(server, model="gpt-4o")
    with pytest.raises(ConfigError, match="has no model 'gpt-4o'"):
        unknown.check()
    unknown.base_url = server.url.removesuffix("/v1") + "/other/v1"  # GET .../models is a 404
    unknown.check()  # no list of models to check the name against: it passes


def test_a_key_passed_as_api_key_env_is_refused_without_echoing_it():
    with pytest.raises(ConfigError, match="not the key itself") as caught:
        make_client(
            {"name": "openai-chat", "base_url": "http://h/v1", "model": "m", "api_key_env": SECRET}
        )
    assert SECRET not in str(caught.value)


def test_the_key_appears_nowhere(openai_client, monkeypatch, tmp_path):
    monkeypatch.setenv(KEY_ENV, SECRET)

    def leaky(messages: list[dict], params: dict) -> str:
        if messages[-1]["content"] == "leak":  # a server that quotes the key in an error
            raise RuntimeError(f"bad key {SECRET}")
        return echo_backend(messages, params)

    faults_and_failures = [*prompts(6), ChatRequest(messages=(("user", "leak"),))]
    cache = tmp_path / "llm.sqlite"
    with ChatServer(leaky, api_key=SECRET) as server:
        client = openai_client(server, api_key_env=KEY_ENV, cache=cache, max_retries=1)
        client.check()
        responses = client.complete(faults_and_failures)
        wrong_model = openai_client(server, api_key_env=KEY_ENV, model="nope")
        with pytest.raises(ConfigError) as unknown_model:
            wrong_model.check()
        [refused] = wrong_model.complete(prompts(1))
    assert [r.text is None for r in responses] == [False] * 6 + [True]
    assert "[redacted]" in responses[-1].error and refused.error
    texts = [
        client.identity(),
        repr(client),
        str(client.get_params()),
        json.dumps(client.usage.to_json()),
        str(unknown_model.value),
        *(str(r) for r in [*responses, refused]),
    ]
    assert not [text for text in texts if SECRET in text]
    assert SECRET.encode() not in pickle.dumps(client)
    client.close()
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]


def test_a_grid_run_writes_and_logs_the_key_nowhere(monkeypatch, tmp_path, caplog):
    """Every byte a CLI run leaves (results, cache, spec copies, reports) and every log line."""
    monkeypatch.setenv(KEY_ENV, SECRET)
    caplog.set_level(logging.DEBUG)  # httpx and httpcore log requests at INFO and DEBUG
    corpus = generate_corpus(train_size=200, test_size=80, seed=2)
    answer = project_backend(ClassifierAnswers.from_table(corpus["train"]))

    def quotes_the_key_sometimes(messages: list[dict], params: dict) -> str:
        if zlib.crc32(messages[-1]["content"].encode()) % 4 == 0:  # a 500 that echoes the key
            raise RuntimeError(f"upstream refused key {SECRET}")
        return answer(messages, params)

    with ChatServer(quotes_the_key_sometimes, api_key=SECRET) as server:
        client = {
            "name": "openai-chat",
            "base_url": server.url,
            "model": "shortcutlab-test",
            "api_key_env": KEY_ENV,
            "max_retries": 0,
            "cache": str(tmp_path / "llm-cache.sqlite"),
        }
        spec = {
            "name": "keyed",
            "data": {"builtin": "reviews", "train_size": 200, "test_size": 80},
            "shortcuts": ["single-term"],
            "strengths": [1.0],
            "models": [{"name": "llm-prompt", "client": client, "confidence": True}],
            "seeds": [0],
            "bootstrap": 100,
        }
        (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
        ran = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
        reported = invoke("results", tmp_path / "run", "--out", tmp_path / "report")
    assert ran.exit_code == 0 and reported.exit_code == 0, ran.output + reported.output
    billed = sum(server.stats.billable_by_prompt.values())
    assert 0 < billed < server.stats.requests  # keyed answers, and 500s that quoted the key
    written = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert {"results.sqlite", "llm-cache.sqlite", "spec.resolved.json"} <= {p.name for p in written}
    assert [str(p) for p, data in written.items() if SECRET.encode() in data] == []
    assert SECRET not in ran.output + reported.output
    assert [r.getMessage() for r in caplog.records if SECRET in r.getMessage()] == []
