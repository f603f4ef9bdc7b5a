"""A persistent embedding cache: float32 vectors keyed by the SHA-1 of the text, one SQLite file.

A grid fits the same frozen encoder on many benchmarks that share most texts; caching makes each
text cost one forward pass per model. Several worker processes may share the file: WAL mode lets
readers run beside a writer, ``busy_timeout`` waits for the lock, and ``INSERT OR IGNORE`` makes
two workers that embedded the same text agree silently.

Examples:
    >>> import tempfile, numpy as np
    >>> cache = EmbeddingCache(Path(tempfile.mkdtemp()) / "e.sqlite", "demo-model|abc")
    >>> cache.put({text_key("hi"): np.ones(3, dtype=np.float32)})
    >>> cache.get([text_key("hi"), text_key("new")])[text_key("hi")].tolist(), len(cache)
    ([1.0, 1.0, 1.0], 1)
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path

import numpy as np

from shortcutlab.data.sqlite_file import connect

CACHE_FILE = "embeddings.sqlite"
_BUSY_TIMEOUT_MS = 120_000
# What ends a damaged cache's message.
CACHE_RECOVERY = "It is a cache: delete it and the embeddings are computed again"
_CHUNK = 500  # keys per SELECT ... IN (...), well under SQLite's bound-variable limit


def text_key(text: str) -> bytes:
    """The cache key of a text: its SHA-1 digest (20 bytes)."""
    return hashlib.sha1(text.encode("utf-8")).digest()


class EmbeddingCache:
    """The vectors of one model (``identity``) in the SQLite file at ``path``."""

    def __init__(self, path: str | Path, identity: str) -> None:
        self.path = Path(path)
        self.identity = identity
        self.table = "embeddings_" + hashlib.sha1(identity.encode("utf-8")).hexdigest()[:16]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as connection, connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS models (name TEXT PRIMARY KEY, identity TEXT NOT NULL)"
            )
            connection.execute(
                "INSERT OR IGNORE INTO models VALUES (?, ?)", (self.table, self.identity)
            )
            connection.execute(
                f"CREATE TABLE IF NOT EXISTS {self.table} "
                "(key BLOB PRIMARY KEY, vector BLOB NOT NULL) WITHOUT ROWID"
            )

    def get(self, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        """The cached vectors among ``keys`` (missing keys are simply absent)."""
        found: dict[bytes, np.ndarray] = {}
        with closing(self._connect()) as connection:
            for start in range(0, len(keys), _CHUNK):
                chunk = list(keys[start : start + _CHUNK])
                marks = ",".join("?" * len(chunk))
                rows = connection.execute(
                    f"SELECT key, vector FROM {self.table} WHERE key IN ({marks})", chunk
                )
                for key, vector in rows:
                    found[key] = np.frombuffer(vector, dtype=np.float32)
        return found

    def put(self, vectors: Mapping[bytes, np.ndarray]) -> None:
        """Store ``vectors`` in one transaction; keys already present keep their first vector."""
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()]
        with closing(self._connect()) as connection, connection:
            connection.executemany(f"INSERT OR IGNORE INTO {self.table} VALUES (?, ?)", rows)

    def __len__(self) -> int:
        with closing(self._connect()) as connection:
            return int(connection.execute(f"SELECT COUNT(*) FROM {self.table}").fetchone()[0])

    def _connect(self) -> sqlite3.Connection:
        connection = connect(self.path, recovery=CACHE_RECOVERY, timeout=_BUSY_TIMEOUT_MS / 1000)
        connection.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA journal_mode = WAL")
        return connection
