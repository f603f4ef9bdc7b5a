"""Tiny binary review tables for the robustness family's tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shortcutlab import generate_corpus


def write_review_files(folder: Path) -> dict[str, Path]:
    """300 train and 120 test reviews labelled neg / pos, written to ``folder/data``."""
    corpus = generate_corpus(train_size=300, test_size=120, levels=4, seed=3)
    data = folder / "data"
    data.mkdir()
    paths = {}
    for name, frame in corpus.items():
        paths[name] = data / f"{name}.csv"
        binary = frame[["text", "label"]].assign(label=np.where(frame["label"] >= 3, "pos", "neg"))
        binary.to_csv(paths[name], index=False)
    return paths


@pytest.fixture
def review_files(tmp_path: Path) -> dict[str, Path]:
    return write_review_files(tmp_path)
