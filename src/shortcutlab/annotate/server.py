"""Serve a task folder with uvicorn until SIGINT or SIGTERM, behind a fresh access token.

The socket is bound before anything else (port 0 gives a free port; a port in use is a
:class:`ConfigError` before any task folder is written). uvicorn runs in a worker thread so that
the main thread keeps the signal handlers of :func:`serving.shutdown.stop_on_signals`: uvicorn's
own handlers would re-raise SIGTERM after shutting down, and the process would die by the signal
instead of exiting 0. A stop sets ``server.should_exit``; uvicorn finishes the requests in flight,
and the store is closed last.
"""

from __future__ import annotations

import errno
import ipaddress
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from shortcutlab.annotate.app import make_app
from shortcutlab.annotate.kinds import TaskKind
from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.errors import ConfigError
from shortcutlab.serving.shutdown import StopRequest, stop_on_signals

DEFAULT_PORT = 8765
STARTUP_SECONDS = 30.0


@dataclass(frozen=True)
class Serving:
    """What ``on_ready`` is told: where the app listens, with the token in the URL."""

    url: str
    host: str
    port: int
    folder: Path


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; a port in use is a one-line ConfigError."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be an integer in [0, 65535]; got {port}.")
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as error:
        raise ConfigError(
            f"--host {host!r} is not an address this machine has ({error})."
        ) from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        # SO_REUSEADDR lets a restarted server take its port back from TIME_WAIT; on Linux it does
        # not let two live servers share a port, so "in use" still means in use.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} is in use; pass --port 0 for a free one.") from None
        raise ConfigError(
            f"cannot listen on {host}:{port} ({error.strerror or error}); pass --port 0 for a free "
            "one, or another --host."
        ) from None
    return sock


def exposure_warning(sock: socket.socket) -> str | None:
    """One line when ``sock`` listens beyond this machine (any address but loopback), else None."""
    host = sock.getsockname()[0]
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:  # not an IP address we can classify: warn rather than stay silent
        pass
    return (
        f"--host {host} is not loopback: the app is reachable from other machines on the "
        "network, and its access token is the only guard; use --host 127.0.0.1 to keep it local."
    )


def _url(sock: socket.socket, token: str) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def serve(
    folder: str | Path,
    *,
    sock: socket.socket | None = None,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    kind: TaskKind | None = None,
    token: str | None = None,
    on_ready: Callable[[Serving], None] | None = None,
) -> str:
    """Serve the task in ``folder`` until SIGINT/SIGTERM; return the stopping signal's name.

    ``sock``: an already listening socket (:func:`listen`); otherwise one is bound on
    ``host:port``. ``kind``: defaults to the registered kind the task was created with.
    ``token``: defaults to a fresh ``secrets.token_urlsafe(16)``, so each start has its own URL.
    """
    sock = sock if sock is not None else listen(host, port)
    token = token or secrets.token_urlsafe(16)
    try:
        store = AnnotationStore.open(folder)
    except BaseException:
        sock.close()
        raise
    try:
        kind = kind if kind is not None else task_kind(store.meta()["kind"])
        config = uvicorn.Config(
            make_app(store, kind, token),
            log_level="warning",
            access_log=False,
            lifespan="off",
            # a stop waits this long for requests in flight, then closes their connections
            timeout_graceful_shutdown=10,
        )
        server = uvicorn.Server(config)
        # Handlers first: a signal that comes while uvicorn starts must still stop it.
        with stop_on_signals() as stop:
            worker = threading.Thread(
                target=server.run, kwargs={"sockets": [sock]}, name="annotate-server"
            )
            worker.start()
            try:
                _wait_started(server, worker, stop)
                if not server.started and stop.received is None:
                    raise RuntimeError("uvicorn stopped before it started (its log says why)")
                if server.started and on_ready is not None:
                    bound_host, bound_port = sock.getsockname()[:2]
                    on_ready(Serving(_url(sock, token), bound_host, bound_port, Path(folder)))
                received = stop.wait() if server.started else stop.received
            finally:
                server.should_exit = True
                worker.join()
        return received.name if received is not None else "a stop signal"
    finally:
        store.close()
        sock.close()


def _wait_started(server: uvicorn.Server, worker: threading.Thread, stop: StopRequest) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started and worker.is_alive() and stop.received is None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start within {STARTUP_SECONDS:.0f} s")
        time.sleep(0.01)


__all__ = ["DEFAULT_PORT", "Serving", "listen", "serve"]
