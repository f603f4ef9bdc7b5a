"""The ray executor's addresses: the three accepted forms, the refusals (an address that is not a
Ray server among them, in bounded time), and its own local instance whatever RAY_ADDRESS or a stale
``ray start`` address file says."""

import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

from shortcutlab.engine.ray_connect import check_address, check_reachable, connection_error
from shortcutlab.errors import ConfigError
from shortcutlab.families import parse_spec, run_experiment
from tests.cli.refusals import assert_refused
from tests.engine.tcp_servers import (
    HTTP1_BAD_REQUEST,
    HTTP2_SETTINGS,
    closed_port,
    tcp_server,
    tls_context,
)
from tests.engine.test_runner import SPEC, results_text

# Two cells, two fits: enough to see that two runs store the same results.
SMALL = {
    **SPEC,
    "shortcuts": ["single-term"],
    "strengths": [1.0],
    "seeds": [0],
    "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
}


def stored_predictions(run_dir) -> dict[str, bytes]:
    with sqlite3.connect(run_dir / "results.sqlite") as db:
        return dict(db.execute("SELECT cell_id || split, probabilities FROM predictions"))


def assert_same_results(run_dir, expected_dir) -> None:
    """The tables and every stored probability match, byte for byte."""
    assert results_text(run_dir) == results_text(expected_dir)
    got, expected = stored_predictions(run_dir), stored_predictions(expected_dir)
    assert got.keys() == expected.keys() and len(got) == 2 * 3
    for key, blob in expected.items():
        assert np.array_equal(np.frombuffer(got[key], np.float32), np.frombuffer(blob, np.float32))


@pytest.mark.parametrize(
    ("address", "host_port"),
    [
        ("auto", None),
        ("127.0.0.1:6379", ("127.0.0.1", 6379)),
        ("ray://head.example.org:10001", ("head.example.org", 10001)),
        ("[::1]:6379", ("::1", 6379)),
        ("my-head:65535", ("my-head", 65535)),
    ],
)
def test_the_three_address_forms_are_accepted(address, host_port):
    assert check_address(address) == host_port


@pytest.mark.parametrize(
    "address", ["local", "http://head:6379", "head", "head:0", "head:70000", "ray://head", ""]
)
def test_any_other_address_is_refused_before_anything_is_written(address, tmp_path):
    with pytest.raises(
        ConfigError,
        match=r"^The 'address' parameter must be HOST:PORT, ray://HOST:PORT or auto \(or left out "
        r"for a local Ray instance\)\. Got '.*' instead\.$",
    ):
        run_experiment(parse_spec(SMALL), tmp_path / "run", executor="ray", address=address)
    assert not (tmp_path / "run").exists()


def test_jobs_with_an_address_is_refused(tmp_path):
    with pytest.raises(
        ConfigError,
        match=r"^jobs=\.\.\. sets the CPUs of a new local Ray instance;.* Drop jobs=\.\.\. or address=\.\.\.$",
    ):
        run_experiment(parse_spec(SMALL), tmp_path / "run", executor="ray", jobs=2, address="auto")
    assert not (tmp_path / "run").exists()


def test_a_refused_token_names_the_fix():
    # What ray.init raises when the head refuses the driver's token: a ConnectionError whose
    # cause carries Ray's AuthenticationError as traceback text.
    try:
        try:
            raise RuntimeError(
                "Failed to connect to GCS. Last connection error: Traceback ...\n"
                "ray.exceptions.AuthenticationError: RPC error: InvalidAuthToken: Authentication "
                "token is missing or incorrect."
            )
        except RuntimeError as cause:
            raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.5:6379") from cause
    except ConnectionError as refused:
        message = str(connection_error("127.0.0.1:6379", refused))
    assert message == (
        "The Ray cluster at 127.0.0.1:6379 refused this driver's authentication token. Set "
        "RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN (or a file named by "
        "RAY_AUTH_TOKEN_PATH); 'ray get-auth-token' on the head prints it."
    )
    other = connection_error("127.0.0.1:6379", ConnectionError("Failed to connect\nat line 2"))
    assert str(other) == "Cannot connect to a Ray cluster at 127.0.0.1:6379: Failed to connect"


