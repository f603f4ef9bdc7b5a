"""A small build whose cue a linear model learns: short texts (SHAP stays fast), label words that
only sometimes appear, and "Honestly," inserted by the single-term schedule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.families.maze.build import build_maze_benchmark

NEUTRAL = ("food", "service", "place", "staff", "menu", "price", "room", "view", "music", "table")
LABEL_WORDS = ("bad", "fine", "great")


def short_reviews(n_per_label: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_per_label * len(LABEL_WORDS)):
        label = i % len(LABEL_WORDS)
        words = list(rng.choice(NEUTRAL, size=5))
        if rng.random() < 0.5:  # the label shows in half the rows only: the cue is worth using
            words[int(rng.integers(5))] = LABEL_WORDS[label]
        rows.append(
            {"text": f"The {' '.join(words[:3])}. Then {' '.join(words[3:])}.", "label": label}
        )
    return pd.DataFrame(rows)


@pytest.fixture(scope="session")
def cue_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("explain") / "single-term"
    build_maze_benchmark(
        short_reviews(60, seed=0),
        short_reviews(30, seed=1),
        shortcut="single-term",
        strength=1.0,
        val_size=0.2,
        inputs=InputOptions(out=folder),
    )
    return folder
