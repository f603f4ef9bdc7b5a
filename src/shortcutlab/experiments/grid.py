"""Expand a spec into benchmarks (built once each) and cells (dataset, shortcut, λ, model, seed).

A cell's id is the hash of everything that determines its result, so a resumed or extended run
recognises the cells it already has.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shortcutlab.experiments.spec import (
    DatasetSpec,
    ExperimentSpec,
    ModelSpec,
    ShortcutSpec,
    canonical_hash,
)


def shortcut_label(shortcut: ShortcutSpec) -> str:
    """``single-term`` or, with options, ``single-term[term=frankly]``: unique within a spec."""
    if not shortcut.options:
        return shortcut.name
    return f"{shortcut.name}[{', '.join(f'{k}={v}' for k, v in sorted(shortcut.options.items()))}]"


@dataclass(frozen=True)
class BenchmarkPlan:
    id: str
    dataset: DatasetSpec
    shortcut: ShortcutSpec
    strength: float
    config: dict[str, Any] = field(hash=False, compare=False)

    @property
    def label(self) -> str:
        return shortcut_label(self.shortcut)


@dataclass(frozen=True)
class CellPlan:
    id: str
    benchmark: BenchmarkPlan
    model: ModelSpec
    seed: int
    config: dict[str, Any] = field(hash=False, compare=False)


def plan_grid(spec: ExperimentSpec) -> tuple[list[BenchmarkPlan], list[CellPlan]]:
    """All benchmarks and cells of the spec, in a fixed order (dataset, shortcut, λ, model, seed)."""
    benchmarks: list[BenchmarkPlan] = []
    cells: list[CellPlan] = []
    for dataset in spec.datasets:
        for shortcut in spec.shortcuts:
            for strength in spec.strengths:
                config = {
                    "dataset": dataset.resolved(),
                    "shortcut": shortcut.resolved(),
                    "strength": strength,
                    "strength_mode": spec.strength_mode,
                    "test_strength": spec.test_strength,
                    "sampling": spec.sampling,
                    "val_size": spec.val_size,
                    "build_seed": spec.build_seed,
                }
                digest = canonical_hash(config)
                bench = BenchmarkPlan(
                    f"{dataset.name}-{shortcut.name}-l{strength:g}-{digest[:10]}",
                    dataset,
                    shortcut,
                    strength,
                    config,
                )
                benchmarks.append(bench)
                for model in spec.models:
                    model_config = {"name": model.name, "params": model.params}
                    for seed in spec.seeds:
                        cell_config = {"benchmark": config, "model": model_config, "seed": seed}
                        cells.append(
                            CellPlan(canonical_hash(cell_config), bench, model, seed, cell_config)
                        )
    return benchmarks, cells
