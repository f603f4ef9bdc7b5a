"""A run's report figures kept in its store, so a report of an unchanged run draws nothing:
matplotlib (its import and its drawing, about a third of a 1,000-cell page's work) runs once
per figure, and later reports read the stored SVG markup.

A figure is stored under the sha256 of everything its markup depends on (:func:`figure_key`):
the plotted numbers, the figure's options, the tool's and matplotlib's versions and the bytes of
the modules that draw it. Changed numbers, a new version or edited drawing code give another key,
so a stale figure is never served; rows nothing reads any more stay (a few kB each). The table is
created on the first write, so opening an older store changes nothing; a store that cannot be
written (a read-only copy) draws every time.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from shortcutlab._version import __version__
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.stored_groups import plain_number

FIGURES = """CREATE TABLE IF NOT EXISTS figures (
    figure_key TEXT PRIMARY KEY,
    markup TEXT NOT NULL
)"""


def figure_key(parts: dict[str, Any], drawn_by: Iterable[str | Path]) -> str:
    """The sha256 of ``parts`` (JSON values: the plotted numbers and options), the tool's and
    matplotlib's versions, and the bytes of the source files ``drawn_by``."""
    digest = hashlib.sha256()
    record = {"parts": parts, "tool_version": __version__, "matplotlib": _matplotlib_version()}
    digest.update(json.dumps(record, sort_keys=True, default=plain_number).encode("utf-8"))
    for source in drawn_by:
        digest.update(Path(source).read_bytes())
    return digest.hexdigest()


# Figures drawn inside :func:`figures_kept_on_success`, waiting for the block to succeed.
_PENDING: ContextVar[list[tuple[str | Path, str, str]] | None] = ContextVar("figures", default=None)


@contextmanager
def figures_kept_on_success() -> Iterator[None]:
    """Figures drawn inside the block are stored only once it has finished without an error, so a
    report refused at its output (a full disk, a bad path) leaves the run folder as it was."""
    pending: list[tuple[str | Path, str, str]] = []
    token = _PENDING.set(pending)
    try:
        yield
    finally:
        _PENDING.reset(token)
    for run_dir, key, markup in pending:
        _store(run_dir, key, markup)


def stored_figure(run_dir: str | Path, key: str, draw: Callable[[], str]) -> str:
    """The markup stored under ``key`` in the run's store; where there is none, ``draw()``'s,
    stored for the next report (when the store can be written; inside
    :func:`figures_kept_on_success`, once its block has succeeded)."""
    with ResultStore.for_run(run_dir) as store:
        try:
            found = store.connection.execute(
                "SELECT markup FROM figures WHERE figure_key = ?", (key,)
            ).fetchone()
        except sqlite3.OperationalError:  # no figures table yet: nothing stored
            found = None
    if found is not None:
        return str(found[0])
    markup = draw()
    pending = _PENDING.get()
    if pending is None:
        _store(run_dir, key, markup)
    else:
        pending.append((run_dir, key, markup))
    return markup


def _store(run_dir: str | Path, key: str, markup: str) -> None:
    with ResultStore.for_run(run_dir) as store:
        try:
            with store.transaction() as connection:
                connection.execute(FIGURES)
                connection.execute("INSERT OR REPLACE INTO figures VALUES (?, ?)", (key, markup))
        except sqlite3.OperationalError:  # a read-only store: the next report draws again
            pass


def _matplotlib_version() -> str:
    try:
        return version("matplotlib")
    except PackageNotFoundError:
        return ""
