"""Servers stop cleanly on SIGTERM and SIGINT, whatever signal dispositions they inherit."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import threading

import httpx
import pytest

from shortcutlab.serving.server import ChatServer
from shortcutlab.serving.shutdown import stop_on_signals

BODY = {"model": "shortcutlab-test", "messages": [{"role": "user", "content": "one two three"}]}
# Generous for a stop that takes milliseconds, short next to the 30 s a missed signal used to cost.
STOP_TIMEOUT = 5


def _ignore_sigint() -> None:
    """What a non-interactive shell does to a job started with '&': SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_cli_server(*options: str) -> tuple[subprocess.Popen[str], str]:
    """``shortcutlab llm-server`` in a child that inherits SIGINT ignored; its process and URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "shortcutlab", "llm-server", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=_ignore_sigint,
    )
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout=60):
            process.kill()
            pytest.fail(f"llm-server printed nothing in 60 s; stderr: {process.communicate()[1]}")
    line = process.stdout.readline()
    assert line.startswith("Serving 'shortcutlab-test' at http://127.0.0.1:"), line
    return process, line.split(" at ")[1].split(" ")[0]


def _stop(process: subprocess.Popen[str], signum: signal.Signals) -> tuple[str, str]:
    process.send_signal(signum)
    try:
        return process.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"llm-server ignored {signum.name} for {STOP_TIMEOUT} s")


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


@pytest.mark.slow
def test_sigterm_stops_the_command_line_server_cleanly():
    process, url = _start_cli_server("--rate-500", "0.5")
    statuses = {
        httpx.post(
            f"{url}/chat/completions", json={**BODY, "max_tokens": n}, trust_env=False
        ).status_code
        for n in range(1, 9)
    }
    assert statuses == {200, 500}
    output, errors = _stop(process, signal.SIGTERM)
    assert process.returncode == 0, errors
    assert output == "Stopped by SIGTERM after 8 requests.\n" and errors == ""
    with ChatServer(port=_port(url)) as again:  # the port is free for the next server
        assert _port(again.url) == _port(url)


def test_sigint_stops_it_even_when_inherited_as_ignored():
    process, url = _start_cli_server()
    output, errors = _stop(process, signal.SIGINT)
    assert process.returncode == 0, errors
    assert output == "Stopped by SIGINT after 0 requests.\n" and errors == ""
    with ChatServer(port=_port(url)) as again:
        assert _port(again.url) == _port(url)


def test_the_previous_handlers_come_back_after_the_block():
    def mine(signum, frame):  # a caller's own handler
        raise AssertionError("the block's handler should have caught this")

    before = signal.signal(signal.SIGTERM, mine)
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with stop_on_signals() as stop:
            assert stop.wait(timeout=0) is None
            os.kill(os.getpid(), signal.SIGINT)  # reaches the block although SIGINT was ignored
            assert stop.wait(timeout=STOP_TIMEOUT) is signal.SIGINT
            os.kill(os.getpid(), signal.SIGTERM)  # a second signal does not rename the first
            assert stop.wait(timeout=STOP_TIMEOUT) is signal.SIGINT
        assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before)
        signal.signal(signal.SIGINT, ignored)


def test_handlers_need_the_main_thread_and_nothing_is_left_installed():
    before = signal.getsignal(signal.SIGTERM)
    failures: list[BaseException] = []

    def enter() -> None:
        try:
            with stop_on_signals():
                pass
        except ValueError as exc:
            failures.append(exc)

    thread = threading.Thread(target=enter)
    thread.start()
    thread.join()
    assert len(failures) == 1 and "main thread" in str(failures[0])
    assert signal.getsignal(signal.SIGTERM) is before


# Signals sent while the main thread enters and leaves wait() over and over: the handler runs
# inside wait() itself. A handler that took wait()'s own lock there hung the process for good.
SIGNALS_DURING_WAIT = """
import os, signal, threading, time
from shortcutlab.serving.shutdown import stop_on_signals

sent = threading.Event()
def send() -> None:
    for _ in range(20000):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.00005)
    sent.set()

with stop_on_signals() as outer:  # catches the signals that come between two inner blocks
    threading.Thread(target=send).start()
    while not sent.is_set():
        with stop_on_signals() as stop:  # a fresh request: wait() blocks until a signal
            stop.wait(timeout=0)
print("every signal handled")
"""


def test_signals_that_come_while_wait_is_entered_never_hang_it():
    done = subprocess.run(
        [sys.executable, "-c", SIGNALS_DURING_WAIT],
        capture_output=True,
        text=True,
        timeout=120,  # a hang fails here instead of blocking the suite
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "every signal handled\n"
