"""Group commit: answers made durable in batches, each acknowledged only once its batch is stored.

The writer on its own (many threads' writes, a bad write among them, a close with writes queued),
then the real server under 50 concurrent clients killed with SIGKILL mid-load: every answer it
acknowledged is among the stored rows, with the values that were acknowledged.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest

from shortcutlab.annotate.group_commit import GroupCommit
from shortcutlab.annotate.store import AnnotationStore
from tests.annotate.served import ServedTask, serve_toy
from tests.annotate.toy_kind import TOY, write_toy_source

CLIENTS = 50
ACKNOWLEDGED_BEFORE_THE_KILL = 300


def _table(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE writes (value INTEGER NOT NULL CHECK (value >= 0))")
    return connection


def _inserting(
    connection: sqlite3.Connection, gate: threading.Event | None = None
) -> GroupCommit[int]:
    """Writes into ``connection``'s table; a batch holding 1000 first waits for ``gate``."""

    def commit_batch(values: Sequence[int]) -> None:
        if gate is not None and 1000 in values:
            gate.wait(timeout=30)
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.executemany("INSERT INTO writes VALUES (?)", [(v,) for v in values])
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    return GroupCommit(commit_batch, name="test-group-commit")


def _stored(connection: sqlite3.Connection) -> list[int]:
    return sorted(value for (value,) in connection.execute("SELECT value FROM writes"))


def test_every_thread_s_write_is_stored_once_its_future_resolves(tmp_path: Path) -> None:
    connection = _table(tmp_path / "writes.sqlite")
    group_commit = _inserting(connection)
    seen_on_resolve: list[bool] = []

    def write_many(first: int) -> None:
        for value in range(first, first + 50):
            group_commit.submit(value).result(timeout=30)
            reader = sqlite3.connect(tmp_path / "writes.sqlite")
            found = reader.execute("SELECT 1 FROM writes WHERE value = ?", (value,)).fetchall()
            reader.close()
            seen_on_resolve.append(bool(found))

    threads = [threading.Thread(target=write_many, args=(50 * i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    group_commit.close()
    assert seen_on_resolve == [True] * 400  # resolved = readable from another connection
    assert _stored(connection) == list(range(400))


def test_a_bad_write_fails_alone_and_its_batch_is_still_stored(tmp_path: Path) -> None:
    connection = _table(tmp_path / "writes.sqlite")
    gate = threading.Event()
    group_commit = _inserting(connection, gate)
    blocker = group_commit.submit(1000)  # holds the writer while the writes below queue up
    futures = [group_commit.submit(value) for value in (1, 2, -1, 3)]
    gate.set()
    blocker.result(timeout=30)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        futures[2].result(timeout=30)
    for future in (futures[0], futures[1], futures[3]):
        future.result(timeout=30)
    group_commit.close()
    assert _stored(connection) == [1, 2, 3, 1000]


def test_close_stores_the_queued_writes_and_refuses_more(tmp_path: Path) -> None:
    connection = _table(tmp_path / "writes.sqlite")
    group_commit = _inserting(connection)
    futures = [group_commit.submit(value) for value in range(100)]
    group_commit.close()
    assert all(future.done() and future.exception() is None for future in futures)
    assert _stored(connection) == list(range(100))
    with pytest.raises(RuntimeError, match="closed"):
        group_commit.submit(100)


async def _annotate(
    served: ServedTask, name: str, acknowledged: dict[tuple[str, str], dict[str, str]]
) -> None:
    headers = {"X-Token": served.token}
    async with httpx.AsyncClient(base_url=served.base, headers=headers, timeout=30) as client:
        try:
            view = (await client.get("/api/next", params={"annotator": name})).json()
            while not view["done"]:
                answer = {"label": ["negative", "positive"][view["position"] % 2], "sure": "yes"}
                body = {"annotator": name, "item_id": view["item_id"], "answer": answer}
                reply = await client.post("/api/answer", json=body)
                if reply.status_code != 200 or not reply.json()["stored"]:
                    return
                acknowledged[(view["item_id"], name)] = answer
                view = reply.json()["next"]
        except httpx.TransportError:  # killed under this request: it was never acknowledged
            return


async def _load_then_kill(
    served: ServedTask, database: Path
) -> dict[tuple[str, str], dict[str, str]]:
    """50 clients post; once 300 answers are acknowledged, the database's write lock is taken
    from outside for half a second (answers queue up, none can be committed), and the server is
    killed with SIGKILL while the clients are still posting. A reply sent before its answer is
    durable would show then: acknowledged, yet missing from the stored rows."""
    acknowledged: dict[tuple[str, str], dict[str, str]] = {}
    clients = [
        asyncio.create_task(_annotate(served, f"load{i:02d}", acknowledged)) for i in range(CLIENTS)
    ]
    for _ in range(3000):
        if len(acknowledged) >= ACKNOWLEDGED_BEFORE_THE_KILL:
            break
        await asyncio.sleep(0.01)
    holder = sqlite3.connect(database, timeout=30, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    await asyncio.sleep(0.5)
    served.process.send_signal(signal.SIGKILL)
    await asyncio.gather(*clients)
    holder.execute("ROLLBACK")
    holder.close()
    return acknowledged


@pytest.mark.slow
def test_kill_9_under_50_clients_keeps_every_acknowledged_answer(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source", rows=60)
    served = serve_toy(source, "--sample", "60")
    folder = source / "annotations" / TOY
    acknowledged = asyncio.run(_load_then_kill(served, folder / "annotations.sqlite"))
    assert served.stop() == -signal.SIGKILL
    assert len(acknowledged) >= ACKNOWLEDGED_BEFORE_THE_KILL
    with AnnotationStore.open(folder) as store:
        answers = store.answers()
    stored = {
        (item_id, annotator): dict(zip(rows.field, rows.value, strict=True))
        for (item_id, annotator), rows in answers.groupby(["item_id", "annotator"])
    }
    assert {key: stored.get(key) for key in acknowledged} == acknowledged
    assert len({annotator for _, annotator in acknowledged}) == CLIENTS  # all were posting
