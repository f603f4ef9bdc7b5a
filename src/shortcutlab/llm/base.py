"""The LLM client contract: requests, responses, usage counters and the cached, deduplicated ``complete``.

Every client answers ``complete(requests)`` in request order. The base class looks each request up
in the response cache, sends each distinct uncached request once through the subclass's
``_generate``, stores each success the moment it arrives, from whichever thread received it (so
an interrupted run loses nothing it was sent), and hands every position its response.

Examples:
    >>> request = ChatRequest(messages=(("user", "Rate this review: great!"),))
    >>> request.key("demo") == ChatRequest(messages=[["user", "Rate this review: great!"]]).key("demo")
    True
    >>> request.key("demo") == request.key("other-model")
    False
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import inspect
import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from shortcutlab.errors import BackendError, ConfigError
from shortcutlab.llm.cache import CachedResponse, ResponseCache, resolve_cache_path
from shortcutlab.params import (
    check_non_negative_float,
    check_non_negative_int,
    check_positive_float,
    check_positive_int,
    require,
)

ROLES = ("system", "user", "assistant")
#: The share of a batch's requests that may fail for good before its answers are refused as a
#: measurement (:func:`require_answers`): past it, the numbers would describe the server.
MOST_FAILED = 0.5


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion to ask for; hashable, so identical requests can be sent once."""

    messages: tuple[tuple[str, str], ...]
    temperature: float = 0.0
    max_tokens: int = 5
    stop: tuple[str, ...] = ()
    repetition_penalty: float | None = None
    seed: int | None = None  # sent only by clients whose server honours it (see LLMClient)

    def __post_init__(self) -> None:
        # Lists become tuples and ints floats, so equal requests have equal keys however built.
        messages = _checked_messages(self.messages)
        stop = (self.stop,) if isinstance(self.stop, str) else self.stop
        require(
            isinstance(stop, tuple | list) and all(isinstance(s, str) and s for s in stop),
            "ChatRequest",
            "stop",
            "a tuple of non-empty strings",
            self.stop,
        )
        check_non_negative_float("ChatRequest", "temperature", self.temperature)
        check_positive_int("ChatRequest", "max_tokens", self.max_tokens)
        if self.repetition_penalty is not None:
            check_positive_float("ChatRequest", "repetition_penalty", self.repetition_penalty)
            object.__setattr__(self, "repetition_penalty", float(self.repetition_penalty))
        if self.seed is not None:
            check_non_negative_int("ChatRequest", "seed", self.seed)
        object.__setattr__(self, "messages", messages)
        object.__setattr__(self, "stop", tuple(stop))
        object.__setattr__(self, "temperature", float(self.temperature))

    def key(self, identity: str) -> str:
        """SHA-256 of the canonical JSON of ``identity`` and every field: the cache key."""
        record = {"identity": identity, **dataclasses.asdict(self)}
        if self.seed is None:  # keys of requests without a seed stay what they were
            del record["seed"]
        text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class ChatResponse:
    """The answer to one request; ``text`` is None when it failed for good and ``error`` says why."""

    text: str | None
    error: str | None = None
    cached: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Usage:
    """Thread-safe running totals of what a client sent; cache hits cost no tokens."""

    requests: int = 0  # HTTP requests / generate calls actually sent, retries included
    cache_hits: int = 0  # requests answered from the cache
    retries: int = 0
    failures: int = 0  # requests that failed for good
    prompt_tokens: int = 0
    completion_tokens: int = 0
    _lock: threading.Lock = field(
        default_factory=threading.Lock, init=False, repr=False, compare=False
    )

    def add(self, **counts: int) -> None:
        """Add ``counts`` (field name -> increment) atomically."""
        with self._lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)

    def to_json(self) -> dict[str, int]:
        with self._lock:
            return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}


