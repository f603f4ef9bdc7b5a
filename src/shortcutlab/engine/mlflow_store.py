"""Reaching an MLflow store, in bounded time, and MLflow's refusals as one line each.

:func:`open_store` runs before the run folder is touched. A server must answer within
:data:`ANSWER_SECONDS`: MLflow's client retries an address where no server listens for about four
minutes (seven retries, 120 s each). A database store is connected to once: MLflow retries a
failed connection ten times, for about 100 s. A database needs SQLAlchemy and Alembic beside
``mlflow-skinny``: the ``mlflow`` extra installs them (MLflow 3's default store is SQLite).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from shortcutlab.errors import ConfigError, knob, one_line

#: How long a tracking server gets to answer before the run is refused (MLFLOW_HTTP_REQUEST_TIMEOUT,
#: when set, instead).
ANSWER_SECONDS = 5
#: What the check asks a server: the experiments API every MLflow server and Databricks answer.
PROBE_ENDPOINT = "/api/2.0/mlflow/experiments/search"
INSTALL = "pip install 'shortcutlab[mlflow]'"
_OS_REASON = re.compile(r"\[Errno -?\d+\] ([^'\"()]+)")


def open_store(uri: str | None) -> Any:
    """An MlflowClient of the store at ``uri`` (None: MLflow's default), checked: a database
    store opened once, a server asked once, each in bounded time; a ConfigError otherwise."""
    try:
        from mlflow.tracking import MlflowClient, get_tracking_uri
    except ImportError as exc:
        raise ConfigError(
            f"{knob('track', 'mlflow', run=True)} needs MLflow. Install it with: {INSTALL}."
        ) from exc
    from mlflow.store.db.db_types import DATABASE_ENGINES
    from mlflow.store.tracking.rest_store import RestStore

    resolved = uri or get_tracking_uri()
    if urlparse(resolved).scheme.partition("+")[0] in DATABASE_ENGINES:
        _open_database_once(resolved, _where(uri, resolved))
    client = MlflowClient(tracking_uri=resolved)
    store = client._tracking_client.store  # built by the client; its REST store holds the creds
    if isinstance(store, RestStore):
        _ask_server(store.get_host_creds(), resolved)
    return client


def _open_database_once(uri: str, where: str) -> None:
    """Connect to the database store once: MLflow retries a failed connection ten times, with
    warnings, for about 100 s."""
    try:
        import alembic  # noqa: F401 - MLflow creates and migrates its tables with it
        import sqlalchemy
    except ImportError as exc:
        raise ConfigError(
            f"MLflow needs SQLAlchemy and Alembic for {where}. Install them with: {INSTALL}."
        ) from exc
    url = sqlalchemy.engine.make_url(uri)
    if url.get_backend_name() == "sqlite" and url.database:
        if not Path(url.database).parent.is_dir():
            return  # MLflow creates the folder before it connects
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect():
            pass
    finally:
        engine.dispose()


def _ask_server(credentials: Any, uri: str) -> None:
    """Ask the server at ``uri`` once, without MLflow's retries, whether it answers MLflow's
    experiments API within the probe time."""
    from mlflow.environment_variables import MLFLOW_HTTP_REQUEST_TIMEOUT
    from mlflow.exceptions import MlflowException
    from mlflow.utils.rest_utils import http_request

    timeout = MLFLOW_HTTP_REQUEST_TIMEOUT
    seconds = timeout.get() if timeout.defined else ANSWER_SECONDS
    try:
        response = http_request(
            credentials,
            PROBE_ENDPOINT,
            "GET",
            max_retries=0,
            timeout=seconds,
            retry_timeout_seconds=seconds,
            raise_on_status=False,
            params={"max_results": 1},
        )
    except MlflowException as exc:
        raise ConfigError(
            f"Cannot reach the MLflow tracking server at {uri} ({_unreached(exc.message, seconds)})."
            " Check the URI, or start the server there with 'mlflow server'."
        ) from exc
    if response.status_code == 200:
        return
    try:
        message = json.loads(response.text).get("message")
    except (ValueError, AttributeError):  # not JSON, or not an object: not MLflow's answer
        message = None
    if not message:
        raise ConfigError(
            f"The server at {uri} is not an MLflow tracking server: it answered HTTP "
            f"{response.status_code} to {PROBE_ENDPOINT}. Check the URI."
        )
    fix = ""
    if response.status_code in (401, 403):
        fix = (
            " Set MLFLOW_TRACKING_TOKEN, or MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD."
        )
    said = one_line(str(message)).rstrip(".")
    raise ConfigError(f"The server at {uri} refused the client: {said}.{fix}")


def _unreached(message: str, seconds: float) -> str:
    """Why a request got no answer, from the text MLflow wraps requests' exception in."""
    if "timed out" in message or "timeout" in message:
        return f"no answer within {seconds:g} s"
    found = _OS_REASON.search(message)  # "[Errno 111] Connection refused"
    return found[1].strip() if found else "no connection"


def drop_unreadable_local_runs(uri: str | None) -> list[Path]:
    """Remove the run folders of a local MLflow file store whose ``meta.yaml`` is empty or not a
    mapping: MLflow writes it in place, so a kill -9 while a run is being created leaves one
    behind, and the store then fails every search with "'NoneType' object has no attribute
    'copy'". Such a run never held a logged cell (it had no id to journal yet). Returns the
    folders removed; a server URI or a missing folder is left alone."""
    import shutil
    from urllib.request import url2pathname

    import yaml
    from mlflow.tracking import get_tracking_uri

    parsed = urlparse(uri or get_tracking_uri())
    if parsed.scheme not in ("", "file"):
        return []
    root = Path(url2pathname(parsed.path))
    removed = []
    for meta in sorted(root.glob("*/*/meta.yaml")) if root.is_dir() else []:
        try:
            readable = isinstance(yaml.safe_load(meta.read_text(encoding="utf-8")), dict)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            readable = False
        if not readable:
            shutil.rmtree(meta.parent, ignore_errors=True)
            removed.append(meta.parent)
    return removed


def _where(uri: str | None, resolved: str) -> str:
    """The store as a message names it: ``the tracking store URI``, or MLflow's default."""
    return f"the tracking store {uri}" if uri else f"its default tracking store {resolved}"


class MlflowRefusals:
    """Turns MLflow's exceptions (a refused store, an unreachable server, a database error) into
    one-line ConfigErrors naming the URI."""

    def __init__(self, uri: str | None) -> None:
        self.uri = uri

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if exc is None or isinstance(exc, ConfigError):
            return
        try:
            from mlflow.exceptions import MlflowException
            from mlflow.tracking import get_tracking_uri
        except ImportError:
            return
        where = _where(self.uri, self.uri or get_tracking_uri())
        if isinstance(exc, MlflowException) and "MLFLOW_ALLOW_FILE_STORE" in exc.message:
            raise ConfigError(
                f"MLflow refused {where}, a folder: set MLFLOW_ALLOW_FILE_STORE=true to use it, "
                "or track to mlflow:sqlite:///PATH instead."
            ) from exc
        # ValueError: MLflow's own checks (a malformed setting or metric file) raise it too
        if isinstance(exc, MlflowException | OSError | ValueError) or _database_error(exc):
            message = exc.message if isinstance(exc, MlflowException) else str(exc)
            message = str(getattr(exc, "orig", None) or message)  # the driver's own words
            raise ConfigError(f"MLflow refused {where}: {one_line(message)}") from exc


def _database_error(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLAlchemy's (a database store's), without importing SQLAlchemy."""
    return any(kind.__module__.startswith("sqlalchemy.") for kind in type(exc).__mro__)
