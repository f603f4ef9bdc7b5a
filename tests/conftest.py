"""Shared fixtures: small generated data, written to temporary files when a test needs paths."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.corpus import generate_corpus

# The Shortcut Maze GoEmotions release, when present (users do not have it; those tests skip).
GOEMOTIONS = Path(
    os.environ.get(
        "SHORTCUTLAB_GOEMOTIONS",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "goemotions-maze",
    )
)


@pytest.fixture(scope="session")
def corpus() -> dict[str, pd.DataFrame]:
    """A small review corpus (5 levels, distractor columns) shared by many tests."""
    return generate_corpus(train_size=600, test_size=400, seed=7)


@pytest.fixture
def corpus_files(tmp_path: Path, corpus: dict[str, pd.DataFrame]) -> dict[str, Path]:
    paths = {}
    for name, frame in corpus.items():
        paths[name] = tmp_path / f"{name}.csv"
        frame.to_csv(paths[name], index=False)
    return paths


@pytest.fixture
def tiny_frame() -> pd.DataFrame:
    """Three labels with obviously different words; 30 rows each."""
    rows = []
    for i in range(30):
        rows.append({"text": f"Awful thing number {i}. It broke.", "label": 0})
        rows.append({"text": f"Okay thing number {i}. It works.", "label": 1})
        rows.append({"text": f"Great thing number {i}! Love it.", "label": 2})
    return pd.DataFrame(rows)


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, for byte-identity checks."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def tree_state(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (as None) under ``root``: what "nothing written" compares."""
    return {
        str(path.relative_to(root)): None if path.is_dir() else path.read_bytes()
        for path in sorted(root.rglob("*"))
    }
