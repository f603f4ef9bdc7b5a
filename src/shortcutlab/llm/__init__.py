"""LLM clients behind one contract: cached, deduplicated, concurrent chat completions.

``openai-chat`` talks to any OpenAI-compatible server, ``hf-causal`` runs a local causal LM; both
load lazily, so importing this package costs neither httpx nor torch. The local OpenAI-compatible
server they are tested against is :mod:`shortcutlab.serving`. This package imports only the
bottom layer (errors, params, cache paths, data); models, attributes and rewriters import it.

Examples:
    >>> LLM_CLIENTS.names()
    ['hf-causal', 'openai-chat']
    >>> make_client({"name": "openai-chat", "base_url": "http://127.0.0.1:9/v1", "model": "m", "temprature": 0})
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The openai-chat LLM client has no parameter 'temprature'. Its parameters are: base_url, model, api_key_env, concurrency, timeout, max_retries, backoff, cache, extra_body, honours_seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.llm.base import ChatRequest, ChatResponse, LLMClient, Usage
from shortcutlab.params import quoted
from shortcutlab.registry import Registry

#: ``operational``: the options that change how a client runs (where answers are cached, how
#: many requests fly at once, how long it waits), not what it answers; result labels leave them out.
#: ``model_option``: the option naming the model that answers (records and sentences show it).
LLM_CLIENTS: Registry[type[LLMClient]] = Registry(
    "LLM client", capabilities={"operational": (), "model_option": "model"}
)
LLM_CLIENTS.add(
    "openai-chat",
    "shortcutlab.llm.openai_chat:OpenAIChatClient",
    operational=("api_key_env", "concurrency", "timeout", "max_retries", "backoff", "cache"),
)
LLM_CLIENTS.add(
    "hf-causal",
    "shortcutlab.llm.hf_causal:HFCausalClient",
    operational=("batch_size", "device", "cache"),
    model_option="path",
)


def client_operational(option: str) -> tuple[str, ...]:
    """The operational options of every client, as dotted names under the component option
    ``option`` that holds a client config (``client.cache``, ...), for a component's registry line.

    Examples:
        >>> client_operational("client")[:2]
        ('client.api_key_env', 'client.backoff')
    """
    names = {o for client in LLM_CLIENTS for o in LLM_CLIENTS.capabilities(client)["operational"]}
    return tuple(f"{option}.{name}" for name in sorted(names))


def client_model(client: LLMClient) -> str:
    """The model ``client`` answers with, as its config names it (a client class of its own,
    not registered: its identity).

    Examples:
        >>> client_model(make_client({"name": "openai-chat", "base_url": "http://127.0.0.1:9/v1", "model": "m"}))
        'm'
    """
    if client.name not in LLM_CLIENTS.names():
        return client.identity()
    return str(client.get_params()[LLM_CLIENTS.capabilities(client.name)["model_option"]])


def make_client(config: Mapping[str, Any]) -> LLMClient:
    """Build the client ``config["name"]``; the other keys map 1:1 onto its constructor."""
    if not isinstance(config, Mapping) or "name" not in config:
        raise ConfigError(
            "An LLM client config must be a mapping with a 'name' key (one of "
            f"{', '.join(LLM_CLIENTS.names())}) and the client's parameters. Got {quoted(config)} instead."
        )
    params = {key: value for key, value in config.items() if key != "name"}
    return LLM_CLIENTS.create(config["name"], params)


__all__ = [
    "LLM_CLIENTS",
    "ChatRequest",
    "ChatResponse",
    "LLMClient",
    "Usage",
    "client_model",
    "client_operational",
    "make_client",
]
