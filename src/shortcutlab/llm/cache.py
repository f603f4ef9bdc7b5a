"""A persistent cache of LLM answers: one SQLite file, keyed by ``ChatRequest.key(identity)``.

Only successful answers are stored, each as soon as it arrives, so a run that is interrupted and
started again sends nothing it already received. Several processes may share the file: WAL lets
readers run beside a writer, ``busy_timeout`` waits for the lock and ``INSERT OR IGNORE`` keeps
the first answer when two workers asked the same thing.

Examples:
    >>> import tempfile
    >>> cache = ResponseCache(Path(tempfile.mkdtemp()) / "llm.sqlite")
    >>> cache.put("k1", CachedResponse("positive", prompt_tokens=7, completion_tokens=1))
    >>> cache.get(["k1", "k2"]), len(cache)
    ({'k1': CachedResponse(text='positive', prompt_tokens=7, completion_tokens=1)}, 1)
    >>> cache.close()
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from shortcutlab.cache_paths import default_cache_dir
from shortcutlab.data.sqlite_file import connect

CACHE_FILE = "llm-cache.sqlite"
_BUSY_TIMEOUT_MS = 120_000
# What ends a damaged cache's message.
CACHE_RECOVERY = "It is a cache: delete it and the answers are asked for again"
_CHUNK = 500  # keys per SELECT ... IN (...), well under SQLite's bound-variable limit


class _Answer(Protocol):
    text: str | None
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True)
class CachedResponse:
    """A stored answer and the tokens it cost when it was first asked for."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


def resolve_cache_path(cache: str | Path | None) -> Path:
    """``cache`` itself, or ``llm-cache.sqlite`` in ``$SHORTCUTLAB_CACHE`` (else ~/.cache/shortcutlab)."""
    return Path(cache).expanduser() if cache is not None else default_cache_dir() / CACHE_FILE


class ResponseCache:
    """The answers stored in the SQLite file at ``path``; one connection, shared under a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._connection = connect(
            self.path,
            recovery=CACHE_RECOVERY,
            timeout=_BUSY_TIMEOUT_MS / 1000,
            check_same_thread=False,
        )
        self._connection.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        self._connection.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL still survives a killed process (only a power cut can lose the last
        # commits) and spares an fsync per answer, which matters when every answer is committed.
        self._connection.execute("PRAGMA synchronous = NORMAL")
        with self._connection:
            self._connection.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT NOT NULL, "
                "prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL) WITHOUT ROWID"
            )

    def get(self, keys: Sequence[str]) -> dict[str, CachedResponse]:
        """The stored answers among ``keys`` (missing keys are simply absent)."""
        found: dict[str, CachedResponse] = {}
        with self._lock:
            for start in range(0, len(keys), _CHUNK):
                chunk = list(keys[start : start + _CHUNK])
                marks = ",".join("?" * len(chunk))
                rows = self._connection.execute(
                    f"SELECT key, text, prompt_tokens, completion_tokens FROM responses "
                    f"WHERE key IN ({marks})",
                    chunk,
                )
                for key, text, prompt_tokens, completion_tokens in rows:
                    found[key] = CachedResponse(text, prompt_tokens, completion_tokens)
        return found

    def put(self, key: str, answer: _Answer) -> None:
        """Store one successful answer at once; a key already present keeps its first answer."""
        if answer.text is None:
            raise ValueError("only successful answers (text is not None) are cached")
        with self._lock, self._connection:
            self._connection.execute(
                "INSERT OR IGNORE INTO responses VALUES (?, ?, ?, ?)",
                (key, answer.text, answer.prompt_tokens, answer.completion_tokens),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._connection.close()
