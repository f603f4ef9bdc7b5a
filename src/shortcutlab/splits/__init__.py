"""Benchmark builders with provenance: Shortcut Maze (train / test / anti-test) and MPS
(imbalanced / balanced / test)."""

from shortcutlab.splits.benchmark import MANIFEST, SPLIT_ORDER, Benchmark
from shortcutlab.splits.distractors import distractor_from_files, distractors_from_columns
from shortcutlab.splits.maze import build_maze_benchmark
from shortcutlab.splits.mps import build_mps_benchmark

__all__ = [
    "MANIFEST",
    "SPLIT_ORDER",
    "Benchmark",
    "build_maze_benchmark",
    "build_mps_benchmark",
    "distractor_from_files",
    "distractors_from_columns",
]
