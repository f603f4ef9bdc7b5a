"""The hidden ``.NAME.PID.XXXXXXXX.partial`` folders an output is built in, and their cleanup.

An output folder is built in a temporary folder beside it and renamed into place when complete
(:func:`~shortcutlab.data.writing.atomic_output_dir`). A process killed meanwhile leaves that
folder behind; the PID in its name says whose it was, so the next build or run removes the
folders of processes that have ended and never one that is still being written.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

PARTIAL_SUFFIX = ".partial"
# tempfile.mkdtemp adds 8 characters of [a-z0-9_] between the prefix and the suffix.
_NAME = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[a-z0-9_]{8}\.partial$")


def partial_prefix(name: str) -> str:
    """The ``prefix`` of ``tempfile.mkdtemp`` for a folder that will become ``name``:
    ``.NAME.PID.``, this process's PID."""
    return f".{name}.{os.getpid()}."


def process_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (one of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, ValueError):  # no PID at all
        return False
    return True


def remove_stale_partials(parent: Path, name: str | None = None) -> list[Path]:
    """Remove the partial folders in ``parent`` (those for ``name`` only, when given) whose
    process has ended; returns what was removed."""
    if not parent.is_dir():
        return []
    removed = []
    for entry in parent.iterdir():
        found = _NAME.match(entry.name)
        if found is None or (name is not None and found["name"] != name):
            continue
        if entry.is_dir() and not entry.is_symlink() and not process_alive(int(found["pid"])):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed
