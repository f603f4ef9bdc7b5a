"""``openai-chat``: any OpenAI-compatible chat-completions server (OpenAI, vLLM, llama.cpp, TGI, ...).

Requests run concurrently on a thread pool over one shared httpx connection pool. Rate limits,
server errors, timeouts, dropped connections and malformed bodies are retried with capped
exponential backoff and full jitter (honouring ``Retry-After``); other 4xx answers fail at once.
The API key is read from the environment variable named by ``api_key_env`` at call time and is
never stored: not in ``identity()``, ``repr``, errors or results.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from shortcutlab.errors import BackendError, ConfigError, listed
from shortcutlab.llm.base import ChatRequest, ChatResponse, LLMClient
from shortcutlab.llm.http import (
    ChatReply,
    models_served,
    post_chat,
    retry_delay,
    transport_reason,
)
from shortcutlab.params import (
    check_non_negative_float,
    check_non_negative_int,
    check_positive_float,
    check_positive_int,
    quoted,
    require,
)

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOT_IMPLEMENTED = (404, 405, 501)  # GET /models is optional for OpenAI-compatible servers


class OpenAIChatClient(LLMClient):
    """Chat completions from ``model`` at ``base_url`` (e.g. "http://127.0.0.1:8000/v1")."""

    name = "openai-chat"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key_env: str | None = "OPENAI_API_KEY",
        concurrency: int = 16,
        timeout: float = 30.0,
        max_retries: int = 6,
        backoff: float = 0.5,
        cache: str | Path | None = None,
        extra_body: Mapping[str, Any] | None = None,
        honours_seed: bool = False,
    ) -> None:
        super().__init__()
        self.base_url = base_url
        self.model = model
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.cache = cache
        self.extra_body = extra_body
        self.honours_seed = honours_seed
        self._validate()
        self._http: httpx.Client | None = None
        self._http_lock = threading.Lock()
        self._random = random.Random()  # jitter only; never the global generator

    def identity(self) -> str:
        identity = f"{self.name}|{self._base()}|{self.model}"
        if self.extra_body:  # extra sampling options change the answers, so they key the cache
            identity += "|" + json.dumps(dict(self.extra_body), sort_keys=True, default=str)
        return identity

    def check(self) -> None:
        """Refuse early: a missing key variable, an unreachable server, a refused key, an unknown model."""
        headers = self._headers()
        url = f"{self._base()}/models"
        try:
            response = self._client().get(url, headers=headers)
        except httpx.TimeoutException as exc:
            raise ConfigError(
                f"The LLM server at {self._base()} did not answer GET /models within "
                f"{self.timeout} s. Check base_url, or raise the 'timeout' parameter."
            ) from exc
        except httpx.TransportError as exc:
            raise ConfigError(
                f"Cannot reach the LLM server at {self._base()}: {transport_reason(exc)}. "
                "Check base_url or start the server."
            ) from exc
        if response.status_code in (401, 403):
            where = (
                f"the key in ${self.api_key_env}"
                if self.api_key_env
                else "requests without a key (api_key_env is None)"
            )
            raise ConfigError(
                f"The LLM server at {self._base()} refused {where} (HTTP {response.status_code}). "
                "Check the key and its permissions, or the 'api_key_env' parameter."
            )
        if response.status_code in _NOT_IMPLEMENTED:
            return
        if response.status_code >= 400:
            raise ConfigError(
                f"The LLM server at {self._base()} answered GET /models with HTTP "
                f"{response.status_code}. Check base_url (it usually ends in /v1) and the "
                "server's logs."
            )
        served = models_served(response)
        if served is not None and self.model not in served:
            raise ConfigError(
                f"The server at {self._base()} has no model {quoted(self.model)}. Models it serves: "
                f"{listed(served) or 'none'}. Set the 'model' parameter to one of them."
            )

    def close(self) -> None:
        with self._http_lock:
            if self._http is not None:
                self._http.close()
                self._http = None
        super().close()

    def _generate(
        self, requests: list[ChatRequest], save: Callable[[int, ChatResponse], None]
    ) -> Iterator[tuple[int, ChatResponse]]:
        headers = self._headers()  # read the key once per call, and fail before sending anything
        client = self._client()
        stopping = threading.Event()

        def answer(index: int, request: ChatRequest) -> ChatResponse:
            response = self._complete_one(client, headers, request, stopping)
            save(index, response)  # here, not in the caller: an answer received is never lost
            return response

        workers = min(self.concurrency, len(requests))
        with ThreadPoolExecutor(workers, thread_name_prefix="shortcutlab-llm") as pool:
            futures = {
                pool.submit(answer, index, request): index for index, request in enumerate(requests)
            }
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                # Stopped early (an exception, Ctrl-C): start nothing new and retry nothing, but
                # let requests already on the wire finish (within `timeout`) and save them.
                stopping.set()
                for future in futures:
                    future.cancel()

    def _complete_one(
        self,
        client: httpx.Client,
        headers: dict[str, str],
        request: ChatRequest,
        stopping: threading.Event,
    ) -> ChatResponse:
        """Send one request, retrying what may succeed later; never raises a BackendError."""
        url = f"{self._base()}/chat/completions"
        body = self._body(request)
        attempt = 0
        while True:
            self.usage.add(requests=1)
            try:
                reply: ChatReply = post_chat(client, url, headers, body, timeout=self.timeout)
            except BackendError as exc:
                if not exc.retryable or attempt >= self.max_retries:
                    self.usage.add(failures=1)
                    tries = f" after {attempt + 1} attempts" if attempt else ""
                    return ChatResponse(None, error=self._redact(f"{exc}{tries}"))
                delay = retry_delay(attempt, self.backoff, exc.retry_after, self._random)
                if stopping.wait(delay):
                    self.usage.add(failures=1)
                    return ChatResponse(None, error=self._redact(f"{exc}; not retried (stopped)"))
                self.usage.add(retries=1)
                attempt += 1
                continue
            self.usage.add(
                prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens
            )
            return ChatResponse(
                reply.text,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
            )

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": role, "content": content} for role, content in request.messages],
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        }
        if request.stop:
            body["stop"] = list(request.stop)
        if request.seed is not None:  # OpenAI's (best-effort) reproducible sampling
            body["seed"] = request.seed
        # repetition_penalty is not an OpenAI field; servers that know it (vLLM) take it from
        # extra_body, so a request's own value is not sent to servers that would reject it.
        body.update(self.extra_body or {})
        return body

    def _headers(self) -> dict[str, str]:
        if self.api_key_env is None:
            return {}
        key = os.environ.get(self.api_key_env, "").strip()
        if not key:
            raise ConfigError(
                f"The 'api_key_env' parameter of {self.name} names the environment variable "
                f"{self.api_key_env}, which is not set or empty. Set it to the API key, or pass "
                "api_key_env=None for a local server without keys."
            )
        return {"Authorization": f"Bearer {key}"}

    def _redact(self, text: str) -> str:
        """Belt and braces: a server could echo the key back in an error body."""
        key = os.environ.get(self.api_key_env, "").strip() if self.api_key_env else ""
        return text.replace(key, "[redacted]") if len(key) >= 4 else text

    def _client(self) -> httpx.Client:
        with self._http_lock:
            if self._http is None:
                limits = httpx.Limits(
                    max_connections=self.concurrency, max_keepalive_connections=self.concurrency
                )
                self._http = httpx.Client(timeout=self.timeout, limits=limits)
            return self._http

    def _base(self) -> str:
        return self.base_url.rstrip("/")

    def _validate(self) -> None:
        owner = self.name
        parts = urlsplit(self.base_url) if isinstance(self.base_url, str) else None
        require(
            parts is not None and parts.scheme in ("http", "https") and bool(parts.netloc),
            owner,
            "base_url",
            "an http(s) URL such as 'http://127.0.0.1:8000/v1'",
            self.base_url,
        )
        valid = isinstance(self.model, str) and self.model != ""
        require(valid, owner, "model", "the name of a model the server serves", self.model)
        env = self.api_key_env
        if env is not None and not (isinstance(env, str) and _ENV_NAME.fullmatch(env)):
            # Never echo the value: it may be the key itself, passed by mistake.
            raise ConfigError(
                f"The 'api_key_env' parameter of {owner} must be the name of an environment "
                "variable (letters, digits and underscores) that holds the key, not the key "
                "itself, or None for a server without keys."
            )
        check_positive_int(owner, "concurrency", self.concurrency)
        check_positive_float(owner, "timeout", self.timeout)
        check_non_negative_int(owner, "max_retries", self.max_retries)
        check_non_negative_float(owner, "backoff", self.backoff)
        require(
            isinstance(self.honours_seed, bool),
            owner,
            "honours_seed",
            "true or false",
            self.honours_seed,
        )
        valid = self.extra_body is None or isinstance(self.extra_body, Mapping)
        require(
            valid, owner, "extra_body", "a mapping of extra request fields or None", self.extra_body
        )
