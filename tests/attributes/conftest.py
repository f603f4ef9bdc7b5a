"""Fixtures for attribute tests: an isolated cache, no hub, no proxy, and Rotten Tomatoes when present."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROTTEN_TOMATOES


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test writes to the user's caches, reaches the Hugging Face hub or goes through a proxy."""
    monkeypatch.setenv("SHORTCUTLAB_CACHE", str(tmp_path / "shortcutlab-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")


@pytest.fixture(scope="session")
def rotten_tomatoes() -> pd.DataFrame:
    """The real Rotten Tomatoes sentences (10,662 rows); tests using it skip when it is absent."""
    path = ROTTEN_TOMATOES / "sentences.csv"
    if not path.is_file():
        pytest.skip(f"Rotten Tomatoes is not at {path}")
    return pd.read_csv(path)