class LLMClient(ABC):
    """Base class of LLM clients: subclasses implement ``identity`` and ``_generate``."""

    name: ClassVar[str]
    #: Set by subclass constructors: a path of the SQLite cache file, or None for the default.
    cache: str | Path | None
    #: True when the backend uses a request's ``seed``; otherwise seeds are dropped before the
    #: cache lookup, so a seed the server ignores neither splits the cache nor fakes a new draw.
    honours_seed: bool = False

    def __init__(self) -> None:
        self.usage = Usage()
        self._cache_lock = threading.Lock()
        self._response_cache: ResponseCache | None = None

    @abstractmethod
    def identity(self) -> str:
        """What determines the answers (kind, server, model): part of every cache key; never a secret."""

    def check(self) -> None:  # noqa: B027 (an optional hook)
        """Raise a ConfigError early for a backend that cannot answer (called before a run)."""

    @abstractmethod
    def _generate(
        self, requests: list[ChatRequest], save: Callable[[int, ChatResponse], None]
    ) -> Iterator[tuple[int, ChatResponse]]:
        """Answer each of ``requests`` once, yielding ``(index, response)`` as each is ready.

        Call ``save(index, response)`` (thread-safe) as soon as a response exists, before yielding
        it: answers that arrive after the caller stopped listening are still cached.
        """

    def complete(
        self,
        requests: Sequence[ChatRequest],
        on_done: Callable[[int, ChatResponse], None] | None = None,
    ) -> list[ChatResponse]:
        """Responses in the order of ``requests``; ``on_done(i, response)`` runs in this thread as each is ready.

        Cached requests are not sent, identical requests are sent once, and successes are cached
        as they arrive. A request that fails for good gets ``text=None`` and an ``error``.
        """
        requests = list(requests)
        for index, request in enumerate(requests):
            if not isinstance(request, ChatRequest):
                raise ConfigError(
                    f"complete() takes ChatRequest objects; item {index} is a "
                    f"{type(request).__name__}. Wrap prompts as ChatRequest(messages=(('user', text),))."
                )
        if not self.honours_seed:
            requests = [dataclasses.replace(r, seed=None) for r in requests]
        identity = self.identity()
        positions: dict[str, list[int]] = {}
        for index, request in enumerate(requests):
            positions.setdefault(request.key(identity), []).append(index)
        results: list[ChatResponse | None] = [None] * len(requests)

        def deliver(key: str, response: ChatResponse) -> None:
            for index in positions[key]:
                own = dataclasses.replace(response)  # one object per position
                results[index] = own
                if on_done is not None:
                    on_done(index, own)

        cache = self._cache()
        hits = cache.get(list(positions))
        misses = []
        for key in positions:  # in request order
            if key in hits:
                self.usage.add(cache_hits=len(positions[key]))
                deliver(key, _from_cache(hits[key]))
            else:
                misses.append(key)

        def save(index: int, response: ChatResponse) -> None:
            if response.text is not None:
                cache.put(misses[index], response)

        if misses:
            unique = [requests[positions[key][0]] for key in misses]
            with contextlib.closing(self._generate(unique, save)) as answers:
                for index, response in answers:
                    deliver(misses[index], response)
        missing = [index for index, response in enumerate(results) if response is None]
        if missing:  # a subclass bug, not a backend failure
            raise RuntimeError(f"{self.name} returned no response for requests {missing[:10]}")
        return results  # type: ignore[return-value]

    def get_params(self) -> dict[str, Any]:
        """The constructor parameters (names of secrets, never their values), for run records."""
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: getattr(self, name) for name in names}

    def close(self) -> None:
        """Release connections, models and the cache file; the client can be used again afterwards."""
        with self._cache_lock:
            if self._response_cache is not None:
                self._response_cache.close()
                self._response_cache = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the constructor parameters: connections, models and counters stay behind."""
        return (_rebuild, (type(self), self.get_params()))

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"

    def _cache(self) -> ResponseCache:
        with self._cache_lock:
            if self._response_cache is None:
                self._response_cache = ResponseCache(resolve_cache_path(self.cache))
            return self._response_cache


def require_answers(responses: Sequence[ChatResponse], *, asked: str, client: LLMClient) -> None:
    """Raise a BackendError when more than half of ``responses`` failed for good (a server
    that is down, a base_url that answers 404): what a caller would compute from the rest
    measures the server, not the model. ``asked`` names the requests ("prompts of llm-prompt").

    Examples:
        >>> class Fake(LLMClient):
        ...     name = "fake"
        ...     def identity(self): return "fake"
        ...     def _generate(self, requests, save): return iter(())
        >>> require_answers([ChatResponse("4"), ChatResponse(None, error="HTTP 500")], asked="prompts", client=Fake())
        >>> require_answers([ChatResponse(None, error="HTTP 404")], asked="prompts", client=Fake())
        Traceback (most recent call last):
        shortcutlab.errors.BackendError: 1 of 1 prompts to fake got no answer (first: HTTP 404). Fix the server or the client's settings and run again (the answers received are cached).
    """
    failed = [response for response in responses if response.text is None]
    if failed and len(failed) > MOST_FAILED * len(responses):
        raise BackendError(
            f"{len(failed)} of {len(responses)} {asked} to {client.identity()} got no answer "
            f"(first: {failed[0].error}). Fix the server or the client's settings and run "
            "again (the answers received are cached)."
        )


def _rebuild(cls: type[LLMClient], params: dict[str, Any]) -> LLMClient:
    return cls(**params)


def _from_cache(hit: CachedResponse) -> ChatResponse:
    return ChatResponse(
        hit.text,
        cached=True,
        prompt_tokens=hit.prompt_tokens,
        completion_tokens=hit.completion_tokens,
    )


def _checked_messages(messages: Any) -> tuple[tuple[str, str], ...]:
    expected = "a non-empty sequence of (role, content) string pairs, roles " + "/".join(ROLES)
    valid = isinstance(messages, tuple | list) and len(messages) > 0
    require(valid, "ChatRequest", "messages", expected, messages)
    for message in messages:
        valid = (
            isinstance(message, tuple | list)
            and len(message) == 2
            and message[0] in ROLES
            and isinstance(message[1], str)
        )
        require(valid, "ChatRequest", "messages", expected, message)
    return tuple((role, content) for role, content in messages)
