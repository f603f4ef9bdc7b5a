"""The annotation app under a bounded local load: acknowledged answers against stored ones, latency.

`shortcutlab annotate serve SOURCE --task label --sample N --port 0` runs as a subprocess (a
fresh task folder in a temporary directory). `--clients` concurrent annotators (asyncio,
one keep-alive HTTP/1.1 connection each, names load-00, load-01, ...) each fetch their next item and post
an answer to it, then the item the reply names next, for `--seconds`. At the deadline the server
is killed with SIGKILL (`kill -9`; `--stop term`: SIGTERM, a clean stop) while the clients are
still posting (`--drain`: the clients stop first); a client stops at its first refused
connection. Then the task's SQLite store is read: every acknowledged answer (200 with stored:
true) must be there. Printed: answers posted, acknowledged, not acknowledged
(by status or connection error, during the load or after the deadline), stored, acknowledged but
missing (must be 0), stored but not acknowledged (a reply lost in the shutdown), answers/s over
the load window, and p50/p95/p99 of the answer POST's latency.

The clients and the server share this machine's cores: the figures are a floor for a lone server.

    python bench/annotate_load.py [SOURCE] [--task label] [--sample 300] [--clients 50] \
        [--seconds 30] [--stop kill|term] [--src OLD/src --src src --rounds 3 [--save]]

SOURCE is a run or benchmark folder, or the name of one this bench makes in bench/out/ on first
use (bench/made_inputs.py): single-term (the default: one `shortcutlab build maze` of the shared
goemotions-maze data, or of the generated corpus) or goemotions-45 (shortcutlab run
bench/goemotions-45.yaml).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import made_inputs
import numpy as np
import paired

from shortcutlab.annotate.store import AnnotationStore

DEFAULT_SOURCE = "single-term"  # made in bench/out/ on first use (bench/made_inputs.py)
TOKEN_HEADER = "X-Token"
URL = re.compile(r"(https?://\S+token=[\w-]+)")
CONTENT_LENGTH = re.compile(r"\r\ncontent-length: *([0-9]+)")
STOP_SIGNALS = {"kill": signal.SIGKILL, "term": signal.SIGTERM}


@dataclass
class Load:
    """What the clients saw."""

    acknowledged: set[tuple[str, str]] = field(default_factory=set)
    latencies: list[float] = field(default_factory=list)  # seconds, acknowledged answers
    posted: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # status code or error name
    finished_items: int = 0  # clients that ran out of items before the deadline
    window: float = 0.0  # seconds from the first request to the deadline
    client_cpu: float = 0.0  # CPU seconds this process (the clients) used in the window
    server_cpu: float | None = None  # CPU seconds the server process used in the window


def start_server(
    source: Path, task: str, sample: int, folder: Path, src: str | None
) -> tuple[Any, str, str]:
    """The server process, its base URL and its token (read from the URL it prints)."""
    command = [
        sys.executable, "-m", "shortcutlab", "annotate", "serve", str(source), "--task", task,
        "--sample", str(sample), "--folder", str(folder), "--port", "0",
    ]  # fmt: skip
    environment = {**os.environ, "COLUMNS": "400"}  # one line per message: the URL unbroken
    if src is not None:
        environment["PYTHONPATH"] = src
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment
    )
    seen = []
    assert process.stdout is not None
    for line in process.stdout:
        seen.append(line)
        found = URL.search(line)
        if found:
            # Keep reading its output, so a full pipe never blocks the server's logging.
            threading.Thread(target=seen.extend, args=(process.stdout,), daemon=True).start()
            parts = urlsplit(found.group(1))
            token = parse_qs(parts.query)["token"][0]
            return process, f"{parts.scheme}://{parts.netloc}", token
    process.wait()
    sys.exit(
        f"the server stopped before printing its URL (exit {process.returncode}):\n{''.join(seen)}"
    )


def answer_for(form: dict[str, Any], client: int, position: int) -> dict[str, str]:
    """A valid answer: each field's choice picked by client and position (varied, deterministic)."""
    return {
        f["name"]: f["choices"][(client + position) % len(f["choices"])]["value"]
        for f in form["fields"]
    }


def when(stop: asyncio.Event) -> str:
    """Whether a refusal came while the load ran or in the shutdown."""
    return " after the deadline" if stop.is_set() else " during the load"


