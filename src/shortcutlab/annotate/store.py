"""An annotation task's answers: one SQLite database (WAL) per task folder.

Answers are committed with ``synchronous=FULL``, so a server killed at any moment (or a browser
reloaded) loses no acknowledged answer: the app replies only after the commit. The server's
answers go through :meth:`AnnotationStore.submit`: a group commit (one writer thread, its own
connection) puts every answer queued meanwhile into one transaction, so one fsync covers many
answers. An annotator answering an item again replaces their earlier answer (the latest counts).

Tables:
    meta     the task: kind, source, form, facts, sample, seed and the kind's options
    items    the items in the order shown: id, payload (shown), reference (never shown)
    answers  one row per item x annotator: the answer ({field: value}) and when it was given
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.annotate.group_commit import GroupCommit
from shortcutlab.annotate.kinds import Choice, Field, Form, Item, TaskPlan
from shortcutlab.data.sqlite_file import check_intact, connect
from shortcutlab.errors import ConfigError, InputFileError

DATABASE = "annotations.sqlite"
RECOVERY = "Restore it from a backup, or start the task afresh with another --folder"
ANSWER_COLUMNS = ["item_id", "annotator", "field", "value", "answered_at"]
UPSERT_ANSWER = (
    "INSERT INTO answers (item_id, annotator, answer) VALUES (?, ?, ?) "
    "ON CONFLICT (item_id, annotator) DO UPDATE SET answer = excluded.answer, "
    "answered_at = excluded.answered_at"
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    position INTEGER PRIMARY KEY,
    item_id TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL,
    reference TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    item_id TEXT NOT NULL REFERENCES items(item_id),
    annotator TEXT NOT NULL,
    answer TEXT NOT NULL,
    answered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (item_id, annotator)
);
-- an annotator's next item and count read their answers alone, not the whole table
CREATE INDEX IF NOT EXISTS answers_by_annotator ON answers (annotator, item_id);
"""


def _dumps(value: Any, *, sort_keys: bool = True) -> str:
    return json.dumps(value, sort_keys=sort_keys, ensure_ascii=False)


def form_from_json(data: dict[str, Any]) -> Form:
    return Form(
        fields=tuple(
            Field(
                name=field["name"],
                prompt=field["prompt"],
                choices=tuple(Choice(**choice) for choice in field["choices"]),
            )
            for field in data["fields"]
        )
    )


