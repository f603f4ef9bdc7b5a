"""Throughput of the `openai-chat` client against a local server with 50 ms latency per answer.

Starts `ChatServer` (echo backend, `--latency` seconds per answer) once and writes `--prompts`
distinct label-answer prompts built from generated reviews to a temporary file. The headline, as
whole processes in interleaved pairs (bench/paired.py): bench/tool/llm_complete.py, which sends
them through the public API's `openai-chat` client (``shortcutlab.llm.make_client``; no CLI
command only sends prompts) at `--concurrency` with a fresh cache each run, next to
bench/plain/openai_sequential.py, the official `openai` client called sequentially (how most
evaluation scripts call it). Then, in this process:
  (a) our client again, fresh cache, and (c) the same prompts through a new client on that cache
  file: every prompt a cache hit, no request sent;
  (d) a fresh cache under injected faults (5 % 429s, 5 % 500s, 2 % stalls past a short client
  timeout): every prompt must complete, and the server's books must show no prompt answered
  successfully twice.
Prints wall times and the retry figures; exits 1 if a correctness check fails (never because of a
time).

    python bench/llm_throughput.py [--prompts 1000 --concurrency 16 --latency 0.05] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import paired
from paired import Comparison, Side, compare, write_results

from shortcutlab.corpus import generate_reviews
from shortcutlab.llm import ChatRequest, ChatResponse, make_client
from shortcutlab.serving.server import ChatServer, FaultPlan

BENCH = Path(__file__).resolve().parent
SYSTEM = "You rate product reviews. Answer with one number from 1 to 5."


def build_requests(n: int) -> list[ChatRequest]:
    texts = generate_reviews(n, seed=0)["text"].tolist()
    # The index makes every prompt distinct even when the generator repeats a review.
    return [
        ChatRequest(messages=(("system", SYSTEM), ("user", f"Review {i}: {text}")), max_tokens=5)
        for i, text in enumerate(texts)
    ]


def run_ours(
    server: ChatServer, requests: list[ChatRequest], cache: Path, **params: object
) -> tuple[float, list[ChatResponse], dict[str, int]]:
    config = {
        "name": "openai-chat",
        "base_url": server.url,
        "model": server.model,
        "api_key_env": None,
        "cache": cache,
        **params,
    }
    with make_client(config) as client:
        started = time.perf_counter()
        responses = client.complete(requests)
        elapsed = time.perf_counter() - started
        return elapsed, responses, client.usage.to_json()


def write_prompts(requests: list[ChatRequest], path: Path) -> Path:
    """The prompts as JSON lines of (role, content) pairs, which both sides of the pairs read."""
    lines = (json.dumps(request.messages) for request in requests)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def paired_runs(
    server: ChatServer, prompts: Path, work: Path, args: argparse.Namespace
) -> Comparison:
    """Our client at --concurrency (fresh cache each run) against the official client, in turn."""
    cache = work / "paired.sqlite"
    tool = [sys.executable, str(BENCH / "tool" / "llm_complete.py"), server.url, server.model]
    tool += [str(prompts), str(cache), str(args.concurrency)]
    plain = [sys.executable, str(BENCH / "plain" / "openai_sequential.py"), server.url]
    plain += [server.model, str(prompts)]
    note = f"{args.prompts} distinct prompts, local server at {args.latency * 1000:.0f} ms"
    return compare(
        f"{args.prompts} prompts",
        Side(f"openai-chat, concurrency {args.concurrency}", lambda: tool,
             prepare=lambda: cache.unlink(missing_ok=True)),
        Side("official openai client, sequential", lambda: plain),
        pairs=args.pairs,
        note=note,
    )  # fmt: skip


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="llm-bench-") as work:
        return run(Path(work))


def run(work: Path) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prompts", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--fault-timeout", type=float, default=0.5, help="client timeout in (d)")
    paired.add_options(parser)
    args = parser.parse_args()
    requests = build_requests(args.prompts)
    problems: list[str] = []
    print(f"{args.prompts} distinct prompts, server latency {args.latency * 1000:.0f} ms")

    with ChatServer(latency=args.latency) as server:
        result = paired_runs(server, write_prompts(requests, work / "prompts.jsonl"), work, args)
        sent_before = server.stats.requests
        ours, responses, usage = run_ours(
            server, requests, work / "a.sqlite", concurrency=args.concurrency
        )
        sent = server.stats.requests - sent_before
        rerun, cached, rerun_usage = run_ours(server, requests, work / "a.sqlite")
        sent_by_rerun = server.stats.requests - sent - sent_before
    if args.save:
        write_results("llm_throughput", [result])
    expected = [r.text for r in responses]
    rate = f"{args.prompts / ours:.0f} prompts/s"
    print(
        f"(a) openai-chat, concurrency {args.concurrency}, fresh cache, in process: {ours:.2f} s ({rate})"
    )
    hits = rerun_usage["cache_hits"]
    print(f"(c) re-run from the cache, new client: {rerun:.3f} s ({hits} cache hits, ", end="")
    print(f"{sent_by_rerun} requests sent)")
    if [r.text for r in cached] != expected:
        problems.append("the cached re-run gave different answers")
    if sent != args.prompts or usage["failures"] or sent_by_rerun or hits != args.prompts:
        problems.append("(a)/(c): unexpected requests, failures or cache misses")

    plan = FaultPlan(
        rate_429=0.05, rate_500=0.05, rate_timeout=0.02, timeout_seconds=2 * args.fault_timeout
    )
    with ChatServer(latency=args.latency, faults=plan) as server:
        faulty, answers, fault_usage = run_ours(
            server,
            requests,
            work / "d.sqlite",
            concurrency=args.concurrency,
            timeout=args.fault_timeout,
        )
        stats = server.stats
        duplicates = stats.duplicate_billable()
        billable = sum(stats.billable_by_prompt.values())
        faults = stats.faults
        total = stats.requests
    completed = sum(r.text is not None for r in answers)
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(faults.items()))
    print(f"(d) under faults, client timeout {args.fault_timeout} s: {faulty:.2f} s")
    print(f"    injected: {kinds}; server requests {total}")
    print(
        f"    client: {fault_usage['retries']} retries, {fault_usage['failures']} failures, ",
        end="",
    )
    print(f"{completed}/{args.prompts} completed")
    print(f"    successful (billable) answers {billable}; prompts billed twice: {len(duplicates)}")
    if completed != args.prompts or [r.text for r in answers] != expected:
        problems.append("(d): not every prompt completed with the right answer")
    if duplicates or billable != args.prompts:
        problems.append("(d): some prompt was answered successfully more than once")
    for problem in problems:
        print(f"FAILED: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
