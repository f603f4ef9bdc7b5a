"""Group commit: many writers' small writes made durable together by one writer thread.

An fsync costs milliseconds whether it covers one answer or a thousand. Each caller of
:meth:`GroupCommit.submit` gets a future; the writer thread takes every write queued so far, hands
the batch to ``commit_batch`` (one transaction, one fsync) and only then resolves the futures, so a
caller acknowledges its write only once it is durable. While one batch is being committed the
next one queues up: the batch grows with the load and no timer delays a lone write.

A batch that fails is retried write by write, so one bad write fails alone and the others of its
batch are still committed (each failed future carries its own exception).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Generic, TypeVar

Write = TypeVar("Write")
MAX_BATCH = 2048  # bounds one transaction's size (and the latency of the last write in it)
_STOP = object()


class GroupCommit(Generic[Write]):
    """One writer thread committing queued writes in batches with ``commit_batch``.

    ``commit_batch(writes)`` must make all ``writes`` durable or raise, leaving none of them.
    :meth:`close` commits what is queued, then stops the thread; submitting afterwards raises.
    """

    def __init__(self, commit_batch: Callable[[Sequence[Write]], None], *, name: str) -> None:
        self._commit_batch = commit_batch
        self._queue: queue.SimpleQueue[tuple[Write, Future[None]] | object] = queue.SimpleQueue()
        self._closing = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, write: Write) -> Future[None]:
        """Queue ``write``; the future resolves once it is durable (or fails with the error)."""
        done: Future[None] = Future()
        done.set_running_or_notify_cancel()  # the write happens: a waiter's cancel must not undo it
        with self._closing:
            if self._closed:
                raise RuntimeError("the group commit is closed: no more writes")
            self._queue.put((write, done))
        return done

    def close(self) -> None:
        """Commit every queued write, then stop the writer thread."""
        with self._closing:
            if self._closed:
                return
            self._closed = True
            self._queue.put(_STOP)
        self._thread.join()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            batch = [self._queue.get()]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stopping = _STOP in batch
            pending = [entry for entry in batch if entry is not _STOP]
            if pending:
                self._commit(pending)  # type: ignore[arg-type]

    def _commit(self, pending: list[tuple[Write, Future[None]]]) -> None:
        try:
            self._commit_batch([write for write, _ in pending])
        except Exception as error:
            if len(pending) == 1:
                pending[0][1].set_exception(error)
            else:
                for one in pending:  # find the bad write; commit the others
                    self._commit([one])
            return
        for _, done in pending:
            done.set_result(None)


__all__ = ["MAX_BATCH", "GroupCommit"]
