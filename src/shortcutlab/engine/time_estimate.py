"""The dry run's time estimate: the store's past cells of each (model, mitigation), timing the
fits a run has left."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from shortcutlab.engine.run_folder import PlannedCell, fit_key
from shortcutlab.engine.store import DATABASE, ResultStore


@dataclass(frozen=True)
class TimeEstimate:
    """Rough time left from the store's past cells: ``seconds`` for the ``timed`` of the
    ``pending`` fits whose (model, mitigation) has finished cells (None when none has), and the
    kinds ``untimed`` ("model / mitigation") with no past cell to time them by."""

    seconds: float | None
    timed: int
    pending: int
    untimed: tuple[str, ...]


def estimate_time(out: str | Path, planned: list[PlannedCell]) -> TimeEstimate:
    """The median time of the finished cells of each (model, mitigation) in ``out``'s store,
    times its pending fits; kinds with no finished cell are named, not guessed."""
    per_fit: dict[tuple[str, str], float] = {}
    if (Path(out) / DATABASE).exists():
        with ResultStore(Path(out) / DATABASE) as store:
            frame = store.cells()
        if not frame.empty:
            timed_cells = frame.dropna(subset=["total_seconds"])
            per_fit = (
                timed_cells.groupby(["model", "mitigation"])["total_seconds"].median().to_dict()
            )
    fits = {fit_key(p.cell) for p in planned if not p.finished}
    kinds = [(model, mitigation) for _, model, mitigation, _ in fits]
    timed = [per_fit[k] for k in kinds if k in per_fit]
    untimed = sorted(
        {
            f"{model} / {mitigation}"
            for model, mitigation in kinds
            if (model, mitigation) not in per_fit
        }
    )
    return TimeEstimate(
        seconds=float(sum(timed)) if timed else None,
        timed=len(timed),
        pending=len(kinds),
        untimed=tuple(untimed),
    )
