"""``audit --judge``: an LLM, served by the project's local OpenAI-compatible server, asked whether
each content word the triage leaves open is its label's signal; and the refusals of a bad judge."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from shortcutlab.serving.server import ChatServer
from tests.cli.refusals import assert_refused, invoke
from tests.cli.test_audit_triage_cli import QUIET, _groups, _section, news

#: The scripted judge's answers; any other word is "signal". "match" gets a sentence, which is
#: no answer.
ANSWERS = {"yesterday": "Shortcut.", "football": "shortcut", "match": "I would say signal"}


pytestmark = pytest.mark.usefixtures("offline")


class ScriptedJudge:
    """A chat backend that answers the judge's question from :data:`ANSWERS` and keeps what it
    was asked (the word, and the request's settings)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
        word = re.search(r'the word or phrase "([^"]+)"', messages[-1]["content"])
        assert word is not None, messages
        self.asked.append((word.group(1), params))
        return ANSWERS.get(word.group(1), "signal")


@pytest.fixture
def judged() -> Iterator[tuple[ChatServer, ScriptedJudge]]:
    backend = ScriptedJudge()
    with ChatServer(backend) as server:
        yield server, backend


def spec(base_url: str, **extra: str) -> str:
    options = "".join(f", {key}: {value}" for key, value in extra.items())
    return f"{{name: openai-chat, base_url: '{base_url}', model: shortcutlab-test, api_key_env: null{options}}}"


def test_the_judge_settles_open_words_and_a_disagreement_is_left_to_a_person(tmp_path, judged):
    server, backend = judged
    data = news(tmp_path / "news.csv")
    command = ("audit", data, *QUIET, "--seed", 3, "--judge", spec(server.url, honours_seed="true"))
    result = invoke(*command, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    groups = _groups(tmp_path / "out")
    # Nothing but the judge settles the planted filler word: a shortcut now, not "judgement".
    assert groups["yesterday"] == ("shortcut", "evidence")
    assert _section(result.stdout, "Likely shortcuts (").splitlines()[1] == (
        "  yesterday: label sports · The LLM judge shortcutlab-test answers shortcut: "
        "'yesterday' could as well appear in a text of any label."
    )
    # The encoder finds 'football' near 'sports', the judge calls it a shortcut: a person decides.
    assert groups["football"] == ("judgement", "evidence")
    waiting = _section(result.stdout, "Needs your judgement (")
    assert "'football' is nearer 'sports' than any other label's name" in waiting
    assert "The LLM judge shortcutlab-test answers shortcut: 'football' could as well" in waiting
    # Both agree on 'election'; 'match' got a sentence, so the encoder alone placed it.
    assert groups["election"] == groups["match"] == ("signal", "evidence")
    record = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    evidence = {c["candidate"]: c["group_evidence"] for c in record["candidates"]}
    assert evidence["election"][-1] == {
        "name": "LLM judge",
        "value": "signal",
        "points_to": "signal",
        "text": "The LLM judge shortcutlab-test answers signal: 'election' is part of what "
        "makes a text 'politics'.",
    }
    assert "LLM judge" not in [item["name"] for item in evidence["match"]]
    asked = len(backend.asked)
    assert record["triage"]["judge"] == {
        "client": "openai-chat",
        "model": "shortcutlab-test",
        "asked": asked,
        "answered": asked - 1,
        "unreadable": 1,
        "failed": 0,
    }
    assert (
        f"LLM judge openai-chat shortcutlab-test: asked about {asked} open candidates, "
        f"{asked - 1} answered; 1 answer was neither 'signal' nor 'shortcut' and gives no "
        "evidence." in result.stdout
    )
    # Asked about the words left open only (no discourse marker, no filler number twice), at
    # temperature 0 with the audit's seed, for one word.
    words = [word for word, _ in backend.asked]
    assert {"yesterday", "football", "election", "match"} <= set(words)
    assert len(set(words)) == len(words)
    assert {(p["temperature"], p["seed"], p["max_tokens"]) for _, p in backend.asked} == {
        (0.0, 3, 4)
    }
    # A second audit reads the answers from the client's cache: the server is asked nothing.
    again = invoke(*command, "--out", tmp_path / "again")
    assert again.exit_code == 0, again.output
    assert len(backend.asked) == asked
    assert _groups(tmp_path / "again") == groups


def test_a_bad_judge_is_refused_before_anything_is_written(tmp_path, judged):
    server, _ = judged
    data = news(tmp_path / "news.csv")
    out = tmp_path / "out"
    assert_refused(
        tmp_path,
        "--judge asks whether a word makes a text belong to its label's name, and the labels "
        "have none: give --label-name (or write the labels as words).",
        "audit", news(tmp_path / "numbered.csv", labels=("0", "1")), *QUIET,
        "--judge", spec(server.url), "--out", out,
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "Unknown LLM client 'openai-chatt'. Did you mean 'openai-chat'?",
        "audit", data, *QUIET, "--judge", "{name: openai-chatt}", "--out", out,
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "The openai-chat LLM client has no parameter 'temprature'.",
        "audit", data, *QUIET, "--judge", spec(server.url, temprature="0"), "--out", out,
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "Cannot reach the LLM server at http://127.0.0.1:1/v1: connection refused. Check "
        "base_url or start the server.",
        "audit", data, *QUIET, "--judge", spec("http://127.0.0.1:1/v1"), "--out", out,
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "--judge must be a YAML mapping like '{name: openai-chat, base_url: URL, model: NAME}'. "
        "Got 'openai-chat' instead.",
        "audit", data, *QUIET, "--judge", "openai-chat", "--out", out,
    )  # fmt: skip
