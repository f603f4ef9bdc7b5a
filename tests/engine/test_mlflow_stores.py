"""run --track mlflow against each kind of store a team uses: MLflow's default (a SQLite database
in the working folder), a sqlite: URI, a folder, and a real ``mlflow server`` started here on
127.0.0.1. Each grid's cells are read back from the store, as a user would.

And the stores that cannot be used: each refused in one line, in bounded time, before the run
folder is touched (no folder, no lock file), however MLflow itself would have waited.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.engine.ray_cluster import free_port, group_members
from tests.engine.tcp_servers import closed_port, http_server, tcp_server

mlflow = pytest.importorskip("mlflow")

from tests.engine.test_mlflow_tracking import (  # noqa: E402 - after the skip without MLflow
    assert_logged_once,
    experiment_of,
)

# Two cells that fit in a second: what is tested is where they are logged.
TWO_CELLS = """
name: two-cells
data: {builtin: reviews, train_size: 300, test_size: 150}
shortcuts: [single-term]
strengths: [1.0]
models: [majority]
seeds: [0, 1]
bootstrap: 100
"""
BOUND_SECONDS = 10  # a server gets 5 s to answer
SERVER_START_SECONDS = 180  # `mlflow server` imports a lot: about 40 s on a loaded 2-core machine
SERVER_STOP_SECONDS = 30


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(TWO_CELLS)
    return path


def run_and_resume(spec, run, track):
    """Run the grid with ``track``, then again: the second run logs nothing twice."""
    for done in (2, 0):
        result = invoke("run", spec, "--out", run, "--track", track)
        assert result.exit_code == 0, result.output
        assert f"{done} cells done, {2 - done} already finished" in result.stdout


def assert_tracked(uri, run):
    """The store at ``uri`` holds one finished run per cell, and the run's report."""
    assert_logged_once(uri, run)
    tags = experiment_of(uri).tags
    assert tags["shortcutlab.report_status"] == "complete"
    folder = mlflow.artifacts.download_artifacts(
        artifact_uri=tags["shortcutlab.report"], dst_path=str(run.parent / "down"), tracking_uri=uri
    )
    assert "single-term" in (Path(folder) / "table1.md").read_text()


