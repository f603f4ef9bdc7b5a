"""Real file-system failures for tests: a small or read-only tmpfs (needs root; skipped without),
and a damaged SQLite file."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def tmpfs(folder: Path, *, size: str = "2m", read_only: bool = False) -> Iterator[Path]:
    """``folder`` as a fresh tmpfs of ``size``; skips the test where mounting is not permitted."""
    folder.mkdir(parents=True, exist_ok=True)
    options = f"size={size}" + (",ro" if read_only else "")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here ({mounted.stderr.decode().strip()})")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill(disk: Path, *, leave: int) -> None:
    """Fill ``disk`` up to ``leave`` free bytes."""
    with open(disk / "filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError:
            pass
    with open(disk / "filler", "r+b") as handle:
        handle.truncate(max(0, (disk / "filler").stat().st_size - leave))


def damage(database: Path) -> None:
    """Overwrite the middle half of a SQLite file (its header stays): "malformed" on reading."""
    size = database.stat().st_size
    with open(database, "r+b") as handle:
        handle.seek(size // 4)
        handle.write(bytes(range(7, 251)) * (size // 2 // 244 + 1))
