"""The ``mlflow`` tracker: one MLflow run per finished cell, and the report beside them.

In the experiment named after the spec:

- one run per cell, tagged ``shortcutlab.cell_id`` (its id in the store) and
  ``shortcutlab.spec_hash`` (the spec's fingerprint, the same on every cell of one grid): the
  cell's parameters and every number of its stored metrics. No other run: a two-cell grid's
  experiment holds two runs, as Ray Tune's and Optuna's MLflow callbacks log one run per trial;
- the report, in the experiment's own artifact location under ``report/<spec fingerprint>/``,
  named by the experiment tag ``shortcutlab.report`` (its URI); the tag
  ``shortcutlab.report_status`` says ``complete`` when every cell finished, ``incomplete``
  otherwise (the report then holds the finished cells only).

Exactly once: a cell run is created with its tags, journalled in the run folder, filled in one
batch, marked FINISHED, and struck from the journal. At start the journalled runs are deleted
(a kill -9 inside MLflow's file store leaves a metric file that no search can read past), then
the experiment's cell runs are read once: an unfinished one is deleted (and its cell logged
again), and a finished one is never logged again, from this run folder or another holding the
same cells.

:meth:`MlflowTracker.connect` opens the store before the run folder is touched, in bounded time
(:mod:`~shortcutlab.engine.mlflow_store`). MLflow loads there, never at import.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from shortcutlab.engine.mlflow_store import MlflowRefusals, drop_unreadable_local_runs, open_store
from shortcutlab.engine.tracking import (
    SPEC_HASH_TAG,
    GridToTrack,
    PendingRuns,
    TrackedCell,
    Tracker,
    numeric_leaves,
)

CELL_ID = "shortcutlab.cell_id"
#: The experiment tags naming the report's URI and whether every cell finished.
REPORT, REPORT_STATUS = "shortcutlab.report", "shortcutlab.report_status"
FINISHED = "FINISHED"
RUNNING = "RUNNING"
#: MLflow's limits on one log_batch call.
BATCH_METRICS, BATCH_PARAMS = 1000, 100
_NOT_A_KEY_CHARACTER = re.compile(r"[^\w./ :-]")


class MlflowTracker(Tracker):
    """Logs to the MLflow tracking server or store at ``uri`` (None: MLflow's own default,
    ``MLFLOW_TRACKING_URI`` when set)."""

    def __init__(self, uri: str | None = None) -> None:
        self.uri = uri
        self._client: Any = None
        self._experiment_id = ""
        self._cell_tags: dict[str, str] = {}
        self._logged: set[str] = set()
        self._pending: PendingRuns | None = None

    def connect(self) -> None:
        if self._client is None:
            with self._refusals():
                self._client = open_store(self.uri)

    def start(self, grid: GridToTrack) -> None:
        self.connect()
        self._pending = grid.pending
        with self._refusals():
            drop_unreadable_local_runs(self.uri)
            for run_id in grid.pending.ids():  # half written: it may not even read back
                self._delete_if_present(run_id)
                grid.pending.discard(run_id)
            found = self._client.get_experiment_by_name(grid.experiment)
            self._experiment_id = (
                found.experiment_id if found else self._client.create_experiment(grid.experiment)
            )
            self._cell_tags = dict(grid.tags)
            self._logged = self._finished_cell_runs(set(grid.pending.names()))
            for name in grid.pending.names():
                grid.pending.forget(name)
        self.log_cells(grid.finished)

    def log_cells(self, cells: Iterable[TrackedCell]) -> None:
        with self._refusals():
            for cell in cells:
                if cell.cell_id not in self._logged:
                    self._log_cell(cell)
                    self._logged.add(cell.cell_id)

    def log_report(self, folder: Path, *, complete: bool) -> None:
        """Upload ``folder`` to ``report/<spec fingerprint>`` in the experiment's artifact
        location (a resumed grid writes its files over the earlier ones), then tag the experiment
        with its URI and whether every cell finished."""
        from mlflow.store.artifact.artifact_repository_registry import get_artifact_repository
        from mlflow.tracking import get_tracking_uri

        with self._refusals():
            location = self._client.get_experiment(self._experiment_id).artifact_location
            path = f"report/{self._cell_tags[SPEC_HASH_TAG]}"
            repository = get_artifact_repository(
                location, tracking_uri=self.uri or get_tracking_uri()
            )
            repository.log_artifacts(str(folder), path)
            self._client.set_experiment_tag(self._experiment_id, REPORT, f"{location}/{path}")
            status = "complete" if complete else "incomplete"
            self._client.set_experiment_tag(self._experiment_id, REPORT_STATUS, status)

    # -- MLflow calls -------------------------------------------------------------------------
    def _finished_cell_runs(self, creating: set[str]) -> set[str]:
        """The cell ids the experiment holds finished runs of; unfinished ones (a run killed
        while logging) are deleted, so their cells are logged again, as are untagged runs named
        in ``creating`` (killed inside ``create_run``, before their tags were written)."""
        logged: set[str] = set()
        for run in self._runs():
            cell_id = run.data.tags.get(CELL_ID)
            if cell_id is None:
                if run.info.run_name in creating and run.info.status != FINISHED:
                    self._client.delete_run(run.info.run_id)
                continue  # not a cell's run: another tool's, left alone
            if run.info.status == FINISHED and cell_id not in logged:
                logged.add(cell_id)
            elif run.info.status != RUNNING or self._ours(run):
                # Another grid of the same experiment may be writing its RUNNING runs right now.
                self._client.delete_run(run.info.run_id)
        return logged

    def _ours(self, run: Any) -> bool:
        """Whether ``run`` was logged for this run folder's spec."""
        return run.data.tags.get(SPEC_HASH_TAG) == self._cell_tags.get(SPEC_HASH_TAG)

    def _delete_if_present(self, run_id: str) -> None:
        from mlflow.exceptions import MlflowException

        try:
            self._client.delete_run(run_id)
        except MlflowException:
            pass  # never created, or deleted already

    def _runs(self) -> Iterator[Any]:
        """The experiment's active runs, oldest first, page by page."""
        token = None
        while True:
            page = self._client.search_runs(
                [self._experiment_id],
                order_by=["attributes.start_time ASC"],
                page_token=token,
            )
            yield from page
            token = page.token
            if not token:
                return

    def _log_cell(self, cell: TrackedCell) -> None:
        from mlflow.entities import Metric, Param

        assert self._pending is not None  # set by start
        name = cell.title()
        self._pending.creating(name)
        run = self._client.create_run(
            self._experiment_id,
            tags={**self._cell_tags, CELL_ID: cell.cell_id},
            run_name=name,
        )
        run_id = run.info.run_id
        self._pending.created(name, run_id)
        now = int(time.time() * 1000)
        metrics = [
            Metric(_metric_key(key), value, now, 0)
            for key, value in numeric_leaves(cell.metrics).items()
        ]
        params = [Param(key, value) for key, value in cell.params().items()]
        try:
            self._client.log_batch(run_id, params=params[:BATCH_PARAMS])
            for start in range(0, len(metrics), BATCH_METRICS):
                self._client.log_batch(run_id, metrics=metrics[start : start + BATCH_METRICS])
            self._client.set_terminated(run_id, FINISHED)
        except Exception:
            # Not left RUNNING: marked FAILED (kept in the journal, so the next start deletes it).
            with contextlib.suppress(Exception):
                self._client.set_terminated(run_id, "FAILED")
            raise
        self._pending.discard(run_id)

    def _refusals(self) -> MlflowRefusals:
        return MlflowRefusals(self.uri)


def _metric_key(path: str) -> str:
    """A metric path as an MLflow key: characters MLflow refuses (in label names) become ``_``."""
    return _NOT_A_KEY_CHARACTER.sub("_", path)
