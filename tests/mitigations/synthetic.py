"""A small two-label benchmark with a planted cue: the label words are right 75% of the time, and
the cue word ``zq`` sits on 95% of label-1 and 5% of label-0 training rows (flipped on the
anti-test), so a plain fit leans on the cue. Groups are (label, cue value) from a ``shortcut``
column, as in a Shortcut Maze build."""

from __future__ import annotations

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace

CUE = "zq"
WORDS = {0: ("bad", "awful", "poor", "dull"), 1: ("good", "great", "fine", "nice")}
FILLER = ("the", "a", "movie", "film", "plot", "cast", "scene", "story", "it", "was")


def cue_rows(n: int, cue_rate: dict[int, float], rng: np.random.Generator) -> pd.DataFrame:
    """``n`` rows per label; ``cue_rate[label]`` is the share of that label's rows with the cue."""
    rows = []
    for label in (0, 1):
        for _ in range(n):
            honest = rng.random() < 0.75
            word = rng.choice(WORDS[label if honest else 1 - label])
            words = [word, *rng.choice(FILLER, size=3)]
            has_cue = rng.random() < cue_rate[label]
            if has_cue:
                words.insert(int(rng.integers(len(words) + 1)), CUE)
            rows.append(
                {"text": " ".join(words), "label": label, "shortcut": CUE if has_cue else ""}
            )
    frame = pd.DataFrame(rows)
    frame.insert(0, "row_id", np.arange(len(frame)))
    return frame


def cue_benchmark(n_train: int = 300, n_validation: int = 100, seed: int = 0) -> Benchmark:
    """Train and validation with the cue on 95% / 5% of label 1 / 0 rows; ``test`` follows that
    correlation, ``anti_test`` reverses it (cue on 5% / 95%)."""
    rng = np.random.default_rng(seed)
    aligned = {0: 0.05, 1: 0.95}
    splits = {
        "train": cue_rows(n_train, aligned, rng),
        "validation": cue_rows(n_validation, aligned, rng),
        "test": cue_rows(200, aligned, rng),
        "anti_test": cue_rows(200, {0: 0.95, 1: 0.05}, rng),
    }
    return Benchmark(splits=splits, labels=LabelSpace((0, 1)))
