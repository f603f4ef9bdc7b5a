"""The result of evaluating one model on one Maze benchmark: per-seed metrics, the group
statistics, and the long table every result object gives (``to_pandas``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.writing import atomic_output_dir, write_json, write_table
from shortcutlab.families.maze.tidy_rows import evaluation_long_table
from shortcutlab.provenance import tool_record
from shortcutlab.reports.findings import maze_findings
from shortcutlab.reports.tidy import check_shape

RESULT_FILES = ("results.json", "results.csv", "predictions.csv")


def holds_results_only(out: Path) -> bool:
    """Whether ``out`` holds an earlier evaluation's files and nothing else (a rerun replaces them)."""
    return out.is_dir() and {p.name for p in out.iterdir()} <= set(RESULT_FILES)


PREDICTION_SPLITS = ("test", "anti_test")


@dataclass(repr=False)  # a short __repr__ below
class EvaluationResult:
    """Per-seed metrics and the group statistics of one model on one benchmark.

    ``statistics`` is one tidy row (the columns of ``results --format csv``); ``summary`` holds
    per-split descriptions averaged over seeds (per-label accuracy, predicted-label counts,
    invalid answers, verbalized confidence).
    """

    benchmark: dict[str, Any]
    model: dict[str, Any]
    labels: list[Any]
    seeds: list[int]
    vary: str
    runs: list[dict[str, Any]]
    statistics: dict[str, Any]
    summary: dict[str, Any]
    predictions: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    # Per row of the benchmark's own build (the seeds fit on it): what the report's row explorer shows.
    row_predictions: pd.DataFrame | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": tool_record(),
            "benchmark": self.benchmark,
            "model": self.model,
            "labels": self.labels,
            "seeds": self.seeds,
            "vary": self.vary,
            "statistics": self.statistics,
            "summary": self.summary,
            "runs": self.runs,
        }

    def to_frame(self) -> pd.DataFrame:
        """The wide row as a one-row DataFrame (the same columns as ``groups.csv`` and
        ``results.csv``): the same as ``to_pandas(wide=True)``."""
        return pd.DataFrame([self.statistics])

    def to_pandas(self, *, per_seed: bool = False, wide: bool = False) -> pd.DataFrame:
        """The long, tidy table: one row per split × metric (columns in the glossary, "The tidy
        table"); ``per_seed=True``: one row per seed × split × metric; ``wide=True``: :meth:`to_frame`."""
        check_shape(per_seed=per_seed, wide=wide)
        if wide:
            return self.to_frame()
        return evaluation_long_table(self.statistics, self.runs, per_seed=per_seed)

    def __repr__(self) -> str:
        delta = self.statistics.get("delta_accuracy_mean")
        shown = "—" if delta is None else f"{delta:+.3f}"
        return (
            f"EvaluationResult(model={self.model.get('name')!r}, "
            f"shortcut={self.benchmark.get('shortcut')!r}, strength={self.benchmark.get('strength')}, "
            f"seeds={len(self.seeds)}, delta_accuracy={shown})"
        )

    @classmethod
    def load(cls, folder: str | Path) -> EvaluationResult:
        """The evaluation saved in ``folder`` (its ``results.json``; the per-row predictions
        stay in ``predictions.csv``)."""
        record = json.loads((Path(folder) / RESULT_FILES[0]).read_text(encoding="utf-8"))
        fields = ("benchmark", "model", "labels", "seeds", "vary", "runs", "statistics", "summary")
        return cls(**{name: record[name] for name in fields})

    def findings(self, metric: str = "accuracy") -> list[str]:
        """The evaluation's findings in plain words (:func:`~shortcutlab.reports.findings.maze_findings`)."""
        return maze_findings(self.to_frame(), metric=metric)

    def save(self, out: str | Path, *, overwrite: bool = False) -> Path:
        """Write ``results.json``, ``results.csv`` and ``predictions.csv`` (per test and anti-test row
        of the benchmark's own build: seed, split, row_id, predicted label, its probability) into
        ``out`` (atomically)."""
        out = Path(out)
        with atomic_output_dir(out, overwrite=overwrite or holds_results_only(out)) as tmp:
            write_json(tmp / "results.json", self.to_json())
            write_table(self.to_frame(), tmp / "results.csv", for_people=True)
            if self.row_predictions is not None:
                write_table(
                    self.row_predictions,
                    tmp / "predictions.csv",
                    float_format="%.6f",
                    for_people=True,
                )
        return out