class Connection:
    """One client's keep-alive HTTP/1.1 connection, spoken by hand. httpx spends about 5 ms of CPU
    per request here: 50 httpx clients would take the cores the measured server needs."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port = host, port
        self.head = f"Host: {host}:{port}\r\n{TOKEN_HEADER}: {token}\r\n"
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, target: str, body: Any = None) -> tuple[int, Any]:
        """The reply's status and JSON body; a closed or refused connection raises OSError or
        asyncio.IncompleteReadError."""
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        content = b"" if body is None else json.dumps(body).encode()
        extra = f"Content-Type: application/json\r\nContent-Length: {len(content)}\r\n"
        head = f"{method} {target} HTTP/1.1\r\n{self.head}{extra if body is not None else ''}\r\n"
        writer.write(head.encode() + content)
        reply_head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
        length = int(CONTENT_LENGTH.search(reply_head).group(1))  # type: ignore[union-attr]
        return int(reply_head.split(" ", 2)[1]), json.loads(await reader.readexactly(length))

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


async def annotator(
    connection: Connection, client: int, form: dict[str, Any], stop: asyncio.Event, load: Load
) -> None:
    name = f"load-{client:02d}"
    try:
        status, item = await connection.request("GET", f"/api/next?annotator={name}")
        if status != 200:
            load.refused[f"next {status}{when(stop)}"] += 1
            return
        while not stop.is_set():
            if item.get("done"):
                load.finished_items += 1
                return
            body = {
                "annotator": name,
                "item_id": item["item_id"],
                "answer": answer_for(form, client, item["position"]),
            }
            load.posted += 1
            started = time.perf_counter()
            status, reply = await connection.request("POST", "/api/answer", body)
            elapsed = time.perf_counter() - started
            if status != 200 or not reply.get("stored"):
                load.refused[f"{status}{when(stop)}"] += 1
                return
            load.acknowledged.add((name, item["item_id"]))
            load.latencies.append(elapsed)
            item = reply["next"]
    except (OSError, asyncio.IncompleteReadError) as error:  # the server is gone (killed, stopped)
        load.refused[f"{type(error).__name__}{when(stop)}"] += 1
    finally:
        connection.close()


async def drive(
    base: str, token: str, clients: int, seconds: float, process: Any, drain: bool, stop_with: int
) -> Load:
    load = Load()
    async with httpx.AsyncClient(base_url=base, headers={TOKEN_HEADER: token}, timeout=60) as http:
        form = (await http.get("/api/task")).raise_for_status().json()["form"]
    parts = urlsplit(base)
    assert parts.hostname is not None and parts.port is not None
    stop = asyncio.Event()
    started = time.perf_counter()
    cpu_before, server_before = time.process_time(), cpu_seconds(process.pid)
    workers = [
        asyncio.create_task(
            annotator(Connection(parts.hostname, parts.port, token), i, form, stop, load)
        )
        for i in range(clients)
    ]
    await asyncio.sleep(seconds)
    load.window = time.perf_counter() - started
    load.client_cpu = time.process_time() - cpu_before
    server_after = cpu_seconds(process.pid)
    if server_before is not None and server_after is not None:
        load.server_cpu = server_after - server_before
    stop.set()
    if drain:
        await asyncio.gather(*workers)
    process.send_signal(stop_with)
    await asyncio.gather(*workers)
    return load


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used so far; None where /proc is absent."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stored_answers(folder: Path) -> set[tuple[str, str]]:
    with AnnotationStore.open(folder) as store:
        answers = store.answers()
    return set(zip(answers["annotator"], answers["item_id"], strict=True))


def milliseconds(latencies: list[float], percentile: float) -> str:
    return f"{np.percentile(latencies, percentile) * 1000:.0f}" if latencies else "—"


def report(load: Load, stored: set[tuple[str, str]], exit_code: int | None, clients: int) -> None:
    missing = load.acknowledged - stored
    unacknowledged = stored - load.acknowledged
    refused = ", ".join(f"{k} {v}" for k, v in sorted(load.refused.items())) or "none"
    rate = len(load.acknowledged) / load.window if load.window else float("nan")
    print(f"clients {clients}, load window {load.window:.1f} s, server exit code {exit_code}")
    print(
        f"answers posted {load.posted}: acknowledged {len(load.acknowledged)}; "
        f"not acknowledged: {refused}"
    )
    print(
        f"stored {len(stored)}: acknowledged but missing {len(missing)}, "
        f"stored but not acknowledged {len(unacknowledged)}"
    )
    print(
        f"acknowledged answers/s {rate:.1f}; answer POST latency ms "
        f"p50 {milliseconds(load.latencies, 50)}, p95 {milliseconds(load.latencies, 95)}, "
        f"p99 {milliseconds(load.latencies, 99)}"
    )
    server = "—" if load.server_cpu is None else f"{load.server_cpu:.1f} s"
    print(
        f"CPU in the load window: clients {load.client_cpu:.1f} s "
        f"({load.client_cpu / load.window:.0%} of one core), server {server}; load average {os.getloadavg()[0]:.1f}"
    )
    if load.finished_items:
        print(f"{load.finished_items} clients ran out of items before the deadline: raise --sample")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "source", nargs="?", type=made_inputs.input_folder, default=DEFAULT_SOURCE,
        help="a run or benchmark folder, or the name of one the bench makes",
    )  # fmt: skip
    parser.add_argument("--task", default="label")
    parser.add_argument("--sample", type=int, default=300, help="Items (each client's maximum).")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--drain", action="store_true", help="Stop the clients before the signal.")
    parser.add_argument(
        "--stop", choices=sorted(STOP_SIGNALS), default="kill",
        help="The signal at the deadline: kill (SIGKILL, kill -9) or term (SIGTERM).",
    )  # fmt: skip
    parser.add_argument(
        "--src", action="append", type=lambda value: str(paired.source_tree(value)),
        help="Source tree the server runs from (a src folder or a git revision); repeat it to "
        "compare trees in alternating rounds.",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=1, help="Rounds (each --src once a round).")
    parser.add_argument(
        "--save", action="store_true",
        help="with two --src (before, after): store the rounds in bench/results/annotate_load.json",
    )  # fmt: skip
    args = parser.parse_args()
    sources = args.src or [None]
    load_at_start = paired.load_now()
    figures: dict[str | None, list[tuple[float, float]]] = {src: [] for src in sources}
    for round_number in range(args.rounds):
        for src in sources if round_number % 2 == 0 else sources[::-1]:
            print(f"\n-- round {round_number}, server from {src or 'the installed package'}")
            figures[src].append(one_load(args, src))
    if args.rounds > 1 or len(sources) > 1:
        print(f"\nmedians of {args.rounds} rounds (load average {os.getloadavg()[0]:.1f}):")
        for src, values in figures.items():
            rate = statistics.median(rate for rate, _ in values)
            p95 = statistics.median(p95 for _, p95 in values)
            print(f"  {src or 'installed'}: {rate:.1f} acknowledged answers/s, p95 {p95:.0f} ms")
    if args.save:
        save(args, figures, load_at_start)


def save(args: argparse.Namespace, figures: dict, load_at_start: float) -> None:
    """The last --src as the tool, the first as its alternative (the server before a change):
    acknowledged answers/s and p95 latency of each round (bench/paired.py's record)."""
    if len(figures) != 2 or args.rounds < paired.MIN_PAIRS:
        raise SystemExit("--save needs two --src (before, after) and --rounds 3 or more")
    before, after = list(figures)
    step = f"{args.clients} clients, {args.seconds:g} s, kill -9 at the end"
    results = []
    for unit, index in (("answers/s", 0), ("ms p95", 1)):
        result = paired.Comparison(
            step, "shortcutlab annotate serve", f"the same, {paired.tree_name(before)}", unit
        )
        for is_tool, src in ((True, after), (False, before)):
            for values in figures[src]:
                result.add(is_tool=is_tool, value=values[index], peak_mib=0)
        result.tool_peak_mib, result.alternative_peak_mib = [], []  # not measured here
        result.load = [load_at_start, paired.load_now()]
        results.append(result)
    paired.write_results("annotate_load", results)


def one_load(args: argparse.Namespace, src: str | None) -> tuple[float, float]:
    """One load on a fresh task folder; the report printed, (answers/s, p95 ms) returned."""
    with tempfile.TemporaryDirectory(prefix="annotate-load-") as scratch:
        folder = Path(scratch) / "task"
        process, base, token = start_server(args.source, args.task, args.sample, folder, src)
        try:
            stop_with = STOP_SIGNALS[args.stop]
            load = asyncio.run(
                drive(base, token, args.clients, args.seconds, process, args.drain, stop_with)
            )
            exit_code = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
        report(load, stored_answers(folder), exit_code, args.clients)
    rate = len(load.acknowledged) / load.window if load.window else float("nan")
    p95 = float(np.percentile(load.latencies, 95) * 1000) if load.latencies else float("nan")
    return rate, p95


if __name__ == "__main__":
    main()
