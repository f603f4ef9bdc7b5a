"""What each seed of an evaluation re-draws: the model's fit, the benchmark, or both.

``vary: model`` is the papers' protocol: one benchmark, one fit per seed. A model whose fit cannot
depend on its seed (``tfidf-logreg``, ``majority``, a zero-shot prompt) then gives the same
numbers for every seed, so nothing is measured across seeds. ``data`` re-draws the benchmark per
seed (which rows carry the cue, the validation carve, demonstrations drawn from it) with the fit
seed held; ``both`` re-draws both.

Examples:
    >>> [(r.seed, r.build_seed, r.fit_seed) for r in plan_replicates([0, 1], vary="both", build_seed=7)]
    [(0, 7, 0), (1, 8, 1)]
    >>> [(r.seed, r.build_seed, r.fit_seed) for r in plan_replicates([3, 4], vary="data", build_seed=0)]
    [(3, 3, 3), (4, 4, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shortcutlab.params import check_choice

VARY = ("model", "data", "both")


@dataclass(frozen=True)
class Replicate:
    """Seed ``seed`` of an evaluation: the benchmark build and the model fit it uses."""

    seed: int
    build_seed: int
    fit_seed: int


def check_vary(vary: str) -> str:
    check_choice("vary", vary, VARY)
    return vary


def plan_replicates(seeds: Sequence[int], *, vary: str, build_seed: int) -> list[Replicate]:
    """One replicate per seed.

    A re-drawn benchmark of seed ``s`` uses build seed ``build_seed + s``: deterministic, and seed 0
    keeps the benchmark of ``vary: model``, so its build is shared. With ``data`` every fit uses
    the first seed, so only the benchmark changes.
    """
    check_vary(vary)
    first = seeds[0]
    return [
        Replicate(
            seed=s,
            build_seed=build_seed if vary == "model" else build_seed + s,
            fit_seed=first if vary == "data" else s,
        )
        for s in seeds
    ]