@pytest.mark.slow  # MLflow creates and migrates a fresh database: about 15 s here
def test_the_default_store_is_a_sqlite_database_in_the_working_folder(tmp_path, spec, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.delenv("MLFLOW_ALLOW_FILE_STORE", raising=False)
    monkeypatch.chdir(tmp_path)
    run_and_resume(spec, tmp_path / "run", "mlflow")
    assert_tracked(f"sqlite:///{tmp_path / 'mlflow.db'}", tmp_path / "run")


@pytest.mark.parametrize("store", [pytest.param("sqlite", marks=pytest.mark.slow), "folder"])
def test_a_sqlite_or_folder_uri_holds_the_cells(tmp_path, spec, monkeypatch, store):
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # the folder store needs it
    monkeypatch.chdir(tmp_path)  # MLflow puts a database's artifacts in ./mlruns
    uri = (
        f"sqlite:///{tmp_path / 'db' / 'mlflow.db'}"
        if store == "sqlite"
        else ((tmp_path / "mlruns").as_uri())
    )
    run_and_resume(spec, tmp_path / "run", f"mlflow:{uri}")
    assert_tracked(uri, tmp_path / "run")


# -- A real tracking server --------------------------------------------------------------------
@contextmanager
def mlflow_server(folder: Path) -> Iterator[str]:
    """``mlflow server`` on 127.0.0.1 (a SQLite database and an artifact folder in ``folder``),
    as a team runs it; yields its URI once it answers. Stopped with SIGTERM, its whole process
    group, which must be gone within SERVER_STOP_SECONDS."""
    try:
        import mlflow.server  # noqa: F401 - Flask and the server's other needs
    except ImportError as exc:
        pytest.skip(f"mlflow server is unavailable here ({exc}): pip install 'shortcutlab[test]'")
    port = free_port()
    command = [sys.executable, "-m", "mlflow", "server", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", "1", "--backend-store-uri", f"sqlite:///{folder / 'server.db'}"]
    command += ["--artifacts-destination", str(folder / "artifacts")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("MLFLOW_")}
    with open(folder / "server.log", "w") as log:
        server = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_until_it_answers(f"http://127.0.0.1:{port}", server, folder / "server.log")
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        deadline = time.monotonic() + SERVER_STOP_SECONDS
        while group_members(server.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = group_members(server.pid)
        if left:
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        assert not left, f"the server did not stop on SIGTERM: {left}"


def wait_until_it_answers(uri: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"mlflow server ended with {server.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{uri}/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    pytest.fail(
        f"mlflow server did not answer in {SERVER_START_SECONDS} s: {log.read_text()[-2000:]}"
    )


@pytest.mark.slow
def test_a_grid_logs_its_cells_to_a_tracking_server(tmp_path, spec):
    (tmp_path / "server").mkdir()
    with mlflow_server(tmp_path / "server") as uri:
        run_and_resume(spec, tmp_path / "run", f"mlflow:{uri}")
        assert_tracked(uri, tmp_path / "run")
        location = experiment_of(uri).artifact_location
        assert location.startswith("mlflow-artifacts:")  # the report went through the server
    assert list((tmp_path / "server" / "artifacts").rglob("table1.md"))


# -- Stores that cannot be used: one line, in bounded time, nothing written -------------------
def refused_in_time(tmp_path, spec, message, track, bound=BOUND_SECONDS):
    started = time.monotonic()
    result = assert_refused(
        tmp_path, message, "run", spec, "--out", tmp_path / "run", "--track", track
    )
    assert time.monotonic() - started < bound
    assert not (tmp_path / "run").exists()
    return result


def test_an_address_where_no_server_listens_is_refused_at_once(tmp_path, spec):
    uri = f"http://127.0.0.1:{closed_port()}"
    refused_in_time(
        tmp_path,
        spec,
        f"Error: Cannot reach the MLflow tracking server at {uri} (Connection refused). Check "
        "the URI, or start the server there with 'mlflow server'.",
        f"mlflow:{uri}",
    )


def test_a_server_that_never_answers_is_refused_within_seconds(tmp_path, spec):
    with tcp_server() as server:
        uri = f"http://127.0.0.1:{server.port}"
        refused_in_time(
            tmp_path,
            spec,
            f"Error: Cannot reach the MLflow tracking server at {uri} (no answer within 5 s).",
            f"mlflow:{uri}",
        )


def test_mlflows_request_timeout_sets_how_long_a_server_gets(tmp_path, spec, monkeypatch):
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_TIMEOUT", "1")
    with tcp_server() as server:
        uri = f"http://127.0.0.1:{server.port}"
        message = f"Cannot reach the MLflow tracking server at {uri} (no answer within 1 s)."
        refused_in_time(tmp_path, spec, message, f"mlflow:{uri}", bound=4)


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (
            404,
            b"<html>" + b"Not found. " * 500 + b"</html>",
            "is not an MLflow tracking server: it answered HTTP 404 to "
            "/api/2.0/mlflow/experiments/search. Check the URI.",
        ),
        (
            401,
            b'{"error_code": "UNAUTHENTICATED", "message": "You are not authenticated."}',
            "refused the client: You are not authenticated. Set MLFLOW_TRACKING_TOKEN, or "
            "MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD.",
        ),
    ],
)
def test_a_web_server_that_is_not_mlflow_or_refuses_the_client_is_refused(
    tmp_path, spec, status, body, said
):
    with http_server(status, body) as port:
        uri = f"http://127.0.0.1:{port}"
        refused_in_time(tmp_path, spec, f"Error: The server at {uri} {said}", f"mlflow:{uri}")


def test_a_kill_while_the_server_is_asked_leaves_no_run_folder(tmp_path, spec):
    """The issue's case: a kill during MLflow's minutes of retries left the folder's lock."""
    with tcp_server() as server:
        track = f"mlflow:http://127.0.0.1:{server.port}"
        command = [sys.executable, "-m", "shortcutlab", "run", str(spec), "--out"]
        command += [str(tmp_path / "run"), "--track", track]
        waiting = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert server.accepted.wait(timeout=60), "the run never asked the server"
        finally:
            waiting.kill()
            waiting.wait()
    assert not (tmp_path / "run").exists()


def test_a_folder_store_without_mlflows_consent_is_one_short_line(tmp_path, spec, monkeypatch):
    monkeypatch.delenv("MLFLOW_ALLOW_FILE_STORE", raising=False)
    uri = (tmp_path / "mlruns").as_uri()
    result = refused_in_time(
        tmp_path,
        spec,
        f"Error: MLflow refused the tracking store {uri}, a folder: set "
        "MLFLOW_ALLOW_FILE_STORE=true to use it, or track to mlflow:sqlite:///PATH instead.",
        f"mlflow:{uri}",
    )
    assert len(result.stderr.strip()) < 200 + len(uri)


def test_a_database_that_cannot_be_opened_is_refused_at_once(tmp_path, spec):
    (tmp_path / "folder.db").mkdir()  # a folder where the database file should be
    refused_in_time(
        tmp_path,
        spec,
        f"Error: MLflow refused the tracking store sqlite:///{tmp_path / 'folder.db'}: unable "
        "to open database file",
        f"mlflow:sqlite:///{tmp_path / 'folder.db'}",
    )


def test_a_database_store_without_sqlalchemy_says_how_to_install_it(tmp_path, spec, monkeypatch):
    monkeypatch.setitem(sys.modules, "sqlalchemy", None)  # import sqlalchemy fails
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    refused_in_time(
        tmp_path,
        spec,
        f"Error: MLflow needs SQLAlchemy and Alembic for the tracking store {uri}. Install them "
        "with: pip install 'shortcutlab[mlflow]'.",
        f"mlflow:{uri}",
    )
