"""A real OpenAI-compatible HTTP server on localhost, for tests, benchmarks and offline demos.

``POST /v1/chat/completions`` answers with a pluggable ``backend(messages, params) -> text`` and
``GET /v1/models`` lists the one model; an optional bearer key, a fixed latency and a
:class:`FaultPlan` make it behave like a busy paid API. Run it alone with
``shortcutlab llm-server --port 8000 [--train data.csv] [--latency 0.05] [--rate-429 0.1 ...]``.

Examples:
    >>> import httpx
    >>> with ChatServer() as server:
    ...     body = {"model": "shortcutlab-test", "messages": [{"role": "user", "content": "hi there"}]}
    ...     httpx.post(server.url + "/chat/completions", json=body).json()["choices"][0]["message"]["content"]
    'hi there'
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.params import check_non_negative_float
from shortcutlab.serving.faults import FaultPlan, ServerStats, prompt_key

Backend = Callable[[list[dict[str, Any]], dict[str, Any]], str]
_BROKEN_JSON = b'{"id": "chatcmpl-broken", "choices": [{"message": {"content": "'


def echo_backend(messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    """The last user message's first ``max_tokens`` words: deterministic, and distinct per prompt."""
    last = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
    words = str(last).split()
    limit = params.get("max_tokens")
    return " ".join(words[:limit] if isinstance(limit, int) and limit > 0 else words)


class ChatServer:
    """Serves ``model`` with ``backend`` on ``host:port`` (0 = a free port) in a background thread."""

    def __init__(
        self,
        backend: Backend = echo_backend,
        *,
        model: str = "shortcutlab-test",
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str | None = None,
        latency: float = 0.0,
        faults: FaultPlan | None = None,
    ) -> None:
        check_non_negative_float("ChatServer", "latency", latency)
        self.backend = backend
        self.model = model
        self.host = host
        self.port = port
        self.api_key = api_key
        self.latency = latency
        self.faults = faults
        self.stats = ServerStats()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base_url clients use, e.g. ``http://127.0.0.1:54321/v1``."""
        if self._httpd is None:
            raise RuntimeError("ChatServer is not running; call start() or use it in a with block")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> ChatServer:
        """Bind the socket and serve in a daemon thread."""
        if self._httpd is not None:
            return self
        try:
            self._httpd = _HTTPServer((self.host, self.port), _Handler)
        except OSError as exc:
            raise ConfigError(
                f"ChatServer cannot listen on {self.host}:{self.port} ({exc.strerror or exc}). "
                "Pick another port, or port 0 for a free one."
            ) from exc
        self._httpd.chat = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="shortcutlab-chat-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting requests and close the socket (handlers still sleeping are abandoned)."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()
        self._httpd, self._thread = None, None

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True  # a handler stalled by a "timeout" fault must not hold up stop()
    # The default backlog of 5 drops the SYNs of a burst of new connections, which then wait
    # for the kernel's 1 s retransmit: a fake slowness a concurrency test would measure.
    request_queue_size = 256
    chat: ChatServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so clients can reuse pooled connections
    # Headers and body leave in separate writes; with Nagle on, the body waits for the client's
    # delayed ACK (40 ms on Linux), a latency no real server adds.
    disable_nagle_algorithm = True
    server: _HTTPServer

    def do_GET(self) -> None:  # noqa: N802 (the http.server naming)
        chat = self.server.chat
        if self.path.rstrip("/") != "/v1/models":
            return self._error(404, f"No route GET {self.path}.", "not_found")
        if self._authorised():
            entry = {"id": chat.model, "object": "model", "created": 0, "owned_by": "shortcutlab"}
            self._json(200, {"object": "list", "data": [entry]})

    def do_POST(self) -> None:  # noqa: N802
        chat = self.server.chat
        with chat.stats.in_flight():
            self._chat_completion(chat)

    def _chat_completion(self, chat: ChatServer) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.rstrip("/") != "/v1/chat/completions":
            return self._error(404, f"No route POST {self.path}.", "not_found")
        try:
            body = json.loads(raw)
            messages = body["messages"]
            if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
                raise TypeError("messages must be a list of objects")
        except (
            ValueError,
            KeyError,
            TypeError,
            RecursionError,
        ) as exc:  # RecursionError: deep JSON
            chat.stats.record_request(None)
            return self._error(400, f"Invalid request body: {exc}.", "invalid_request_error")
        key = prompt_key(body)
        attempt = chat.stats.record_request(key)
        if not self._authorised():
            return
        if body.get("model") != chat.model:
            return self._error(
                404, f"The model {body.get('model')!r} does not exist.", "model_not_found"
            )
        fault = chat.faults.decide(key, attempt) if chat.faults else None
        if chat.latency:
            time.sleep(chat.latency)
        if chat.faults is not None and fault is not None:
            chat.stats.record_fault(fault)
            return self._inject(fault, chat.faults)
        params = {name: value for name, value in body.items() if name != "messages"}
        try:
            text = chat.backend(messages, params)
        except Exception as exc:  # a backend bug is the server's 500, as on a real server
            return self._error(500, f"Backend failed: {type(exc).__name__}: {exc}", "server_error")
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages)
        completion_tokens = len(text.split())
        chat.stats.record_billable(key)  # before writing, so a client that has its answer sees it
        self._json(
            200,
            {
                "id": f"chatcmpl-{key[:12]}-{attempt}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": chat.model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            },
        )

    def _inject(self, fault: str, plan: FaultPlan) -> None:
        if fault == "429":
            headers = {} if plan.retry_after is None else {"Retry-After": f"{plan.retry_after:g}"}
            self._error(429, "Injected rate limit.", "rate_limit_exceeded", headers)
        elif fault == "500":
            self._error(500, "Injected server error.", "server_error")
        elif fault == "timeout":
            time.sleep(plan.timeout_seconds)
            self._error(504, "Injected stall, then a gateway timeout.", "timeout")
        elif fault == "malformed":
            self._send(200, _BROKEN_JSON)
        else:  # "drop": close the connection without a word
            self.close_connection = True

    def _authorised(self) -> bool:
        expected = self.server.chat.api_key
        if expected is None or self.headers.get("Authorization") == f"Bearer {expected}":
            return True
        self._error(401, "Incorrect API key provided.", "invalid_api_key")
        return False

    def _error(
        self, status: int, message: str, code: str, headers: dict[str, str] | None = None
    ) -> None:
        error = {"message": message, "type": code, "code": code}
        self._json(status, {"error": error}, headers)

    def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(payload).encode("utf-8"), headers)

    def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: tests and benchmarks read ``stats`` instead of a request log."""
