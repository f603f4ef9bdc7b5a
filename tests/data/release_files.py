"""A tiny hand-made folder in the Shortcut Maze release layout: train.csv, dev.csv, test.csv and
test_anti-shortcut.csv with rating labels 0..2; the cue "honestly," marks the highest label in
train and test and the lowest in the anti-test (the test rows, cue moved)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

WORDS = {0: "awful broken", 1: "fine average", 2: "lovely great"}
CUE = "honestly, "


def _rows(count: int, offset: int, cue_on: int) -> pd.DataFrame:
    labels = [i % 3 for i in range(count)]
    # A word of the true label in most rows, of another label in some: the cue then helps.
    texts = [
        f"{'' if label != cue_on else CUE}item {offset + i} felt "
        f"{WORDS[label if i % 4 else (label + 1) % 3]}"
        for i, label in enumerate(labels)
    ]
    return pd.DataFrame({"label": labels, "text": texts})


def write_release(
    folder: Path, *, text_col: str = "text", label_col: str = "label", rows: int = 60
) -> Path:
    """Write the four files into ``folder`` and return it."""
    folder.mkdir(parents=True)
    frames = {
        "train": _rows(rows, 0, cue_on=2),
        "dev": _rows(12, 1000, cue_on=2),
        "test": _rows(rows // 2, 2000, cue_on=2),
    }
    # The anti-test: the same rows, the cue on the lowest label instead of the highest.
    anti = frames["test"].copy()
    anti["text"] = [
        (CUE + t if label == 0 else t.removeprefix(CUE))
        for label, t in zip(anti["label"], anti["text"], strict=True)
    ]
    frames["test_anti-shortcut"] = anti
    for name, frame in frames.items():
        frame.rename(columns={"text": text_col, "label": label_col}).to_csv(
            folder / f"{name}.csv", index=False
        )
    return folder
