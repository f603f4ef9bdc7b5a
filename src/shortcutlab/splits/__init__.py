"""Benchmark builders: train / test / anti-test splits with provenance."""

from shortcutlab.splits.benchmark import MANIFEST, SPLIT_ORDER, Benchmark
from shortcutlab.splits.distractors import distractor_from_files, distractors_from_columns
from shortcutlab.splits.maze import build_maze_benchmark

__all__ = [
    "MANIFEST",
    "SPLIT_ORDER",
    "Benchmark",
    "build_maze_benchmark",
    "distractor_from_files",
    "distractors_from_columns",
]