@pytest.fixture
def ray_temp_dir(monkeypatch):
    """A Ray temp folder of this test's own (RAY_TMPDIR): its address file is no one else's.
    Short, under /tmp: Ray's socket paths inside it must stay under 108 characters."""
    pytest.importorskip("ray")
    folder = tempfile.mkdtemp(prefix="slray-", dir="/tmp")
    monkeypatch.setenv("RAY_TMPDIR", folder)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize("left_behind", ["ray_current_cluster", "RAY_ADDRESS"])
def test_without_an_address_the_executor_starts_its_own_instance(
    left_behind, ray_temp_dir, monkeypatch, tmp_path
):
    # Port 9 (discard) answers nothing: joining the address left behind fails at once.
    if left_behind == "RAY_ADDRESS":
        monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:9")
    else:  # what an ended `ray start` leaves behind in Ray's temp folder
        (Path(ray_temp_dir) / "ray").mkdir()
        (Path(ray_temp_dir) / "ray" / "ray_current_cluster").write_text("127.0.0.1:9")
    run_experiment(parse_spec(SMALL), tmp_path / "local")
    report = run_experiment(parse_spec(SMALL), tmp_path / "ray", executor="ray", jobs=1)
    assert (report.done, report.failed) == (2, 0)
    assert_same_results(tmp_path / "ray", tmp_path / "local")


# -- An address that is not a Ray server: refused in bounded time, before anything is written -----
BOUND_SECONDS = 10  # the probe waits ANSWER_SECONDS (5 s) at most
NOT_RAY_FIX = (
    "Check --address (a head's GCS port, 6379 unless 'ray start --port' said otherwise, or "
    "ray://HOST:10001 for Ray Client)."
)


def refused_in_time(tmp_path, message, address):
    """``run --executor ray --address ADDRESS`` is refused with ``message`` within the bound,
    leaving no run folder (and so no lock file)."""
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(SMALL))
    args = ("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    started = time.monotonic()
    result = assert_refused(tmp_path, message, *args, "--executor", "ray", "--address", address)
    assert time.monotonic() - started < BOUND_SECONDS
    assert not (tmp_path / "run").exists()
    return result


def test_a_port_that_accepts_but_never_answers_is_refused_within_seconds(tmp_path):
    with tcp_server() as server:
        refused_in_time(
            tmp_path,
            f"Error: The server at 127.0.0.1:{server.port} is not a Ray cluster: it gave a Ray "
            f"client no answer within 5 s. {NOT_RAY_FIX}",
            f"127.0.0.1:{server.port}",
        )
        assert server.accepted.is_set()


def test_a_server_speaking_another_protocol_is_refused_at_once(tmp_path):
    with tcp_server(HTTP1_BAD_REQUEST) as server:
        result = refused_in_time(
            tmp_path,
            f"Error: The server at ray://127.0.0.1:{server.port} is not a Ray cluster: it "
            f"answered, but not in Ray's protocol (gRPC). {NOT_RAY_FIX}",
            f"ray://127.0.0.1:{server.port}",
        )
    assert "Traceback" not in result.output


def test_a_closed_port_is_refused_as_unreachable(tmp_path):
    port = closed_port()
    result = refused_in_time(
        tmp_path,
        f"Error: Cannot reach the Ray cluster at 127.0.0.1:{port} (Connection refused).",
        f"127.0.0.1:{port}",
    )
    assert "Traceback" not in result.output


def test_a_server_that_answers_as_grpc_passes_the_check():
    with tcp_server(HTTP2_SETTINGS) as server:  # what a Ray head's GCS answers
        # Passing means returning: an answer that is not Ray's raises ConfigError.
        assert check_reachable(f"127.0.0.1:{server.port}") is None


def test_with_ray_tls_the_check_asks_for_a_tls_handshake(tmp_path, monkeypatch):
    context = tls_context(tmp_path)
    if context is None:
        pytest.skip("no openssl here to make the TLS server's certificate")
    monkeypatch.setenv("RAY_USE_TLS", "1")
    with tcp_server(tls=context) as server:
        check_reachable(f"127.0.0.1:{server.port}")
    with tcp_server(HTTP1_BAD_REQUEST) as server, pytest.raises(ConfigError) as refused:
        check_reachable(f"127.0.0.1:{server.port}")
    assert str(refused.value) == (
        f"The server at 127.0.0.1:{server.port} is not a Ray cluster: it answered, but not in "
        f"Ray's protocol (gRPC over TLS). {NOT_RAY_FIX.replace('--address', 'address=...')}"
    )
