"""Fixtures for LLM client tests: a real local HTTP server, clients on it, an isolated cache."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shortcutlab.llm import ChatRequest, LLMClient, make_client
from shortcutlab.serving.server import ChatServer


@pytest.fixture(autouse=True)
def isolated(offline: None) -> None:
    """Every LLM client test runs offline (tests/conftest.py)."""


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as running:
        yield running


@pytest.fixture
def openai_client() -> Iterator[Callable[..., LLMClient]]:
    """A factory of openai-chat clients for a server (no key, fast backoff); all closed afterwards."""
    made: list[LLMClient] = []

    def factory(server: ChatServer | str, **params: Any) -> LLMClient:
        """``server`` is a running ChatServer or a base_url."""
        config = {
            "name": "openai-chat",
            "base_url": server if isinstance(server, str) else server.url,
            "model": "shortcutlab-test",
            "api_key_env": None,
            "backoff": 0.01,
            **params,
        }
        made.append(make_client(config))
        return made[-1]

    yield factory
    for client in made:
        client.close()


def prompts(n: int, prefix: str = "review") -> list[ChatRequest]:
    """``n`` distinct one-message requests; the echo backend answers each with its first 5 words."""
    return [ChatRequest(messages=(("user", f"{prefix} {i} was fine overall"),)) for i in range(n)]
