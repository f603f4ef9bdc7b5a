"""SQLite files a user keeps (a run's results, an annotation task's answers): errors that name them.

A damaged file ("database disk image is malformed"), a full or read-only disk and a locked file
reach the user as one line that names the file and says how to recover; an error of SQL itself
(a constraint, a syntax error) is a bug and keeps its traceback. A store opens its file with
:func:`connect`, whose connection and cursors translate every statement and fetch, and checks it
with :func:`check_intact` before trusting what it reads (a damaged page can hide rows silently).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from shortcutlab.errors import InputFileError, ShortcutlabError, StorageError, knob

# SQLite's primary result codes (the name before any '_' extension) a user's file or disk causes;
# {out} in an advice or a store's recovery becomes the output setting in the caller's terms.
DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
STORAGE = {
    "SQLITE_FULL": "The disk is full: free space on it, then run the command again.",
    "SQLITE_IOERR": "The disk failed to read or write (or is full): check it, then run again.",
    "SQLITE_READONLY": "It cannot be written: fix its permissions, or choose another {out}.",
    "SQLITE_CANTOPEN": "It cannot be opened: check the folder exists and its permissions.",
    "SQLITE_PERM": "It cannot be opened: fix its permissions, or choose another {out}.",
    "SQLITE_BUSY": "Another process holds it: wait for that one to finish, or stop it.",
    "SQLITE_LOCKED": "Another process holds it: wait for that one to finish, or stop it.",
}


def database_error(
    error: sqlite3.DatabaseError, path: str | Path | None, recovery: str
) -> ShortcutlabError | None:
    """The user error for ``error`` on the database ``path`` (None: unknown), or None for a bug."""
    code = (getattr(error, "sqlite_errorname", None) or "").split("_")
    primary = "_".join(code[:2])
    where = f"'{path}'" if path is not None else "A SQLite database"
    if primary in DAMAGED:
        state = "is damaged" if primary == "SQLITE_CORRUPT" else "is damaged or not a database"
        return InputFileError(
            f"{where} {state}: {error} [{primary}]. {_advice(recovery)}{_salvage(path)}"
        )
    if primary in STORAGE:
        return StorageError(f"{where}: {error} [{primary}]. {_advice(STORAGE[primary])}")
    return None


def _advice(text: str) -> str:
    """``text`` with its ``{out}`` named as the caller names the output folder (:func:`knob`)."""
    return text.format(out=knob("out", run=True))


def _salvage(path: str | Path | None) -> str:
    return f"; what is left may be salvaged with: sqlite3 '{path}' .recover" if path else "."


class _Translating:
    """Runs a sqlite3 call and raises a damaged or unwritable file as the store's user error."""

    path: Path
    recovery: str

    def _call(self, method: Any, *args: Any) -> Any:
        try:
            return method(*args)
        except sqlite3.DatabaseError as error:
            translated = database_error(error, self.path, self.recovery)
            if translated is None:
                raise
            raise translated from error


class CheckedCursor(sqlite3.Cursor, _Translating):
    def __init__(self, connection: CheckedConnection) -> None:
        super().__init__(connection)
        self.path, self.recovery = connection.path, connection.recovery

    def execute(self, *args: Any) -> CheckedCursor:
        return self._call(super().execute, *args)

    def executemany(self, *args: Any) -> CheckedCursor:
        return self._call(super().executemany, *args)

    def executescript(self, *args: Any) -> CheckedCursor:
        return self._call(super().executescript, *args)

    def fetchone(self) -> Any:
        return self._call(super().fetchone)

    def fetchmany(self, *args: Any) -> list[Any]:
        return self._call(super().fetchmany, *args)

    def fetchall(self) -> list[Any]:
        return self._call(super().fetchall)

    def __next__(self) -> Any:
        return self._call(super().__next__)


class CheckedConnection(sqlite3.Connection, _Translating):
    """A connection whose statements (and cursors, pandas' included) name the file on failure."""

    recovery = ""

    def __init__(self, database: str | Path, *args: Any, **kwargs: Any) -> None:
        self.path = Path(database)
        try:
            super().__init__(database, *args, **kwargs)
        except sqlite3.DatabaseError as error:
            translated = database_error(error, self.path, "")
            if translated is None:
                raise
            raise translated from error

    def cursor(self, factory: Any = None) -> Any:  # type: ignore[override]
        return super().cursor(factory or CheckedCursor)

    def execute(self, *args: Any) -> Any:  # sqlite3's own execute skips cursor()
        return self.cursor().execute(*args)

    def executemany(self, *args: Any) -> Any:
        return self.cursor().executemany(*args)

    def executescript(self, *args: Any) -> Any:
        return self.cursor().executescript(*args)

    def commit(self) -> None:
        self._call(super().commit)


def connect(path: str | Path, *, recovery: str, **options: Any) -> CheckedConnection:
    """Open ``path`` (``sqlite3.connect``'s ``options``); ``recovery`` ends a damaged file's
    message with what to do, e.g. "Run the spec again into a new {out}" (no final stop: the
    salvage command follows; ``{out}`` names the output folder in the caller's terms)."""
    connection = sqlite3.connect(path, factory=CheckedConnection, **options)
    connection.recovery = recovery
    return connection


def check_intact(connection: CheckedConnection) -> None:
    """Refuse a damaged file before reading it: a damaged page can hide rows without an error.
    ``quick_check`` reads every page once (it skips the index-content checks of
    ``integrity_check``), about what reading the results costs anyway."""
    report = [row[0] for row in connection.execute("PRAGMA quick_check(2)").fetchall()]
    if report != ["ok"]:
        # the first problem says enough (the report is a list of page numbers)
        lines = [line for text in report for line in text.splitlines() if "***" not in line]
        raise InputFileError(
            f"'{connection.path}' is damaged: {(lines or report)[0]} [SQLITE_CORRUPT]. "
            f"{_advice(connection.recovery)}{_salvage(connection.path)}"
        )


class WriteTransaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (including KeyboardInterrupt)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        self.connection.execute("BEGIN IMMEDIATE")
        return self.connection

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.connection.execute("ROLLBACK" if exc_type else "COMMIT")
