"""The result store of a run: one SQLite database (WAL mode) in the run folder.

A cell's row and its predictions are written in one transaction, so a run killed at any moment
(even ``kill -9``) leaves only whole cells behind; resuming skips them and redoes the rest. Only
the coordinating process writes, so there is never a write conflict.

Tables:
    meta         the resolved spec, its hash, the tool version
    cells        one row per finished cell: configuration, status, metrics, timings, versions
                 (a store written before mitigations existed gains the mitigation column, 'erm')
    rows         per benchmark and split: row ids and label ranks (shared by all its cells)
    predictions  per cell and split: class probabilities (float32), so any metric can be recomputed
    group_statistics  per family and group: its statistics over seeds (the bootstrap done once),
                 valid for exactly its listed cells and settings; writing a cell drops the rows
                 of the groups it belongs to (a store written before this table gains it empty)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab._version import __version__
from shortcutlab.data.sqlite_file import WriteTransaction, check_intact, connect
from shortcutlab.engine.run_lock import check_not_in_use
from shortcutlab.engine.stored_groups import StoredGroup, plain_number
from shortcutlab.errors import ConfigError, DataError, InputFileError, knob, spelled

DATABASE = "results.sqlite"
RECOVERY = "Its results cannot be trusted: run the spec again into a new {out}"
SPEC_COPY = "spec.resolved.json"  # the resolved spec beside the store, readable without SQLite

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cells (
    cell_id TEXT PRIMARY KEY,
    dataset TEXT NOT NULL,
    shortcut TEXT NOT NULL,
    strength REAL NOT NULL,
    model TEXT NOT NULL,
    mitigation TEXT NOT NULL DEFAULT 'erm',
    seed INTEGER NOT NULL,
    benchmark_id TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    metrics TEXT,
    error TEXT,
    fit_seconds REAL,
    predict_seconds REAL,
    total_seconds REAL,
    shared_fit INTEGER NOT NULL DEFAULT 0,
    versions TEXT,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS rows (
    benchmark_id TEXT NOT NULL,
    split TEXT NOT NULL,
    row_ids BLOB NOT NULL,
    labels BLOB NOT NULL,
    PRIMARY KEY (benchmark_id, split)
);
CREATE TABLE IF NOT EXISTS predictions (
    cell_id TEXT NOT NULL REFERENCES cells(cell_id) ON DELETE CASCADE,
    split TEXT NOT NULL,
    n_classes INTEGER NOT NULL,
    probabilities BLOB NOT NULL,
    PRIMARY KEY (cell_id, split)
);
CREATE TABLE IF NOT EXISTS group_statistics (
    family TEXT NOT NULL,
    group_key TEXT NOT NULL,
    cell_ids TEXT NOT NULL,
    settings TEXT NOT NULL,
    statistics TEXT NOT NULL,
    PRIMARY KEY (family, group_key)
);
"""


def run_command(out: str | Path) -> str:
    """How the caller runs a spec into the run folder ``out``: ``shortcutlab run`` on the command
    line, ``run_experiment`` in Python."""
    return spelled(f"'shortcutlab run SPEC --out {out}'", f"run_experiment(spec, out={str(out)!r})")


@dataclass
class CellRecord:
    """What a finished (or failed) cell leaves in the store."""

    cell_id: str
    dataset: str
    shortcut: str
    strength: float
    model: str
    seed: int
    benchmark_id: str
    config: dict[str, Any]
    status: str
    mitigation: str = "erm"
    metrics: dict[str, Any] | None = None
    error: str | None = None
    probabilities: dict[str, np.ndarray] | None = None
    fit_seconds: float | None = None
    predict_seconds: float | None = None
    total_seconds: float | None = None
    shared_fit: bool = False
    versions: dict[str, str] | None = None


