"""The audit's LLM judge from Python: a client object as ``judge=``, a server that fails every
question, and the refusal without label names in Python's terms."""

from __future__ import annotations

import pytest

from shortcutlab.errors import BackendError, ConfigError
from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.audit.scan.features import FeatureConfig
from shortcutlab.llm import make_client
from shortcutlab.serving.faults import FaultPlan
from shortcutlab.serving.server import ChatServer
from tests.cli.test_audit_triage_cli import news

WORDS_ONLY = FeatureConfig(surface=False, attributes=(), packaged_lexicons=False)


pytestmark = pytest.mark.usefixtures("offline")


def config(server: ChatServer, **extra: object) -> dict[str, object]:
    return {
        "name": "openai-chat",
        "base_url": server.url,
        "model": "shortcutlab-test",
        "api_key_env": None,
        **extra,
    }


def test_a_client_object_judges_and_calling_every_word_a_shortcut_meets_the_encoder(tmp_path):
    data = news(tmp_path / "news.csv")
    with ChatServer(lambda messages, params: "shortcut") as server:
        client = make_client(config(server))
        result = audit_dataset(data, features=WORDS_ONLY, judge=client)
    groups = dict(zip(result.table["candidate"], result.table["group"], strict=True))
    assert groups["yesterday"] == "shortcut"  # the judge alone
    assert groups["election"] == "judgement"  # the judge against the encoder's signal
    assert result.record["triage"]["judge"]["model"] == "shortcutlab-test"


def test_a_server_that_fails_every_question_stops_the_audit(tmp_path):
    data = news(tmp_path / "news.csv")
    with ChatServer(faults=FaultPlan(rate_500=1.0)) as server:
        with pytest.raises(
            BackendError,
            match=r"^\d+ of \d+ label-name questions to openai-chat\|.+ got no answer "
            r"\(first: server error \(HTTP 500\)",
        ):
            audit_dataset(data, features=WORDS_ONLY, judge=config(server, max_retries=0))


def test_without_label_names_the_judge_is_refused_in_pythons_terms(tmp_path):
    data = news(tmp_path / "news.csv", labels=("0", "1"))
    with ChatServer() as server:
        with pytest.raises(
            ConfigError,
            match=r"^judge=\.\.\. asks whether a word makes a text belong to its label's name, "
            r"and the labels have none: give label_names=\.\.\. \(or write",
        ):
            audit_dataset(data, features=WORDS_ONLY, judge=config(server))
