"""Retries under every injected fault kind, failures for good, and the fault plan itself."""

from __future__ import annotations

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.serving.faults import FAULT_KINDS, FaultPlan
from shortcutlab.serving.server import ChatServer
from tests.llm.conftest import prompts

# A "timeout" stalls the server well past the client's limit, so only injected stalls time out.
CLIENT_TIMEOUT = 0.5
STALL = 1.0


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_each_fault_kind_is_retried_until_every_prompt_is_answered(kind, openai_client):
    plan = FaultPlan(**{f"rate_{kind}": 0.4}, timeout_seconds=STALL, seed=3)
    with ChatServer(faults=plan) as server:
        client = openai_client(server, timeout=CLIENT_TIMEOUT, concurrency=16)
        responses = client.complete(prompts(16))
    assert [r.text for r in responses] == [f"review {i} was fine overall" for i in range(16)]
    injected = server.stats.faults
    assert set(injected) == {kind} and injected[kind] > 0
    usage = client.usage.to_json()
    assert usage["retries"] == injected[kind] and usage["failures"] == 0
    assert usage["requests"] == server.stats.requests == 16 + injected[kind]
    assert server.stats.duplicate_billable() == {}
    assert sum(server.stats.billable_by_prompt.values()) == 16


def test_a_request_failing_for_good_is_reported_after_max_retries(openai_client):
    with ChatServer(faults=FaultPlan(rate_500=1.0)) as server:
        client = openai_client(server, max_retries=2)
        [failed, also_failed] = client.complete(prompts(2))
    assert failed.text is None and also_failed.text is None
    assert failed.error == "server error (HTTP 500): Injected server error. after 3 attempts"
    assert client.usage.to_json() == {
        "requests": 6,
        "cache_hits": 0,
        "retries": 4,
        "failures": 2,
        "prompt_tokens": 0,
        "completion_tokens": 0,
    }
    assert server.stats.billable_by_prompt == {}


def test_decisions_depend_only_on_seed_prompt_and_attempt():
    plan = FaultPlan(rate_429=0.1, rate_500=0.1, rate_drop=0.05, seed=11)
    draws = [plan.decide(f"prompt {i}", attempt) for i in range(2000) for attempt in range(3)]
    assert draws == [
        FaultPlan(rate_429=0.1, rate_500=0.1, rate_drop=0.05, seed=11).decide(f"prompt {i}", a)
        for i in range(2000)
        for a in range(3)
    ]
    other_seed = FaultPlan(rate_429=0.1, rate_500=0.1, rate_drop=0.05, seed=12)
    assert draws != [other_seed.decide(f"prompt {i}", a) for i in range(2000) for a in range(3)]
    # 6000 draws at 10 %: the binomial standard deviation is 23, so 600 ± 140 is ±6 sd.
    assert abs(draws.count("429") - 600) < 140 and abs(draws.count("drop") - 300) < 100
    assert {None, "429", "500", "drop"} == set(draws)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"rate_429": -0.1}, "'rate_429' parameter of FaultPlan must be a float in \\[0, 1\\]"),
        ({"rate_drop": 2}, "'rate_drop' parameter of FaultPlan must be a float in \\[0, 1\\]"),
        ({"rate_429": 0.6, "rate_timeout": 0.5}, "must add up to at most 1. Got 1.1 instead"),
        ({"timeout_seconds": 0}, "'timeout_seconds' parameter of FaultPlan must be a positive"),
        ({"seed": -1}, "'seed' parameter of FaultPlan must be a non-negative integer"),
    ],
)
def test_bad_fault_plans_are_config_errors(params, message):
    with pytest.raises(ConfigError, match=message):
        FaultPlan(**params)
