"""Experiment trackers: where a grid's finished cells are logged besides its run folder.

A tracking target is ``NAME`` or ``NAME:URI`` (``mlflow``, ``mlflow:file:///tmp/mlruns``), given
as ``run --track`` or as the spec's ``tracking:`` key (the option wins). Each tracker is one
registry line in :data:`TRACKERS` with the URI schemes it takes, readable without importing it;
its module (and its library) loads only when a run uses it.

The run folder stays the record: a tracker logs a cell only after the store has committed it,
and :meth:`Tracker.start` is handed the cells the store has finished, so a cell that a killed run
committed but never logged is logged on resume, and a cell already logged is never logged again.

Examples:
    >>> parse_target("mlflow:file:///tmp/mlruns", "--track")
    TrackingTarget(name='mlflow', uri='file:///tmp/mlruns')
    >>> parse_target("mlflow:ftp://host/x", "--track")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: --track must be a URI the mlflow tracker takes: file:, http:, https:, sqlite:, postgresql:, mysql:, mssql: or databricks:. Got 'ftp://host/x' instead.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from shortcutlab.data.reading import read_json_object
from shortcutlab.data.writing import write_json
from shortcutlab.engine.store import CellRecord, ResultStore
from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted, refuse
from shortcutlab.registry import Registry

#: The spec key naming a tracking target (every grid family takes it).
TRACKING_KEY = "tracking"
#: The tag naming a grid's spec (its fingerprint) on each of its tracked cells.
SPEC_HASH_TAG = "shortcutlab.spec_hash"


@dataclass(frozen=True)
class TrackedCell:
    """A finished cell as a tracker logs it: its identity, its metrics and its store id."""

    cell_id: str
    family: str
    dataset: str
    shortcut: str  # the shortcut, or an MPS attribute (the store's column)
    strength: float  # λ, or an MPS build's dominance
    model: str
    mitigation: str
    seed: int
    benchmark_id: str
    metrics: Mapping[str, Any]

    def params(self) -> dict[str, str]:
        """The cell's parameters, as text (what a tracker's params hold)."""
        names = ("family", "dataset", "shortcut", "strength", "model", "mitigation", "seed")
        return {name: str(getattr(self, name)) for name in names}

    def title(self) -> str:
        """``reviews / single-term / λ=1.0 / majority / erm / seed 0``: the run's name."""
        return " / ".join(
            (
                self.dataset,
                self.shortcut,
                f"λ={self.strength:g}",
                self.model,
                self.mitigation,
                f"seed {self.seed}",
            )
        )


