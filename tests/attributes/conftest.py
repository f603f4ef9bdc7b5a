"""Fixtures for attribute tests: an isolated cache, no hub, no proxy, and Rotten Tomatoes when present."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.conftest import ROTTEN_TOMATOES


@pytest.fixture(autouse=True)
def isolated(offline: None) -> None:
    """Every attribute test runs offline (tests/conftest.py)."""


@pytest.fixture(scope="session")
def rotten_tomatoes() -> pd.DataFrame:
    """The real Rotten Tomatoes sentences (10,662 rows); tests using it skip when it is absent."""
    path = ROTTEN_TOMATOES / "sentences.csv"
    if not path.is_file():
        pytest.skip(f"Rotten Tomatoes is not at {path}")
    return pd.read_csv(path)
