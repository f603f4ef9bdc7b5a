"""The HTTP boundary of ``openai-chat``: one POST, with httpx failures mapped onto BackendError.

Everything that may succeed on a later attempt (HTTP 429, 408 and 5xx, timeouts, dropped
connections, bodies that are not the JSON we expect) comes out as a retryable error; other
answers (400, 401, 404, ...) as a final one. Retry pauses are capped exponential backoff with
full jitter, or what the server asked for in ``Retry-After``.

Examples:
    >>> import random
    >>> retry_delay(3, 0.5, None, random.Random(0)) <= 0.5 * 2**3
    True
    >>> retry_delay(0, 0.5, 2.0, random.Random(0)), parse_retry_after("1.5"), parse_retry_after("soon")
    (2.0, 1.5, None)
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from shortcutlab.errors import BackendError, RateLimited, Timeout

MAX_DELAY = 60.0  # seconds; neither backoff nor a server's Retry-After makes a worker wait longer
_RETRYABLE_STATUS = {408}  # "request timeout": a timeout like any other
_SNIPPET = 200


@dataclass(frozen=True)
class ChatReply:
    """The useful part of a chat-completions answer."""

    text: str
    prompt_tokens: int
    completion_tokens: int


def post_chat(
    client: httpx.Client,
    url: str,
    headers: dict[str, str],
    body: dict[str, Any],
    *,
    timeout: float,
) -> ChatReply:
    """POST ``body`` to ``url`` and return the first choice's text, or raise a BackendError."""
    try:
        response = client.post(url, json=body, headers=headers)
    except httpx.TimeoutException as exc:
        raise Timeout(f"no answer within {timeout} s ({type(exc).__name__})") from exc
    except httpx.TransportError as exc:  # refused, reset or dropped connections
        raise BackendError(f"connection failed: {transport_reason(exc)}", retryable=True) from exc
    except httpx.RequestError as exc:  # undecodable content, too many redirects
        raise BackendError(f"request failed: {transport_reason(exc)}") from exc
    status = response.status_code
    if status == 429:
        raise RateLimited(
            f"rate limited (HTTP 429): {_error_message(response)}",
            retry_after=_retry_after(response),
        )
    if status >= 500 or status in _RETRYABLE_STATUS:
        raise BackendError(
            f"server error (HTTP {status}): {_error_message(response)}",
            retryable=True,
            retry_after=_retry_after(response),
        )
    if status == 404:
        raise BackendError(_not_found(url, _error_message(response)))
    if status >= 300:
        raise BackendError(f"request refused (HTTP {status}): {_error_message(response)}")
    try:
        payload = response.json()
        content = payload["choices"][0]["message"]["content"]
        if not isinstance(content, str):
            raise TypeError(f"message content is {type(content).__name__}, not a string")
        usage = payload.get("usage") or {}
        return ChatReply(
            content,
            int(usage.get("prompt_tokens") or 0),
            int(usage.get("completion_tokens") or 0),
        )
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise BackendError(
            f"malformed response body ({type(exc).__name__}): {_snippet(response.text)!r}",
            retryable=True,
        ) from exc


def models_served(response: httpx.Response) -> list[str] | None:
    """Model ids of a GET /models answer, or None when the body is not the usual shape."""
    try:
        return sorted(str(entry["id"]) for entry in response.json()["data"])
    except (ValueError, KeyError, TypeError):
        return None


def retry_delay(
    attempt: int, backoff: float, retry_after: float | None, rng: random.Random
) -> float:
    """Seconds to wait before retry ``attempt + 1``: full jitter, at least what the server asked."""
    jittered = rng.uniform(0.0, min(MAX_DELAY, backoff * 2.0**attempt))
    return min(MAX_DELAY, max(retry_after or 0.0, jittered))


def parse_retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` value (seconds or an HTTP date) in seconds from now; None if unusable."""
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _retry_after(response: httpx.Response) -> float | None:
    milliseconds = parse_retry_after(response.headers.get("retry-after-ms"))  # OpenAI's variant
    if milliseconds is not None:
        return milliseconds / 1000
    return parse_retry_after(response.headers.get("retry-after"))


def _not_found(url: str, message: str) -> str:
    """A 404's error: the path that was tried and, when it is not under /v1, where
    OpenAI-compatible servers usually answer (a base_url missing its /v1 fails every request).

    Examples:
        >>> _not_found("http://127.0.0.1:8000/chat/completions", "Not Found")
        'request refused (HTTP 404 for POST /chat/completions): Not Found. OpenAI-compatible servers usually answer under /v1: check that base_url ends in /v1, e.g. http://127.0.0.1:8000/v1'
    """
    parts = urlsplit(url)
    text = f"request refused (HTTP 404 for POST {parts.path}): {message}"
    if "/v1/" in parts.path:
        return text
    base = f"{parts.scheme}://{parts.netloc}{parts.path.rpartition('/chat/completions')[0]}"
    return (
        f"{text.rstrip('.')}. OpenAI-compatible servers usually answer under /v1: check that "
        f"base_url ends in /v1, e.g. {base}/v1"
    )


def _error_message(response: httpx.Response) -> str:
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = response.text
    return _snippet(str(message)) or response.reason_phrase or "no message"


def _snippet(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _SNIPPET else line[: _SNIPPET - 3] + "..."


def transport_reason(exc: Exception) -> str:
    """One line saying why a connection failed ("connection refused" rather than errno text)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return "connection refused" if "refused" in text.lower() else text