class ResultStore:
    """Open (or create) the store of a run folder."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        """``create=False`` opens an existing store only: nothing is added to a file that is not
        one (a reader must not turn a stray file into an empty store)."""
        self.path = Path(path)
        existed = self.path.exists()
        self.connection = connect(self.path, recovery=RECOVERY, timeout=60, isolation_level=None)
        try:
            if existed:
                check_intact(self.connection)
            if not create and not self._has_schema():
                raise InputFileError(
                    f"'{self.path}' holds no shortcutlab results (no cells table); it was not "
                    "written by 'shortcutlab run'. Point at a run folder."
                )
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute(
                "PRAGMA synchronous=NORMAL"
            )  # WAL + NORMAL: durable at each checkpoint, atomic always
            self.connection.execute("PRAGMA foreign_keys=ON")
            self.connection.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as error:
            self.connection.close()
            raise InputFileError(
                f"'{self.path}' is not a readable results database ({error}). Point at the "
                f"{DATABASE} that a run wrote, or run the spec again into a new {knob('out', run=True)}."
            ) from None
        except BaseException:
            self.connection.close()
            raise

    def _has_schema(self) -> bool:
        tables = {
            name
            for (name,) in self.connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }
        return {"meta", "cells"} <= tables

    def _migrate(self) -> None:
        """Bring a store written by an older version up to the schema (its cells are erm cells)."""
        columns = {row[1] for row in self.connection.execute("PRAGMA table_info(cells)")}
        if "mitigation" not in columns:
            self.connection.execute(
                "ALTER TABLE cells ADD COLUMN mitigation TEXT NOT NULL DEFAULT 'erm'"
            )

    @classmethod
    def for_run(cls, run_dir: str | Path) -> ResultStore:
        """Open an existing run folder's store (for reading results; refused while a run in
        another process writes it)."""
        check_not_in_use(Path(run_dir))
        path = Path(run_dir) / DATABASE
        if not path.exists():
            raise InputFileError(
                f"'{run_dir}' is not a run folder: it has no {DATABASE}. Run "
                f"{run_command(run_dir)} first."
            )
        return cls(path, create=False)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the spec -----------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def spec(self) -> dict[str, Any]:
        text = self.meta("spec")
        if text is None:
            raise InputFileError(
                f"'{self.path}' holds no spec; it was not written by 'shortcutlab run'."
            )
        return json.loads(text)

    def check_spec(self, fingerprint: str, *, force: bool) -> None:
        """Refuse a run folder that holds results of another spec, unless forced (read-only).
        A store without a finished cell (a fresh run killed early) holds nothing to protect."""
        stored = self.meta("spec_hash")
        if stored is not None and stored != fingerprint and not force and self.finished():
            name = json.loads(self.meta("spec") or "{}").get("name", "?")
            raise ConfigError(
                f"The run folder '{self.path.parent}' holds results of a different spec ('{name}'). "
                f"Use another {knob('out', run=True)}, or pass {knob('force', True, run=True)} to run "
                "this spec there (the finished cells it shares are kept)."
            )

    def write_spec(self, resolved: dict[str, Any], fingerprint: str, cell_ids: list[str]) -> None:
        """Record the run's spec and its cells (results are reported for these cells only)."""
        entries = (
            ("spec", json.dumps(resolved, sort_keys=True)),
            ("spec_hash", fingerprint),
            ("cell_ids", json.dumps(cell_ids)),
            ("tool_version", __version__),
        )
        with self.transaction():
            for key, value in entries:
                self.connection.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value)
                )

    # -- cells --------------------------------------------------------------------------------
    def transaction(self) -> WriteTransaction:
        return WriteTransaction(self.connection)

    def finished(self) -> set[str]:
        return {
            row[0]
            for row in self.connection.execute("SELECT cell_id FROM cells WHERE status = 'done'")
        }

    def has_rows(self, benchmark_id: str) -> bool:
        return (
            self.connection.execute(
                "SELECT 1 FROM rows WHERE benchmark_id = ? LIMIT 1", (benchmark_id,)
            ).fetchone()
            is not None
        )

    def save_rows(self, benchmark_id: str, rows: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
        with self.transaction():
            for split, (row_ids, labels) in rows.items():
                self.connection.execute(
                    "INSERT OR REPLACE INTO rows VALUES (?, ?, ?, ?)",
                    (
                        benchmark_id,
                        split,
                        np.asarray(row_ids, np.int64).tobytes(),
                        np.asarray(labels, np.int32).tobytes(),
                    ),
                )

    def record(self, records: Iterable[CellRecord]) -> None:
        """Write cells (and their predictions) in one transaction: all of them or none."""
        with self.transaction():
            for record in records:
                self.connection.execute("DELETE FROM cells WHERE cell_id = ?", (record.cell_id,))
                self.connection.execute(STALE_GROUPS, (record.cell_id,))
                self.connection.execute(
                    "INSERT INTO cells (cell_id, dataset, shortcut, strength, model, mitigation, seed, benchmark_id, "
                    "config, status, metrics, error, fit_seconds, predict_seconds, total_seconds, shared_fit, versions) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.cell_id,
                        record.dataset,
                        record.shortcut,
                        record.strength,
                        record.model,
                        record.mitigation,
                        record.seed,
                        record.benchmark_id,
                        json.dumps(record.config, sort_keys=True),
                        record.status,
                        json.dumps(record.metrics) if record.metrics is not None else None,
                        record.error,
                        record.fit_seconds,
                        record.predict_seconds,
                        record.total_seconds,
                        int(record.shared_fit),
                        json.dumps(record.versions) if record.versions else None,
                    ),
                )
                for split, probabilities in (record.probabilities or {}).items():
                    array = np.ascontiguousarray(probabilities, dtype=np.float32)
                    self.connection.execute(
                        "INSERT INTO predictions VALUES (?, ?, ?, ?)",
                        (record.cell_id, split, array.shape[1], array.tobytes()),
                    )

    def cells(
        self, *, status: str | None = "done", cell_ids: Iterable[str] | None = None
    ) -> pd.DataFrame:
        """Finished cells (of ``cell_ids`` only, when given) as a DataFrame (metrics parsed
        into a dict column)."""
        query = "SELECT cell_id, dataset, shortcut, strength, model, mitigation, seed, benchmark_id, status, metrics, error, fit_seconds, predict_seconds, total_seconds, shared_fit FROM cells"
        conditions, params = (["status = ?"], [status]) if status else ([], [])
        if cell_ids is not None:
            wanted = list(cell_ids)
            conditions.append(f"cell_id IN ({', '.join('?' * len(wanted))})")
            params += wanted
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        # Written order, as a whole-table scan gives it (a cell_ids lookup could use the index).
        frame = pd.read_sql_query(query + " ORDER BY rowid", self.connection, params=params)
        # A failed cell's NULL metrics read back as NaN (a float) when done cells are in the frame.
        frame["metrics"] = frame["metrics"].map(
            lambda text: json.loads(text) if isinstance(text, str) and text else None
        )
        return frame

    def spec_cells(self) -> pd.DataFrame:
        """The finished cells of the stored spec (a run extended and shrunk again keeps others)."""
        wanted = set(json.loads(self.meta("cell_ids") or "[]"))
        frame = self.cells()
        if wanted:
            frame = frame[frame["cell_id"].isin(wanted)]
        if frame.empty:
            raise DataError(
                f"'{self.path.parent}' has no finished cells yet. Run 'shortcutlab run' on its spec first."
            )
        return frame

    def configs(self) -> dict[str, dict[str, Any]]:
        """Each finished cell's configuration (what its id hashes: benchmark, model, fit seed)."""
        query = "SELECT cell_id, config FROM cells WHERE status = 'done'"
        return {cell_id: json.loads(text) for cell_id, text in self.connection.execute(query)}

    def rows(self, benchmark_id: str, split: str) -> tuple[np.ndarray, np.ndarray]:
        found = self.connection.execute(
            "SELECT row_ids, labels FROM rows WHERE benchmark_id = ? AND split = ?",
            (benchmark_id, split),
        ).fetchone()
        if found is None:
            raise InputFileError(
                f"The store has no rows for benchmark {benchmark_id} split {split}."
            )
        return np.frombuffer(found[0], dtype=np.int64), np.frombuffer(found[1], dtype=np.int32)

    def probabilities(self, cell_id: str, split: str) -> np.ndarray:
        found = self.connection.execute(
            "SELECT n_classes, probabilities FROM predictions WHERE cell_id = ? AND split = ?",
            (cell_id, split),
        ).fetchone()
        if found is None:
            raise InputFileError(f"The store has no predictions for cell {cell_id} split {split}.")
        return np.frombuffer(found[1], dtype=np.float32).reshape(-1, found[0])

    # -- group statistics ---------------------------------------------------------------------
    def group_statistics(self, family: str) -> dict[str, StoredGroup]:
        """The stored statistics of ``family``'s groups, by group key."""
        query = "SELECT group_key, cell_ids, settings, statistics FROM group_statistics WHERE family = ?"
        return {
            key: StoredGroup(
                key, tuple(json.loads(ids)), json.loads(settings), json.loads(statistics)
            )
            for key, ids, settings, statistics in self.connection.execute(query, (family,))
        }

    def save_group_statistics(
        self, family: str, groups: Iterable[StoredGroup], *, read_at: int | None = None
    ) -> bool:
        """Store (or replace) the statistics of ``family``'s ``groups``, in one transaction;
        with ``read_at`` (a :meth:`data_version`), only where no other connection has written
        the store since (the groups may have been computed from cells rewritten meanwhile).
        Returns whether they were stored."""
        with self.transaction():
            if read_at is not None and self.data_version() != read_at:
                return False
            for group in groups:
                self.connection.execute(
                    "INSERT OR REPLACE INTO group_statistics VALUES (?, ?, ?, ?, ?)",
                    (
                        family,
                        group.key,
                        json.dumps(sorted(group.cell_ids)),
                        json.dumps(group.settings, sort_keys=True),
                        json.dumps(group.statistics, default=plain_number),
                    ),
                )
        return True

    def data_version(self) -> int:
        """SQLite's count of other connections' commits, as this connection sees it."""
        return int(self.connection.execute("PRAGMA data_version").fetchone()[0])


#: Drop the stored statistics of every group that holds a cell (the cell is being rewritten).
STALE_GROUPS = (
    "DELETE FROM group_statistics WHERE EXISTS "
    "(SELECT 1 FROM json_each(group_statistics.cell_ids) WHERE json_each.value = ?)"
)