class AnnotationStore:
    """The task folder's database. ``create`` writes a plan once; ``open`` reads an existing one.

    Safe to share between the server's threads: one connection (``check_same_thread=False``)
    whose every statement and transaction runs under the store's lock, so two threads'
    transactions never interleave on it. The group commit of :meth:`submit` writes through a
    second connection of its own (WAL: readers go on while it waits for the disk).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / DATABASE
        self._lock = threading.RLock()
        self._group_commit: GroupCommit[tuple[str, str, dict[str, str]]] | None = None
        self._writer: sqlite3.Connection | None = None
        self._writer_lock = threading.RLock()  # the writer's connection: the group commit's alone
        existed = self.path.exists()
        self._connection = self._connect()
        try:
            if existed:  # a damaged page can hide answers without an error: check first
                check_intact(self._connection)
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.executescript(SCHEMA)
        except BaseException:
            self._connection.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        connection = connect(
            self.path,
            recovery=RECOVERY,
            isolation_level=None,
            check_same_thread=False,
            timeout=30.0,
        )
        try:
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            connection.close()
            raise
        return connection

    # -- lifecycle -------------------------------------------------------------------------
    @classmethod
    def exists(cls, folder: str | Path) -> bool:
        return (Path(folder) / DATABASE).is_file()

    @classmethod
    def create(
        cls,
        folder: str | Path,
        plan: TaskPlan,
        *,
        sample: int,
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> AnnotationStore:
        """A new task folder holding ``plan`` drawn with ``sample``, ``seed`` and the kind's
        ``options`` (kept so a resume can be checked against them); refuses a folder that
        already has a task."""
        folder = Path(folder)
        if cls.exists(folder):
            raise ConfigError(
                f"'{folder}' already holds an annotation task. Serve it again to resume, or "
                "choose another --folder."
            )
        folder.mkdir(parents=True, exist_ok=True)
        store = cls(folder)
        meta = {
            "kind": plan.kind,
            "source": plan.source,
            "form": _dumps(asdict(plan.form)),
            "facts": _dumps(plan.facts),
            "sample": str(sample),
            "seed": str(seed),
            "options": _dumps(options or {}),
        }
        with store._transaction() as connection:
            connection.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
            connection.executemany(
                "INSERT INTO items VALUES (?, ?, ?, ?)",
                [  # a payload keeps the kind's order of its parts: the page shows them so
                    (
                        position,
                        item.item_id,
                        _dumps(item.payload, sort_keys=False),
                        _dumps(item.reference),
                    )
                    for position, item in enumerate(plan.items)
                ],
            )
        return store

    @classmethod
    def open(cls, folder: str | Path) -> AnnotationStore:
        if not cls.exists(folder):
            raise InputFileError(
                f"'{folder}' holds no annotation task ({DATABASE} is missing). Start one with "
                "'shortcutlab annotate serve SOURCE --task KIND'."
            )
        store = cls(folder)
        if "kind" not in store.meta():  # an emptied or foreign SQLite file
            store.close()
            raise InputFileError(
                f"'{store.path}' holds no annotation task (no task kind in its meta table): it "
                f"was emptied or not written by shortcutlab. {RECOVERY}."
            )
        return store

    def close(self) -> None:
        """Commit the answers still queued, then close the connections."""
        with self._lock:
            group_commit, self._group_commit = self._group_commit, None
        if group_commit is not None:
            group_commit.close()
        with self._lock:
            if self._writer is not None:
                self._writer.close()
            self._connection.close()

    def __enter__(self) -> AnnotationStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._connection.execute(sql, parameters).fetchall()

    def meta(self) -> dict[str, str]:
        return dict(self._rows("SELECT key, value FROM meta"))

    def plan(self) -> TaskPlan:
        meta = self.meta()
        items = [
            Item(item_id=item_id, payload=json.loads(payload), reference=json.loads(reference))
            for item_id, payload, reference in self._rows(
                "SELECT item_id, payload, reference FROM items ORDER BY position"
            )
        ]
        return TaskPlan(
            kind=meta["kind"],
            source=meta["source"],
            form=form_from_json(json.loads(meta["form"])),
            items=items,
            facts=json.loads(meta["facts"]),
        )

    def item_count(self) -> int:
        return int(self._rows("SELECT COUNT(*) FROM items")[0][0])

    def has_item(self, item_id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM items WHERE item_id = ?", (item_id,)))

    def answered_items(self, annotator: str) -> list[str]:
        """The ids of the items ``annotator`` has answered."""
        rows = self._rows("SELECT item_id FROM answers WHERE annotator = ?", (annotator,))
        return [item_id for (item_id,) in rows]

    def answered(self, annotator: str) -> int:
        return int(
            self._rows("SELECT COUNT(*) FROM answers WHERE annotator = ?", (annotator,))[0][0]
        )

    def annotators(self) -> list[str]:
        return [
            name
            for (name,) in self._rows("SELECT DISTINCT annotator FROM answers ORDER BY annotator")
        ]

    def answer(self, item_id: str, annotator: str) -> dict[str, str]:
        """``annotator``'s stored answer to ``item_id`` ({} when none)."""
        rows = self._rows(
            "SELECT answer FROM answers WHERE item_id = ? AND annotator = ?", (item_id, annotator)
        )
        return json.loads(rows[0][0]) if rows else {}

    def answers(self) -> pd.DataFrame:
        """One row per item x annotator x field (columns :data:`ANSWER_COLUMNS`), in item order."""
        rows = []
        for item_id, annotator, answer, answered_at in self._rows(
            "SELECT a.item_id, a.annotator, a.answer, a.answered_at FROM answers a "
            "JOIN items i ON i.item_id = a.item_id ORDER BY i.position, a.annotator"
        ):
            for field, value in sorted(json.loads(answer).items()):
                rows.append((item_id, annotator, field, value, answered_at))
        return pd.DataFrame(rows, columns=ANSWER_COLUMNS)

    # -- writing ---------------------------------------------------------------------------
    def record(self, item_id: str, annotator: str, answer: dict[str, str]) -> None:
        """Store (or replace) ``annotator``'s answer to ``item_id``; committed when this returns."""
        with self._transaction() as connection:
            connection.execute(UPSERT_ANSWER, (item_id, annotator, _dumps(answer)))

    def submit(self, item_id: str, annotator: str, answer: dict[str, str]) -> Future[None]:
        """Queue ``annotator``'s answer to ``item_id`` for the group commit (see the module
        docstring); the future resolves once the answer is durable, or fails with the error."""
        with self._lock:
            if self._group_commit is None:
                self._writer = self._connect()
                self._group_commit = GroupCommit(
                    self._record_batch, name=f"group-commit {self.path}"
                )
            group_commit = self._group_commit
        return group_commit.submit((item_id, annotator, answer))

    def _record_batch(self, answers: Sequence[tuple[str, str, dict[str, str]]]) -> None:
        """Store ``answers`` in one transaction on the writer's connection (the group commit's
        thread is its only user)."""
        assert self._writer is not None
        with _Transaction(self._writer, self._writer_lock) as connection:
            connection.executemany(
                UPSERT_ANSWER,
                [(item_id, annotator, _dumps(answer)) for item_id, annotator, answer in answers],
            )

    def _transaction(self) -> Any:
        return _Transaction(self._connection, self._lock)


class _Transaction:
    def __init__(self, connection: sqlite3.Connection, lock: threading.RLock) -> None:
        self.connection = connection
        self.lock = lock

    def __enter__(self) -> sqlite3.Connection:
        self.lock.acquire()
        try:
            self.connection.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.lock.release()
            raise
        return self.connection

    def __exit__(self, kind: Any, *exc: object) -> None:
        try:
            self.connection.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.lock.release()


__all__ = ["ANSWER_COLUMNS", "DATABASE", "AnnotationStore", "form_from_json"]
