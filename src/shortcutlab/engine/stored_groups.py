"""Group statistics kept in the store, so ``results`` and ``report`` of a finished run resample
nothing: each group's row is computed once, when its last cell finishes, and reused while it
still holds.

A stored row holds for exactly the cells it was computed from and for the settings its numbers
depend on (:func:`statistics_settings`: resamples, metrics, tool version). Writing a cell drops
the rows of its groups (see :mod:`shortcutlab.engine.store`), and a reader checks both again, so
a resumed, re-run or added cell, ``--bootstrap N`` or a newly registered metric recomputes
instead of serving stale numbers.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from shortcutlab._version import __version__
from shortcutlab.errors import ShortcutlabError
from shortcutlab.metrics import split_metric_names

if TYPE_CHECKING:  # the store imports this module
    from shortcutlab.engine.store import CellRecord, ResultStore


@dataclass(frozen=True)
class StoredGroup:
    """One group's statistics as stored (JSON values: a float round-trips exactly)."""

    key: str  # the group's identity values, as JSON (see group_key)
    cell_ids: tuple[str, ...]
    settings: dict[str, Any]
    statistics: dict[str, Any]

    def holds_for(self, cell_ids: Iterable[str], settings: dict[str, Any]) -> bool:
        """Whether these are the statistics of ``cell_ids`` computed with ``settings``."""
        return sorted(self.cell_ids) == sorted(cell_ids) and self.settings == settings


def statistics_settings(n_resamples: int) -> dict[str, Any]:
    """What a group's numbers depend on besides its cells (compared as stored JSON)."""
    return {
        "n_resamples": int(n_resamples),
        "metrics": list(split_metric_names()),
        "tool_version": __version__,
    }


def group_key(values: Iterable[Any]) -> str:
    """A group's identity values (strings, numbers) as the store's key."""
    return json.dumps(list(values), default=plain_number)


def plain_number(value: Any) -> Any:
    """A numpy scalar as the Python value JSON writes (a float64 already is a float)."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not a value the store can keep as JSON")


class CompletedGroups:
    """The run's hook after each write (see ``PendingWork.recorded``): once every planned cell
    of a group is finished, ``store_groups(store, cell_ids)`` computes and stores the statistics
    of those groups (skipping rows that still hold). Called with ``records=None`` as a run
    starts, it fills in the groups a resumed run already finished (a store older than the
    table, or one a run killed between a group's last cell and its statistics)."""

    def __init__(
        self,
        groups: Iterable[Iterable[str]],
        store_groups: Callable[[ResultStore, list[str]], None],
    ) -> None:
        self.groups = [frozenset(cells) for cells in groups]
        self.group_of = {cell: group for group in self.groups for cell in group}
        self.store_groups = store_groups

    def __call__(self, store: ResultStore, records: Iterable[CellRecord] | None) -> None:
        touched = (
            self.groups
            if records is None
            else {self.group_of[r.cell_id] for r in records if r.cell_id in self.group_of}
        )
        finished = store.finished()
        complete = [cell for group in touched if group <= finished for cell in sorted(group)]
        if not complete:
            return
        try:
            self.store_groups(store, complete)
        except ShortcutlabError:
            pass  # statistics that cannot be computed are not the run's failure: results says why


def plan_groups(cells: Iterable[Any], key: Callable[[Any], Hashable]) -> list[list[str]]:
    """The ids of a plan's ``cells`` (each with an ``id``), grouped by ``key(cell)``."""
    groups: dict[Hashable, list[str]] = {}
    for cell in cells:
        groups.setdefault(key(cell), []).append(cell.id)
    return list(groups.values())


def still_stored(
    stored: dict[str, StoredGroup],
    keys: Iterable[Any],
    cell_ids: Iterable[str],
    settings: dict[str, Any],
) -> dict[str, Any] | None:
    """The statistics stored for the group ``keys`` where they still hold for ``cell_ids`` and
    ``settings`` (None where they must be computed)."""
    found = stored.get(group_key(keys))
    return found.statistics if found is not None and found.holds_for(cell_ids, settings) else None


def back_fill(store: ResultStore, family: str, groups: list[StoredGroup], read_at: int) -> None:
    """Store the ``groups`` a reader (``results``, ``report``) had to compute, so the next one
    reads them: a folder written before the table, or a run killed between a group's last cell
    and its statistics. Only where nothing wrote the store since ``read_at`` (a
    ``store.data_version()`` taken before reading the cells), in one transaction under SQLite's
    write lock; a store that cannot be written stays as it is and the next reader computes again."""
    if not groups:
        return
    try:
        store.save_group_statistics(family, groups, read_at=read_at)
    except sqlite3.OperationalError:  # a read-only copy of a run folder
        pass
