"""One run per run folder at a time: an OS lock (``flock``) on a file inside the folder.

``shortcutlab run`` holds the lock from before it touches the folder until it ends; a second run
on the folder, and a reader of its results, answer with one line naming the holder (its PID,
host and start time, which the holder writes into the lock file) and what to do. The kernel
drops the lock when its holder dies, even by ``kill -9``, so a lock is never left behind; the file
is removed when the run ends (after ``kill -9`` it stays, unlocked, and the next run takes it).

``flock`` rather than the ``filelock`` package: the holder's record must live in the locked file
itself (filelock truncates it on every attempt), and a waiter must see that the file it locked
is still the folder's (a failed fresh run removes its folder, lock file included).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shortcutlab.data.partials import process_alive
from shortcutlab.errors import FolderInUseError, ended, knob, warn

#: What flock answers on a file system without locks (some network and FUSE mounts).
NO_LOCKS = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS})
#: The lock file inside a run folder (hidden; a run folder holding only it counts as empty).
LOCK_FILE = ".shortcutlab-run.lock"


@contextlib.contextmanager
def run_folder_lock(out: Path) -> Iterator[bool]:
    """Hold the lock of the run folder ``out`` (created when missing) for the block; yields
    whether this call created the folder. Raises :class:`FolderInUseError` when another process
    holds it."""
    created, unlockable = False, ""
    while True:
        created = created or not out.exists()
        out.mkdir(parents=True, exist_ok=True)
        path = out / LOCK_FILE
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(descriptor)
            os.close(descriptor)
            raise FolderInUseError(in_use_message(out, holder, reading=False)) from None
        except OSError as error:
            os.close(descriptor)
            if error.errno not in NO_LOCKS:
                raise
            unlockable = error.strerror
            break
        if _is_current(path, descriptor):
            break
        os.close(descriptor)  # locked a file a failed fresh run had just removed: take the new one
    if unlockable:
        warn(
            f"The file system of '{out}' cannot lock files ({unlockable}), so nothing keeps a "
            "second run out of this folder: start one run at a time there."
        )
        yield created
        return
    try:
        _write_holder(descriptor)
        yield created
    finally:
        with contextlib.suppress(FileNotFoundError):  # a failed fresh run removed its folder
            if _is_current(path, descriptor):
                path.unlink()  # before the lock is dropped: a waiter on this file sees it is gone
        os.close(descriptor)


def check_not_in_use(folder: Path) -> None:
    """Refuse to read a run folder while a run (another process) writes it."""
    try:
        descriptor = os.open(Path(folder) / LOCK_FILE, os.O_RDONLY)
    except OSError:  # no lock file (no run now), or one we cannot open (nothing to tell)
        return
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(descriptor)
            if not _is_this_process(holder):  # this process's own run may read its folder
                raise FolderInUseError(in_use_message(folder, holder, reading=True)) from None
        except OSError:  # a file system without locks: no run can hold one
            return
        else:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
    finally:
        os.close(descriptor)


def in_use_message(folder: Path, holder: dict[str, Any], *, reading: bool) -> str:
    """One line: who holds the run folder's lock, and what to do."""
    pid, host = holder.get("pid"), holder.get("host")
    who = (
        f"PID {pid} on host {host}, started {holder.get('started', '?')}"
        if pid and host
        else "a process that has not yet said who it is"
    )
    here = host == socket.gethostname()
    if isinstance(pid, int) and here and not process_alive(pid):
        todo = (
            "That process has ended, yet a process it started still holds the lock: end that "
            "one, then try again."
        )
    else:
        todo = (
            "Wait until that run finishes (or stop it), then read its results."
            if reading
            else "Wait until it finishes (or stop it) and run again to resume, or use another "
            f"{ended(knob('out', run=True))}"
        )
    return f"The run folder '{folder}' is in use: a run holds its lock ({who}). {todo}"


def _holder_record() -> dict[str, Any]:
    started = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return {"pid": os.getpid(), "host": socket.gethostname(), "started": started}


def _write_holder(descriptor: int) -> None:
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, (json.dumps(_holder_record()) + "\n").encode(), 0)


def _read_holder(descriptor: int) -> dict[str, Any]:
    """The holder's record, or {} while it has not written it yet (or wrote something else)."""
    try:
        record = json.loads(os.pread(descriptor, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _is_current(path: Path, descriptor: int) -> bool:
    """Whether ``path`` still names the file open as ``descriptor``."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(descriptor)
    return (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino)


def _is_this_process(holder: dict[str, Any]) -> bool:
    return holder.get("pid") == os.getpid() and holder.get("host") == socket.gethostname()
