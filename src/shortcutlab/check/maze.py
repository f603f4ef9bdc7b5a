"""``maze`` requirements: the shortcut drop Δ of a Maze build of the suite's data.

``{maze: {shortcut: single-term, strength: 0.8}, max_delta: 0.05}`` builds the benchmark with
:func:`~shortcutlab.families.maze.build.build_maze_benchmark`, evaluates the model on it with
:func:`~shortcutlab.families.maze.evaluate.evaluate_benchmark` and passes when the upper end of
Δ's 95 % interval is at most ``max_delta``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shortcutlab.check.context import CheckContext
from shortcutlab.check.kinds import Outcome, bound_text, entry_block, judge_at_most
from shortcutlab.errors import ConfigError
from shortcutlab.families.maze.spec import ShortcutSpec, shortcut_entry
from shortcutlab.params import (
    check_keys,
    is_finite_number,
    refuse,
    spec_key,
    unit_interval,
    val_size,
)
from shortcutlab.shortcuts import SHORTCUTS

BLOCK_KEYS = ("shortcut", "strength", "test_strength", "val_size")
THRESHOLDS = ("max_delta",)


def threshold(entry: dict[str, Any], key: str, where: str) -> float:
    """A requirement's threshold: a finite number (a drop may be negative, a rate is in [0, 1])."""
    if key not in entry:
        raise ConfigError(f"{where} has no '{key}'; give its threshold, e.g. {key}: 0.05.")
    value = entry[key]
    if not is_finite_number(value):
        raise refuse(spec_key(f"{where}: {key}"), "a finite number", value)
    return float(value)


@dataclass(frozen=True)
class MazeRequirement:
    id: str
    shortcut: ShortcutSpec
    strength: float
    test_strength: float
    max_delta: float
    val_size: float = 0  # rows held out of training, as a grid's val_size (a saved suite keeps it)

    kind = "maze"
    thresholds = THRESHOLDS

    @classmethod
    def parse(cls, id: str, entry: dict[str, Any], where: str, base: Path) -> MazeRequirement:
        block = entry_block(entry, cls.kind, where)
        check_keys(block, BLOCK_KEYS, f"{where}: maze")
        if "shortcut" not in block:
            raise refuse(spec_key(f"{where}: maze: shortcut"), "a shortcut name", None)
        return cls(
            id=id,
            shortcut=shortcut_entry(block["shortcut"], f"{where}: maze: shortcut", SHORTCUTS, base),
            strength=unit_interval(block.get("strength", 0.8), f"{where}: maze: strength"),
            test_strength=unit_interval(
                block.get("test_strength", 1.0), f"{where}: maze: test_strength"
            ),
            max_delta=threshold(entry, "max_delta", where),
            val_size=val_size(block.get("val_size", 0), f"{where}: maze: val_size"),
        )

    def describe(self) -> str:
        return f"Δ ≤ {self.max_delta:g} ({self.shortcut.label}, λ={self.strength:g})"

    def to_entry(self) -> dict[str, Any]:
        shortcut: Any = (
            {"name": self.shortcut.name, **self.shortcut.options}
            if self.shortcut.options
            else self.shortcut.name
        )
        block = {"shortcut": shortcut, "strength": self.strength}
        if self.test_strength != 1.0:
            block["test_strength"] = self.test_strength
        if self.val_size:
            block["val_size"] = self.val_size
        return {"id": self.id, "maze": block, "max_delta": self.max_delta}

    def measure(self, context: CheckContext) -> Outcome:
        from shortcutlab.families.maze.build import build_maze_benchmark
        from shortcutlab.families.maze.evaluate import evaluate_benchmark

        train, test = context.tables()
        benchmark = build_maze_benchmark(
            train,
            test,
            shortcut=self.shortcut.name,
            shortcut_options=self.shortcut.constructor_options(),
            strength=self.strength,
            test_strength=self.test_strength,
            seed=context.seed,
            val_size=self.val_size,
            labels=context.label_list(),
        )
        result = evaluate_benchmark(
            benchmark,
            model=context.model,
            params=context.params,
            seeds=context.seeds,
            bootstrap=context.bootstrap,
        )
        statistics = result.statistics
        point = float(statistics["delta_accuracy_mean"])
        low, high = (
            float(statistics["delta_accuracy_ci_low"]),
            float(statistics["delta_accuracy_ci_high"]),
        )
        return Outcome(
            id=self.id,
            kind=self.kind,
            requirement=self.describe(),
            figure=point,
            interval=(low, high),
            bound=bound_text("upper", high, self.max_delta),
            verdict=judge_at_most(point, high, self.max_delta),
        )
