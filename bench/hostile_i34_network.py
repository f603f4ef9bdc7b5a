"""The hostile cases of ``hostile_cases.py`` for issue 34's section 2 and class F: network waits.

``run --track mlflow:URI`` and ``run --executor ray --address`` pointed at what a user may meet:
a port where nothing listens, a server that accepts and never answers, a web server that is not
the one expected, a folder store MLflow refuses, a database that cannot be opened, and a kill
while the command waits. Each must be refused in one line within :data:`BOUND_SECONDS` (process
start included), writing nothing: no run folder, no lock file. The servers are the test suite's
(tests/engine/tcp_servers.py), on 127.0.0.1.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hostile_cases import Case, Skip, changed, one_line_refusal, tree_state
from hostile_inputs import case, spec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.engine: the small servers
from tests.engine.tcp_servers import (  # noqa: E402
    HTTP1_BAD_REQUEST,
    closed_port,
    http_server,
    tcp_server,
)

BOUND_SECONDS = 10
NOT_MLFLOW = b"<html><body>" + b"Not found. " * 300 + b"</body></html>"


def _refused_in_time(case: Case, *args: object, **options: object) -> str | None:
    """``args`` refused by the contract (one line, nothing written) within the bound, in one
    message of at most ``longest`` characters when given."""
    longest = options.pop("longest", None)
    before = tree_state(case.base)
    outcome = case.cli(*args, timeout=BOUND_SECONDS * 3, **options)  # type: ignore[arg-type]
    broke = one_line_refusal(outcome) or changed(before, tree_state(case.base))
    if broke:
        return broke
    if outcome.seconds > BOUND_SECONDS:
        return f"answered after {outcome.seconds:.1f} s (bound {BOUND_SECONDS} s)"
    if isinstance(longest, int) and len(outcome.stderr.strip()) > longest:
        return f"a message of {len(outcome.stderr.strip())} characters (at most {longest})"
    return None


def _track(case: Case, uri: str, **options: object) -> str | None:
    args = ("run", spec(case), "--out", "r", "--track", f"mlflow:{uri}")
    return _refused_in_time(case, *args, **options)


def _address(case: Case, address: str) -> str | None:
    args = ("run", spec(case), "--out", "r", "--executor", "ray", "--address", address)
    return _refused_in_time(case, *args)


def _killed_while_waiting(case: Case, *options: str) -> str | None:
    """A run killed while it waits on a silent server leaves nothing: no run folder, no lock.
    ``options`` name the server's port as ``{}``."""
    spec_file = spec(case)
    before = tree_state(case.base)
    with tcp_server() as server:
        given = [option.format(server.port) for option in options]
        running = case.popen("run", spec_file, "--out", "r", *given)
        try:
            if not server.accepted.wait(timeout=60):
                return "the command never reached the server"
        finally:
            running.kill()
            running.communicate()
    return changed(before, tree_state(case.base))


# Section 2: MLflow ---------------------------------------------------------------------------
@case("network")
def mlflow_port_where_nothing_listens(case: Case) -> str | None:
    return _track(case, f"http://127.0.0.1:{closed_port()}")


@case("network")
def mlflow_server_that_never_answers(case: Case) -> str | None:
    with tcp_server() as server:
        return _track(case, f"http://127.0.0.1:{server.port}")


@case("network")
def mlflow_uri_of_a_web_server_that_is_not_mlflow(case: Case) -> str | None:
    with http_server(404, NOT_MLFLOW) as port:
        return _track(case, f"http://127.0.0.1:{port}")


@case("network")
def mlflow_host_that_does_not_resolve(case: Case) -> str | None:
    return _track(case, "http://no-such-host.invalid:5000")


@case("network")
def mlflow_folder_store_without_consent(case: Case) -> str | None:
    without = ("env", "-u", "MLFLOW_ALLOW_FILE_STORE")
    return _track(case, (case.base / "mlruns").as_uri(), prefix=without, longest=250)


@case("network")
def mlflow_sqlite_path_is_a_folder(case: Case) -> str | None:
    (case.base / "db").mkdir()
    return _track(case, f"sqlite:///{case.base / 'db'}")


@case("network")
def mlflow_killed_while_the_server_is_asked(case: Case) -> str | None:
    return _killed_while_waiting(case, "--track", "mlflow:http://127.0.0.1:{}")


# Class F: Ray --------------------------------------------------------------------------------
def _ray(case: Case) -> None:
    try:
        import ray  # noqa: F401
    except ImportError as exc:
        raise Skip("Ray is not installed here") from exc


@case("network")
def ray_address_where_nothing_listens(case: Case) -> str | None:
    _ray(case)
    return _address(case, f"127.0.0.1:{closed_port()}")


@case("network")
def ray_address_of_a_server_that_never_answers(case: Case) -> str | None:
    _ray(case)
    with tcp_server() as server:
        return _address(case, f"127.0.0.1:{server.port}")


@case("network")
def ray_address_of_a_server_speaking_http(case: Case) -> str | None:
    _ray(case)
    with tcp_server(HTTP1_BAD_REQUEST) as server:
        return _address(case, f"ray://127.0.0.1:{server.port}")


@case("network")
def ray_killed_while_the_address_is_asked(case: Case) -> str | None:
    _ray(case)
    return _killed_while_waiting(case, "--executor", "ray", "--address", "127.0.0.1:{}")
