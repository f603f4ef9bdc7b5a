"""Where the ray executor's tasks run: its own local Ray instance, or a cluster at an address.

Without an address the executor always starts its own instance (``ray.init(address="local")``).
Ray's default would join whatever ``RAY_ADDRESS`` or the last ``ray start`` (its
``ray_current_cluster`` file, even a stale one) points to, and then refuse the CPU count.

An address takes one of three forms: ``HOST:PORT`` (the head's GCS port), ``ray://HOST:PORT``
(Ray Client) or ``auto`` (what ``ray start`` left on this machine, or ``RAY_ADDRESS``). Clusters of
Ray 2.60 enable token authentication by default. A driver joining one needs ``RAY_AUTH_MODE=token``
and the cluster's token, in ``RAY_AUTH_TOKEN`` or in the file ``RAY_AUTH_TOKEN_PATH`` names
(default ``~/.ray/auth_token``). A refusal is translated into one line that names this fix.

Before the run folder is touched, a ``HOST:PORT`` address must answer as a Ray server does within
:data:`ANSWER_SECONDS`: ``ray.init`` waits minutes on a port that accepts connections but is not
Ray's (it retries its GCS connection about twenty times).
"""

from __future__ import annotations

import os
import re
import socket
import ssl
import time
from typing import Any

from shortcutlab.errors import ConfigError, knob
from shortcutlab.params import quoted

ADDRESS_FORMS = "HOST:PORT, ray://HOST:PORT or auto"
_ADDRESS = re.compile(r"(?:ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})")
# What Ray's exceptions say when the cluster refuses the driver's token (or the lack of one).
_REFUSED_TOKEN = ("AuthenticationError", "InvalidAuthToken", "Token authentication is enabled")


def check_address(address: str) -> tuple[str, int] | None:
    """The ``(host, port)`` of a ``HOST:PORT`` or ``ray://HOST:PORT`` address, ``None`` for
    ``auto``; any other text is a ConfigError."""
    if address == "auto":
        return None
    match = _ADDRESS.fullmatch(address)
    if match is None or not 1 <= int(match["port"]) <= 65535:
        raise ConfigError(
            f"The 'address' parameter must be {ADDRESS_FORMS} (or left out for a local Ray "
            f"instance). Got {quoted(address)} instead."
        )
    return match["host"].strip("[]"), int(match["port"])


#: How long an address gets to answer before the run is refused.
ANSWER_SECONDS = 5.0
# Ray's GCS and Ray Client servers speak gRPC, that is HTTP/2: a client opens with this preface and
# an empty SETTINGS frame (RFC 9113 section 3.4), and the server's first frame is a SETTINGS frame.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_FRAME_HEADER, _SETTINGS = 9, 4


def _fix() -> str:
    """What to check when an address does not answer as Ray does."""
    return (
        f"Check {knob('address', run=True)} (a head's GCS port, 6379 unless 'ray start --port' "
        "said otherwise, or ray://HOST:10001 for Ray Client)."
    )


def check_reachable(address: str, timeout: float = ANSWER_SECONDS) -> None:
    """Fail fast, before any work, when a cluster address does not answer within ``timeout``
    seconds as a Ray server does (``auto`` is left to Ray)."""
    host_port = check_address(address)
    if host_port is None:
        return
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection(host_port, timeout=timeout) as connection:
            answered = _answers_as_ray(connection, host_port[0], deadline)
    except OSError as exc:
        raise ConfigError(
            f"Cannot reach the Ray cluster at {address} ({exc.strerror or exc}). Check "
            f"{knob('address', run=True)}, or start a cluster with 'ray start --head', or drop "
            f"{knob('address', run=True)} to use a local Ray instance."
        ) from exc
    if answered is None:
        raise ConfigError(
            f"The server at {address} is not a Ray cluster: it gave a Ray client no answer within "
            f"{timeout:g} s. {_fix()}"
        )
    if not answered:
        raise ConfigError(
            f"The server at {address} is not a Ray cluster: it answered, but not in Ray's "
            f"protocol (gRPC{' over TLS' if _tls() else ''}). {_fix()}"
        )


def _answers_as_ray(connection: socket.socket, host: str, deadline: float) -> bool | None:
    """Whether the server on ``connection`` answers the opening of a gRPC conversation as a gRPC
    server does; None when it says nothing before ``deadline``."""
    try:
        if _tls():
            return _answers_tls(connection, host, deadline)
        connection.sendall(_HTTP2_PREFACE)
        header = b""
        while len(header) < _FRAME_HEADER:
            connection.settimeout(max(deadline - time.monotonic(), 0.01))
            received = connection.recv(_FRAME_HEADER - len(header))
            if not received:
                return False  # closed on us
            header += received
    except TimeoutError:
        return None
    except ConnectionError:
        return False
    return header[3] == _SETTINGS


def _tls() -> bool:
    """Whether Ray's gRPC runs over TLS here (Ray's own test of ``RAY_USE_TLS``)."""
    return os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true")


def _answers_tls(connection: socket.socket, host: str, deadline: float) -> bool:
    """Whether the server answers a TLS handshake: it completes, or the server sends an alert
    (a cluster of mutual TLS refuses a client without its certificate)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # whether it speaks TLS, not whom to trust
    connection.settimeout(max(deadline - time.monotonic(), 0.01))
    try:
        context.wrap_socket(connection, server_hostname=host).close()
    except ssl.SSLError as exc:
        return "ALERT" in (exc.reason or "")
    return True


def connect(address: str | None, cpus: int | None) -> bool:
    """Start a local Ray instance with ``cpus`` CPUs (all when ``None``), or join the cluster at
    ``address``. Returns whether this call connected: a process already connected to Ray (a
    notebook that ran ``ray.init``) keeps its connection, and must not have it shut down."""
    try:
        import ray
        import ray.exceptions
    except ImportError as exc:
        raise ConfigError(
            "The ray executor needs Ray. Install it with: pip install 'shortcutlab[ray]'."
        ) from exc
    # Ray versions before token authentication have no AuthenticationError.
    refused = getattr(ray.exceptions, "AuthenticationError", ConnectionError)
    if ray.is_initialized():
        return False
    try:
        if address is None:
            ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except (refused, ConnectionError, RuntimeError, ValueError) as exc:
        raise connection_error(address, exc) from exc
    return True


def connection_error(address: str | None, exc: BaseException) -> ConfigError:
    """One line for a failed ``ray.init``: a refused token names the fix."""
    if address is not None and _refused_token(exc):
        return ConfigError(
            f"The Ray cluster at {address} refused this driver's authentication token. Set "
            "RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN (or a file named by "
            "RAY_AUTH_TOKEN_PATH); 'ray get-auth-token' on the head prints it."
        )
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    where = address or "a new local instance"
    return ConfigError(f"Cannot connect to a Ray cluster at {where}: {reason}")


def _refused_token(exc: BaseException) -> bool:
    """Whether ``exc`` or an exception it was raised from says the token was refused (Ray wraps
    the refusal in a ConnectionError, whose cause carries it as traceback text)."""
    seen: Any = exc
    while seen is not None:
        if any(marker in f"{type(seen).__name__}: {seen}" for marker in _REFUSED_TOKEN):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
