"""Where the ray executor's tasks run: its own local Ray instance, or a cluster at an address.

Without an address the executor always starts its own instance (``ray.init(address="local")``).
Ray's default would join whatever ``RAY_ADDRESS`` or the last ``ray start`` (its
``ray_current_cluster`` file, even a stale one) points to, and then refuse the CPU count.

An address takes one of three forms: ``HOST:PORT`` (the head's GCS port), ``ray://HOST:PORT``
(Ray Client) or ``auto`` (what ``ray start`` left on this machine, or ``RAY_ADDRESS``). Clusters of
Ray 2.60 enable token authentication by default. A driver joining one needs ``RAY_AUTH_MODE=token``
and the cluster's token, in ``RAY_AUTH_TOKEN`` or in the file ``RAY_AUTH_TOKEN_PATH`` names
(default ``~/.ray/auth_token``). A refusal is translated into one line that names this fix.
"""

from __future__ import annotations

import re
import socket
from typing import Any

from shortcutlab.errors import ConfigError
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


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast, before any work, when a cluster address does not answer."""
    host_port = check_address(address)
    if host_port is None:
        return
    try:
        with socket.create_connection(host_port, timeout=timeout):
            return
    except OSError as exc:
        raise ConfigError(
            f"Cannot reach the Ray cluster at {address} ({exc.strerror or exc}). Check --address, or start a "
            f"cluster with 'ray start --head', or drop --address to use a local Ray instance."
        ) from exc


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
    if address is not None:
        check_reachable(address)
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