def numeric_leaves(metrics: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Every number in a cell's nested metrics, keyed by its path (``splits.test.accuracy``,
    ``delta.accuracy``); booleans, text and missing values are left out.

    Examples:
        >>> numeric_leaves({"splits": {"test": {"accuracy": 0.8, "rows": 10}}, "ok": True})
        {'splits.test.accuracy': 0.8, 'splits.test.rows': 10.0}
    """
    leaves: dict[str, float] = {}
    for key, value in metrics.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            leaves.update(numeric_leaves(value, path + "."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            leaves[path] = float(value)
    return leaves


class PendingRuns:
    """The tracked runs being written, journalled in the run folder: a run a kill -9 left half
    written (a tracker's store may then refuse to be read) is removed by the next start.

    Examples:
        >>> import tempfile
        >>> pending = PendingRuns(Path(tempfile.mkdtemp()) / PENDING_FILE)
        >>> pending.add("run-1"); pending.ids()
        ['run-1']
        >>> pending.discard("run-1"); pending.ids()
        []
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def ids(self) -> list[str]:
        return self._read("runs")

    def names(self) -> list[str]:
        """The names of runs being created: a kill inside the store's create call leaves a run
        with no id journalled yet and, in a file store, none of its tags."""
        return self._read("creating")

    def add(self, run_id: str) -> None:
        self._write([*self.ids(), run_id], self.names())

    def discard(self, run_id: str) -> None:
        self._write([known for known in self.ids() if known != run_id], self.names())

    def creating(self, name: str) -> None:
        self._write(self.ids(), [*self.names(), name])

    def created(self, name: str, run_id: str) -> None:
        """The run ``name`` exists as ``run_id``: journalled by its id from now on."""
        self._write([*self.ids(), run_id], [known for known in self.names() if known != name])

    def forget(self, name: str) -> None:
        """The run ``name`` was found (and deleted) or never created."""
        self._write(self.ids(), [known for known in self.names() if known != name])

    def _read(self, key: str) -> list[str]:
        found = read_json_object(self.path) or {}
        return [str(item) for item in found.get(key, [])]

    def _write(self, run_ids: list[str], names: list[str]) -> None:
        if not run_ids and not names:
            self.path.unlink(missing_ok=True)
            return
        partial = self.path.with_name(self.path.name + ".partial")
        write_json(partial, {"runs": run_ids, "creating": names})
        os.replace(partial, self.path)  # a kill leaves the old journal or the new one


#: The journal of :class:`PendingRuns` in a run folder.
PENDING_FILE = ".tracking-pending.json"


@dataclass(frozen=True)
class GridToTrack:
    """What a tracker is handed as a run starts: the experiment (the spec's name), the tags
    naming the grid's spec, the cells the store has finished, and the journal of the run
    folder."""

    experiment: str
    tags: Mapping[str, str]
    finished: list[TrackedCell]
    pending: PendingRuns


class Tracker(ABC):
    """Logs a grid's finished cells (one tracked run each) and, at the end, its report."""

    @abstractmethod
    def connect(self) -> None:
        """Reach the tracker's store, in bounded time, before the run folder is touched: raise a
        ConfigError when it does not answer or refuses. :meth:`start` calls it when no one has."""

    @abstractmethod
    def start(self, grid: GridToTrack) -> None:
        """Open the experiment, remove the runs ``grid.pending`` names (half written by a
        killed run), then log each of ``grid.finished`` that is not logged yet; journal each
        run in ``grid.pending`` while it is written."""

    @abstractmethod
    def log_cells(self, cells: Iterable[TrackedCell]) -> None:
        """Log cells the store has just committed (each one the tracker does not hold yet)."""

    @abstractmethod
    def log_report(self, folder: Path, *, complete: bool) -> None:
        """Keep the files of ``folder`` (the run's report) with the experiment, saying whether
        every cell of the grid finished (``complete``)."""


@dataclass(frozen=True)
class TrackingTarget:
    """A parsed tracking target: the tracker's registry name and its URI (None: its default)."""

    name: str
    uri: str | None = None

    def make(self) -> Tracker:
        """The tracker (importing its module, not yet its library)."""
        return TRACKERS.get(self.name)(self.uri)

    def __str__(self) -> str:
        return self.name if self.uri is None else f"{self.name}:{self.uri}"


TRACKERS: Registry[type[Tracker]] = Registry("tracker", capabilities={"schemes": ()})
TRACKERS.add(
    "mlflow",
    "shortcutlab.engine.mlflow_tracking:MlflowTracker",
    schemes=("file", "http", "https", "sqlite", "postgresql", "mysql", "mssql", "databricks"),
)


def parse_target(value: Any, subject: str) -> TrackingTarget:
    """``NAME`` or ``NAME:URI`` as a :class:`TrackingTarget`; ``subject`` names where the
    value was given ("--track", "The 'tracking' key in spec.yaml") in the error."""
    expected = "a tracker name or NAME:URI, such as 'mlflow' or 'mlflow:file:///tmp/mlruns'"
    if not isinstance(value, str) or not value.strip():
        raise refuse(subject, expected, value)
    name, colon, uri = value.partition(":")
    if name not in TRACKERS:
        raise ConfigError(f"{subject}: {TRACKERS.unknown_message(name)}")
    if not colon:
        return TrackingTarget(name)
    check_uri(name, uri, subject)
    return TrackingTarget(name, uri)


def check_uri(name: str, uri: str, subject: str) -> None:
    """Refuse a URI whose scheme the tracker ``name`` does not take, or that names no place."""
    schemes = TRACKERS.capabilities(name)["schemes"]
    parsed = urlparse(uri)
    allowed = ", ".join(f"{s}:" for s in schemes[:-1]) + f" or {schemes[-1]}:"
    if parsed.scheme not in schemes:
        raise refuse(subject, f"a URI the {name} tracker takes: {allowed}", uri)
    if parsed.scheme in ("http", "https") and not parsed.hostname:
        raise refuse(subject, f"an {parsed.scheme} URI with a host", uri)
    if parsed.scheme == "file" and not parsed.path:
        raise refuse(subject, "a file: URI with a folder, such as file:///tmp/mlruns", uri)


def records_to_track(records: Iterable[CellRecord], family: str) -> list[TrackedCell]:
    """The finished cells among store records just committed, as a tracker logs them."""
    return [_tracked(vars(record), family) for record in records if record.status == "done"]


def stored_cells_to_track(
    store: ResultStore, family: str, cell_ids: Iterable[str]
) -> list[TrackedCell]:
    """The store's finished cells among ``cell_ids``, in the order they were written."""
    frame = store.cells(cell_ids=cell_ids)
    return [_tracked(row, family) for row in frame.to_dict("records")]


def _tracked(fields: Mapping[str, Any], family: str) -> TrackedCell:
    return TrackedCell(
        cell_id=fields["cell_id"],
        family=family,
        dataset=fields["dataset"],
        shortcut=fields["shortcut"],
        strength=float(fields["strength"]),
        model=fields["model"],
        mitigation=fields["mitigation"],
        seed=int(fields["seed"]),
        benchmark_id=fields["benchmark_id"],
        metrics=fields["metrics"] or {},
    )


def spec_tracking(raw: Mapping[str, Any], source: str) -> TrackingTarget | None:
    """The spec's ``tracking:`` target, checked (None when the spec has none)."""
    if TRACKING_KEY not in raw:
        return None
    return parse_target(raw[TRACKING_KEY], f"The {quoted(TRACKING_KEY)} key in {source}")
