"""``shortcutlab annotate serve`` as a real uvicorn process: SIGTERM, kill -9, a port in use."""

from __future__ import annotations

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
