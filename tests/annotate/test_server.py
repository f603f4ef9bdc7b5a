"""``shortcutlab annotate serve`` as a real uvicorn process: SIGTERM, kill -9, a port in use, a
post from another site, a host beyond loopback."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest

from shortcutlab.annotate.store import AnnotationStore
from tests.annotate.served import ServedTask, run_cli, serve_toy
from tests.annotate.toy_kind import TOY, write_toy_source

ANSWER = {"label": "positive", "sure": "yes"}


def _client(served: ServedTask) -> httpx.Client:
    return httpx.Client(base_url=served.base, headers={"X-Token": served.token}, timeout=10)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_stops_the_server_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    source = write_toy_source(tmp_path / "source")
    served = serve_toy(source)
    with _client(served) as client:
        assert client.get("/api/task").json()["kind"] == TOY
    assert served.stop(sig) == 0
    assert "Traceback" not in "".join(served.stderr)
    assert "".join(served.stdout).splitlines()[-1].startswith(f"Stopped by {sig.name};")
    with pytest.raises(httpx.ConnectError):
        httpx.get(served.url, timeout=2)
    # the store was closed: no WAL left to replay
    assert not (source / "annotations" / TOY / "annotations.sqlite-wal").exists()


@pytest.mark.slow
def test_kill_9_mid_round_loses_no_acknowledged_answer(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    served = serve_toy(source)
    acknowledged: dict[tuple[str, str], dict[str, str]] = {}
    stop = threading.Event()

    def annotate(name: str) -> None:
        with _client(served) as client:
            try:
                view = client.get("/api/next", params={"annotator": name}).json()
                while not view["done"] and not stop.is_set():
                    answer = {"label": ["negative", "positive"][view["position"] % 2], "sure": "no"}
                    body = {"annotator": name, "item_id": view["item_id"], "answer": answer}
                    reply = client.post("/api/answer", json=body)
                    if reply.status_code != 200:
                        return
                    acknowledged[(view["item_id"], name)] = answer
                    view = reply.json()["next"]
            except httpx.TransportError:  # the server was killed under this request
                return

    workers = [threading.Thread(target=annotate, args=(f"ann{i}",)) for i in range(8)]
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 12 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert served.stop(signal.SIGKILL) == -signal.SIGKILL
    stop.set()
    for worker in workers:
        worker.join(timeout=20)
    assert len(acknowledged) >= 12

    restarted = serve_toy(source)
    assert restarted.token != served.token
    with _client(restarted) as client:
        assert client.get("/api/task", headers={"X-Token": served.token}).status_code == 403
        progress = client.get("/api/progress").json()
    assert restarted.stop() == 0
    with AnnotationStore.open(source / "annotations" / TOY) as store:
        answers = store.answers()
    stored = {
        (item_id, annotator): dict(zip(rows.field, rows.value, strict=True))
        for (item_id, annotator), rows in answers.groupby(["item_id", "annotator"])
    }
    # every acknowledged answer is there as acknowledged; an answer killed before its reply may be too
    assert {key: stored.get(key) for key in acknowledged} == acknowledged
    answered = {entry["annotator"]: entry["answered"] for entry in progress["annotators"]}
    assert sum(answered.values()) == len(stored) >= len(acknowledged)


@pytest.mark.slow
def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    served = serve_toy(source)
    try:
        other = tmp_path / "other-task"
        result = run_cli(
            "annotate",
            "serve",
            str(source),
            "--task",
            TOY,
            "--port",
            str(served.port),
            "--folder",
            str(other),
        )
    finally:
        assert served.stop() == 0
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"Error: port {served.port} is in use; pass --port 0 for a free one.\n"
    assert not other.exists()


def test_a_restart_on_the_same_port_resumes_the_task(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    served = serve_toy(source)
    with _client(served) as client:
        first = client.get("/api/next", params={"annotator": "ann"}).json()
        client.post(
            "/api/answer", json={"annotator": "ann", "item_id": first["item_id"], "answer": ANSWER}
        )
    assert served.stop() == 0
    again = serve_toy(source, port=served.port)
    assert "Resumed the toy-label task" in "".join(again.stdout)
    with _client(again) as client:
        view = client.get("/api/next", params={"annotator": "ann"}).json()
    assert again.stop() == 0
    assert (view["position"], view["answered"]) == (1, 1)


def _stored_answers(source: Path) -> int:
    with AnnotationStore.open(source / "annotations" / TOY) as store:
        return len(store.answers())


def test_a_post_from_another_site_is_refused_even_with_the_token(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    served = serve_toy(source)
    try:
        with _client(served) as client:
            item = client.get("/api/next", params={"annotator": "ann"}).json()["item_id"]
        body = json.dumps({"annotator": "ann", "item_id": item, "answer": ANSWER})
        # What a page on another site can send without a preflight: text/plain, token in the query.
        url = f"{served.base}/api/answer?token={served.token}"
        plain = {"Content-Type": "text/plain"}
        foreign = [
            {"Origin": "http://evil.example"},
            {"Origin": "null"},  # a sandboxed frame or a file:// page
            {"Origin": served.base.replace("127.0.0.1", "127.0.0.2")},
            {"Referer": "http://evil.example/page.html"},  # no Origin: the Referer's origin
        ]
        for sender in foreign:
            refused = httpx.post(url, content=body, headers={**plain, **sender}, timeout=10)
            assert refused.status_code == 403, (sender, refused.text)
            assert refused.json()["error"].startswith("cross-site request refused: it came from")
        own_page = httpx.post(
            url, content=body, headers={**plain, "Origin": served.base}, timeout=10
        )
        assert own_page.status_code == 200, own_page.text
    finally:
        assert served.stop() == 0
    assert _stored_answers(source) == len(ANSWER)  # one answer (a row per field): the page's


def test_a_request_without_origin_is_left_to_the_token(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    served = serve_toy(source)
    try:
        with _client(served) as client:
            item = client.get("/api/next", params={"annotator": "ann"}).json()["item_id"]
            body = {"annotator": "ann", "item_id": item, "answer": ANSWER}
            assert client.post("/api/answer", json=body).status_code == 200  # a script, curl
            own_referer = {"Referer": f"{served.base}/?token={served.token}"}
            assert client.post("/api/answer", json=body, headers=own_referer).status_code == 200
        no_token = httpx.post(f"{served.base}/api/answer", json=body, timeout=10)
        assert no_token.status_code == 403
        assert "access token" in no_token.json()["error"]
    finally:
        assert served.stop() == 0


@pytest.mark.slow
def test_a_host_beyond_loopback_warns_in_one_line(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    exposed = serve_toy(source, "--host", "0.0.0.0")
    assert exposed.stop() == 0
    warnings = [line for line in exposed.stderr if line.startswith("Warning:")]
    assert warnings == [
        "Warning: --host 0.0.0.0 is not loopback: the app is reachable from other machines on "
        "the network, and its access token is the only guard; use --host 127.0.0.1 to keep it "
        "local.\n"
    ]
    assert "Traceback" not in "".join(exposed.stderr)
    local = serve_toy(source, "--host", "localhost")
    assert local.stop() == 0
    assert not [line for line in local.stderr if line.startswith("Warning:")]
