"""Deterministic fault injection and request accounting for the local test server.

Whether an attempt fails, and how, is a pure function of (seed, prompt key, attempt number of
that prompt), so a run is reproducible whatever the thread timing, and a retried prompt draws
afresh each time and eventually gets through.

Examples:
    >>> plan = FaultPlan(rate_429=0.5, seed=1)
    >>> [plan.decide("some-prompt", attempt) for attempt in range(4)] == [
    ...     plan.decide("some-prompt", attempt) for attempt in range(4)]
    True
    >>> FaultPlan(rate_429=0.7, rate_500=0.6)
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The fault rates of FaultPlan must add up to at most 1. Got 1.3 instead.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.fields import option_field
from shortcutlab.params import check_non_negative_int, check_positive_float, require

FAULT_KINDS = ("429", "500", "timeout", "malformed", "drop")


@dataclass(frozen=True)
class FaultPlan:
    """Per-attempt fault probabilities; ``retry_after`` (seconds) goes with 429s when set.

    A "timeout" stalls ``timeout_seconds`` (set it above the client's timeout) and then answers
    504, so nothing is billed; "drop" closes the connection; "malformed" is a 200 with broken JSON.
    """

    rate_429: float = option_field(0.0, help="Share of requests answered 429.")
    rate_500: float = option_field(0.0, help="Share answered 500.")
    rate_timeout: float = option_field(0.0, help="Share that stall past the client's timeout.")
    rate_malformed: float = option_field(0.0, help="Share answered with broken JSON.")
    rate_drop: float = option_field(0.0, help="Share whose connection is dropped.")
    timeout_seconds: float = option_field(2.0, help="How long a stalled request stalls.")
    seed: int = option_field(0, help="Seed of the fault decisions.")
    retry_after: float | None = option_field(
        None, help="Seconds a 429 asks the client to wait (Retry-After; default: none)."
    )

    def __post_init__(self) -> None:
        for kind in FAULT_KINDS:
            rate = getattr(self, f"rate_{kind}")
            valid = isinstance(rate, int | float) and not isinstance(rate, bool) and 0 <= rate <= 1
            require(valid, "FaultPlan", f"rate_{kind}", "a float in [0, 1]", rate)
        total = sum(self._rates())
        if total > 1 + 1e-9:
            raise ConfigError(
                f"The fault rates of FaultPlan must add up to at most 1. Got {round(total, 6)} instead."
            )
        check_positive_float("FaultPlan", "timeout_seconds", self.timeout_seconds)
        if self.retry_after is not None:
            valid = isinstance(self.retry_after, int | float) and self.retry_after >= 0
            require(valid, "FaultPlan", "retry_after", "None or seconds >= 0", self.retry_after)
        check_non_negative_int("FaultPlan", "seed", self.seed)

    def decide(self, key: str, attempt: int) -> str | None:
        """The fault for attempt ``attempt`` (0-based) of prompt ``key``, or None to answer normally."""
        digest = hashlib.sha256(f"{self.seed}|{key}|{attempt}".encode()).digest()
        draw = int.from_bytes(digest[:8], "big") / 2**64
        for kind, rate in zip(FAULT_KINDS, self._rates(), strict=True):
            if draw < rate:
                return kind
            draw -= rate
        return None

    def _rates(self) -> list[float]:
        return [getattr(self, f"rate_{kind}") for kind in FAULT_KINDS]


def prompt_key(body: dict[str, Any]) -> str:
    """The server's name for a request: SHA-256 of its canonical JSON body (model, messages, options)."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ServerStats:
    """Thread-safe counts of what the server received, billed (answered successfully) and broke."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests = 0
        self._by_prompt: Counter[str] = Counter()
        self._billable: Counter[str] = Counter()
        self._faults: Counter[str] = Counter()
        self._in_flight = 0
        self._max_in_flight = 0

    @contextlib.contextmanager
    def in_flight(self) -> Iterator[None]:
        """Count a request as being handled for the duration of the block."""
        with self._lock:
            self._in_flight += 1
            self._max_in_flight = max(self._max_in_flight, self._in_flight)
        try:
            yield
        finally:
            with self._lock:
                self._in_flight -= 1

    def record_request(self, key: str | None) -> int:
        """Count one chat request; returns its attempt number for ``key`` (0 for the first)."""
        with self._lock:
            self._requests += 1
            if key is None:
                return 0
            attempt = self._by_prompt[key]
            self._by_prompt[key] += 1
            return attempt

    def record_fault(self, kind: str) -> None:
        with self._lock:
            self._faults[kind] += 1

    def record_billable(self, key: str) -> None:
        with self._lock:
            self._billable[key] += 1

    @property
    def requests(self) -> int:
        """Chat-completion requests received, whatever became of them."""
        with self._lock:
            return self._requests

    @property
    def max_in_flight(self) -> int:
        """The most chat requests handled at the same time: what the client's concurrency achieved."""
        with self._lock:
            return self._max_in_flight

    @property
    def requests_by_prompt(self) -> dict[str, int]:
        with self._lock:
            return dict(self._by_prompt)

    @property
    def billable_by_prompt(self) -> dict[str, int]:
        """Successful answers per prompt key: what a paid API would have charged for."""
        with self._lock:
            return dict(self._billable)

    @property
    def faults(self) -> dict[str, int]:
        """Faults injected, by kind ("429", "500", "timeout", "malformed", "drop")."""
        with self._lock:
            return dict(self._faults)

    def duplicate_billable(self) -> dict[str, int]:
        """Prompts answered successfully more than once (a client that wastes money)."""
        return {key: count for key, count in self.billable_by_prompt.items() if count > 1}

    def to_json(self) -> dict[str, Any]:
        with self._lock:
            return {
                "requests": self._requests,
                "prompts": len(self._by_prompt),
                "billable": sum(self._billable.values()),
                "faults": dict(self._faults),
                "max_in_flight": self._max_in_flight,
            }
