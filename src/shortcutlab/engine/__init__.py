"""The grid engine every family runs on: specs, the resumable run loop, executors, the store.

================  ================================================================================
``family``        :class:`~.family.Family`, the record a protocol registers (its pieces, lazily)
``spec_entries``  the spec parts every family shares: dataset and model entries, the YAML
                  (value checks: :mod:`shortcutlab.params`, each error naming its place)
``spec_identity`` a component's label in tables and the canonical hash cells and specs are keyed by
``mitigation_spec`` the ``mitigations`` / ``groups`` / ``group_labels`` keys (Maze and MPS grids)
``replicates``    what each seed re-draws: the fit, the data, or both
``run_folder``    the run folder, its dataset tables, and :func:`~.run_folder.drive_run`
``run_lock``      one run per run folder: its OS lock and the holder's record
``executors``     where tasks run: a local process pool or Ray; ``pool``: the worker processes
``worker``        what runs in a worker: a family's task, its outcomes, thread pinning
``store``         the run's SQLite store (WAL): cells, probabilities, rows, meta
``tracking``      experiment trackers (``run --track``): the protocol, the registry, the targets;
                  ``mlflow_tracking``: MLflow, one run per finished cell, loaded only when used;
                  ``mlflow_store``: reaching its store in bounded time, its refusals as one line
``cell``          fitting a model under a mitigation; scoring by the metric registry
``summary``       one group of seeds per registered metric (Δ, bootstrap interval and p, Holm)
================  ================================================================================

The engine imports the shared libraries below it (data, metrics, models, shortcuts, mitigations,
reports) and never a family: a family hands it tasks and callbacks (see
:class:`~.run_folder.PendingWork`), and the registry in :mod:`shortcutlab.families` finds the
family of a spec or a run.
"""
