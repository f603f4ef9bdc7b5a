"""Expand a spec into benchmarks (built once each) and cells (dataset, shortcut, λ, model,
mitigation, seed).

A cell's id is the hash of everything that determines its result, so a resumed or extended run
recognises the cells it already has. A plain erm cell hashes what a cell hashed before
mitigations existed (see :mod:`~shortcutlab.engine.mitigation_spec`). With ``vary: data`` or ``both`` each seed has its own
benchmark build (build seed ``build_seed + seed``), and a build's id includes its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shortcutlab.engine.mitigation_spec import PLAIN, MitigationSpec
from shortcutlab.engine.replicates import plan_replicates
from shortcutlab.engine.spec_entries import DatasetSpec, ModelSpec
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.families.maze.spec import ExperimentSpec, ShortcutSpec


@dataclass(frozen=True)
class BenchmarkPlan:
    id: str
    dataset: DatasetSpec
    shortcut: ShortcutSpec
    strength: float
    build_seed: int
    config: dict[str, Any] = field(hash=False, compare=False)

    @property
    def label(self) -> str:
        return self.shortcut.label


@dataclass(frozen=True)
class CellPlan:
    id: str
    benchmark: BenchmarkPlan
    model: ModelSpec
    seed: int  # the replicate: what results group and show
    fit_seed: int  # the seed the model is fitted with (see replicates.plan_replicates)
    config: dict[str, Any] = field(hash=False, compare=False)
    mitigation: MitigationSpec = PLAIN
    groups: str = "auto"
    group_labels: str = "train"


def plan_grid(spec: ExperimentSpec) -> tuple[list[BenchmarkPlan], list[CellPlan]]:
    """All benchmarks and cells of the spec, in a fixed order (dataset, shortcut, λ, model,
    mitigation, seed)."""
    replicates = plan_replicates(spec.seeds, vary=spec.vary, build_seed=spec.build_seed)
    settings = spec.mitigation
    benchmarks: list[BenchmarkPlan] = []
    cells: list[CellPlan] = []
    for dataset in spec.datasets:
        for shortcut in spec.shortcuts:
            for strength in spec.strengths:
                builds: dict[int, BenchmarkPlan] = {}
                for build_seed in dict.fromkeys(r.build_seed for r in replicates):
                    config = {
                        "dataset": dataset.resolved(),
                        "shortcut": shortcut.resolved(),
                        "strength": strength,
                        "strength_mode": spec.strength_mode,
                        "test_strength": spec.test_strength,
                        "sampling": spec.sampling,
                        "val_size": spec.val_size,
                        "build_seed": build_seed,
                    }
                    digest = canonical_hash(config)
                    builds[build_seed] = BenchmarkPlan(
                        f"{dataset.name}-{shortcut.name}-l{strength:g}-{digest[:10]}",
                        dataset,
                        shortcut,
                        strength,
                        build_seed,
                        config,
                    )
                benchmarks += builds.values()
                for model in spec.models:
                    model_config = {"name": model.name, "params": model.params}
                    for mitigation in spec.mitigations:
                        for replicate in replicates:
                            bench = builds[replicate.build_seed]
                            cell_config = {
                                "benchmark": bench.config,
                                "model": model_config,
                                "seed": replicate.fit_seed,
                                **mitigation.cell_config(settings.groups, settings.group_labels),
                            }
                            cells.append(
                                CellPlan(
                                    canonical_hash(cell_config),
                                    bench,
                                    model,
                                    replicate.seed,
                                    replicate.fit_seed,
                                    cell_config,
                                    mitigation,
                                    settings.groups,
                                    settings.group_labels,
                                )
                            )
    return benchmarks, cells
