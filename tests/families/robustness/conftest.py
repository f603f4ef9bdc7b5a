"""Tiny binary review tables and a test-only DIR class for the robustness family's tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shortcutlab import generate_corpus
from shortcutlab.errors import ConfigError
from shortcutlab.perturb import PERTURBATIONS, Perturbation, Perturbed

NEGATE = "test-negate"


class AppendNegation(Perturbation):
    """DIR: append "Not really." to rows of the ``source`` label; they should move to ``target``."""

    name = NEGATE

    def __init__(self, source: Any = None, target: Any = None) -> None:
        self.source, self.target = source, target

    def apply(
        self, texts: Sequence[str], labels: np.ndarray, *, label_values: Sequence[Any], seed: int
    ) -> Perturbed:
        if self.source is None or self.target is None:
            raise ConfigError(
                f"The DIR class {NEGATE} needs a label mapping: pass source= and target= labels."
            )
        values = list(label_values)
        hit = labels == values.index(self.source)
        after = [t + " Not really." if h else t for t, h in zip(texts, hit, strict=True)]
        expected = np.where(hit, values.index(self.target), -1)
        return Perturbed.compared(texts, after, expected)


@pytest.fixture
def negate_class():
    PERTURBATIONS.add(NEGATE, AppendNegation, kind="DIR")
    yield NEGATE
    PERTURBATIONS.remove(NEGATE)


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
