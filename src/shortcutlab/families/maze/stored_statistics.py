"""What a Maze run stores for ``results`` and ``report`` as its cells finish: each group's
statistics once the group's last cell is written, and, in a grid with mitigations, each
setting's comparisons with erm once the setting's last cell is (see
:mod:`shortcutlab.engine.stored_groups`)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

from shortcutlab.engine.run_folder import PendingWork, cell_identity
from shortcutlab.engine.store import CellRecord, ResultStore
from shortcutlab.engine.stored_groups import (
    CompletedGroups,
    StoredGroup,
    group_key,
    plan_groups,
    statistics_settings,
    still_stored,
)
from shortcutlab.families.maze.grid import CellPlan
from shortcutlab.families.maze.mitigation_summary import SETTING
from shortcutlab.families.maze.results import (
    FAMILY,
    GROUP,
    VS_ERM,
    comparison_settings,
    group_row_statistics,
    setting_comparisons,
    stored_cells,
)


def with_group_statistics(work: PendingWork, cells: list[CellPlan]) -> PendingWork:
    """``work`` storing each group's statistics (and each setting's comparisons with erm) once
    its last planned cell is written."""

    def key(columns: Collection[str]) -> Callable[[CellPlan], tuple[Any, ...]]:
        return lambda cell: tuple(
            cell_identity(cell, cell.benchmark.strength)[column] for column in columns
        )

    hooks = [CompletedGroups(plan_groups(cells, key(GROUP)), store_group_statistics)]
    if len(set(map(key(["mitigation"]), cells))) > 1:  # mitigations: compared with erm
        hooks.append(CompletedGroups(plan_groups(cells, key(SETTING)), store_comparisons))

    def recorded(store: ResultStore, records: list[CellRecord] | None) -> None:
        for hook in hooks:
            hook(store, records)

    return replace(work, recorded=recorded)


def store_group_statistics(store: ResultStore, cell_ids: Collection[str]) -> None:
    """Compute and store the statistics of the groups the finished ``cell_ids`` make up, with
    the run's own resamples, except those whose stored row still holds."""
    cells, scores, spec = stored_cells(store, cell_ids)
    n_resamples = int(spec.get("bootstrap", 1000))
    settings = statistics_settings(n_resamples)
    stored = store.group_statistics(FAMILY)
    fresh = [
        StoredGroup(
            group_key(keys),
            tuple(part["cell_id"]),
            settings,
            group_row_statistics(part, scores, store, n_resamples),
        )
        for keys, part in cells.groupby(GROUP, sort=False)
        if still_stored(stored, keys, part["cell_id"], settings) is None
    ]
    store.save_group_statistics(FAMILY, fresh)


def store_comparisons(store: ResultStore, cell_ids: Collection[str]) -> None:
    """Compute and store the comparisons with erm of the settings the finished ``cell_ids``
    make up, except those whose stored rows still hold."""
    cells, scores, spec = stored_cells(store, cell_ids)
    n_resamples = int(spec.get("bootstrap", 1000))
    stored = store.group_statistics(VS_ERM)
    fresh = []
    for keys, part in cells.groupby(list(SETTING), sort=False):
        # ``results`` uses the grid's label count; a grid whose datasets differ in it recomputes.
        n_classes = store.probabilities(part["cell_id"].iloc[0], "test").shape[1]
        settings = comparison_settings(n_resamples, n_classes)
        if still_stored(stored, keys, part["cell_id"], settings) is None:
            rows = setting_comparisons(part, scores, store, spec, n_resamples, n_classes)
            fresh.append(
                StoredGroup(group_key(keys), tuple(part["cell_id"]), settings, {"rows": rows})
            )
    store.save_group_statistics(VS_ERM, fresh)
