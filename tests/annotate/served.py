"""``shortcutlab annotate serve`` as a real process (uvicorn, signals, SQLite on disk) for tests."""

from __future__ import annotations

import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.annotate.toy_kind import TOY, cli_process

START_SECONDS = 60.0


@dataclass
class ServedTask:
    process: subprocess.Popen[str]
    url: str
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    readers: list[threading.Thread] = field(default_factory=list)

    @property
    def base(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)

    @property
    def token(self) -> str:
        return parse_qs(urlsplit(self.url).query)["token"][0]

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Send ``sig`` and wait; the exit code (negative: killed by a signal)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        code = self.process.wait(timeout=timeout)
        for reader in self.readers:
            reader.join(timeout=10)
        return code


def _pump(stream: object, into: list[str], lines: queue.Queue[str] | None) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.append(line)
        if lines is not None:
            lines.put(line)


def serve_toy(source: Path, *options: str, port: int = 0) -> ServedTask:
    """Start serving the toy task over ``source``; return once the URL is printed."""
    return serve_task(source, TOY, *options, port=port)


def serve_task(source: Path, task: str, *options: str, port: int = 0) -> ServedTask:
    """Start serving ``task`` (any kind, the toy one included) over ``source``; return once the
    URL is printed."""
    process = cli_process(
        "annotate", "serve", str(source), "--task", task, "--port", str(port), *options
    )
    stdout: list[str] = []
    stderr: list[str] = []
    lines: queue.Queue[str] = queue.Queue()
    readers = [
        threading.Thread(target=_pump, args=(process.stdout, stdout, lines), daemon=True),
        threading.Thread(target=_pump, args=(process.stderr, stderr, None), daemon=True),
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            if process.poll() is not None and lines.empty():
                for reader in readers:
                    reader.join(timeout=10)
                message = f"the server exited {process.returncode}: {''.join(stderr)}"
                raise AssertionError(message) from None
            continue
        if line.startswith("Open "):
            return ServedTask(process, line.split()[1], stdout, stderr, readers)
    process.kill()
    raise AssertionError(f"no URL within {START_SECONDS} s; stderr: {''.join(stderr)}")


def run_cli(*arguments: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """A short-lived ``shortcutlab`` command with the toy kind installed."""
    process = cli_process(*arguments)
    out, err = process.communicate(timeout=timeout)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)
