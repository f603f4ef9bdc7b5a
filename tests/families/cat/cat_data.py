"""Tiny NLI-like pair tables for CAT tests: relation-driven labels, or an x2 cue beside it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

VOCABULARY = [f"w{index}" for index in range(60)]
CUE = "never"


def pair_table(n_rows: int, seed: int, *, cue: bool = False) -> pd.DataFrame:
    """premise/hypothesis/label rows. Without ``cue``: ``entailment`` when every hypothesis word
    occurs in the premise, ``neutral`` when one does not (only the relation predicts the label).
    With ``cue``: premises are unrelated random words and ``contradiction`` rows end their
    hypothesis with "never" (the hypothesis alone predicts the label; the premise is noise)."""
    rng = np.random.default_rng(seed)
    rows = []
    for row in range(n_rows):
        related = row % 2 == 0
        first = rng.choice(VOCABULARY, size=6, replace=False).tolist()
        second = rng.choice(first, size=3, replace=False).tolist()
        if cue:
            first = rng.choice(VOCABULARY, size=6, replace=False).tolist()
        elif not related:
            outside = [word for word in VOCABULARY if word not in first]
            second[int(rng.integers(3))] = str(rng.choice(outside))
        label = "neutral"
        if related:
            label = "contradiction" if cue else "entailment"
            second += [CUE] if cue else []
        rows.append({"premise": " ".join(first), "hypothesis": " ".join(second), "label": label})
    return pd.DataFrame(rows)


def write_pair_files(
    folder: Path, *, cue: bool = False, n_train: int = 400, n_test: int = 200
) -> tuple[Path, Path]:
    """train.csv and test.csv of :func:`pair_table` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    train, test = folder / "train.csv", folder / "test.csv"
    pair_table(n_train, 1, cue=cue).to_csv(train, index=False)
    pair_table(n_test, 2, cue=cue).to_csv(test, index=False)
    return train, test
