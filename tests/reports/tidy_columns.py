"""The glossary's columns of the long table, for the tests of every result's ``to_pandas()``."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

GLOSSARY = Path(__file__).parents[2] / "docs" / "glossary.md"


def glossary_columns() -> set[str]:
    """The column names the glossary's "The tidy table" section explains (its ### `name` headings)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## The tidy table")[1].split("\n## ")[0]
    return set(re.findall(r"^### `([a-z_]+)`$", section, flags=re.MULTILINE))


def assert_explained(table: pd.DataFrame) -> None:
    missing = [c for c in table.columns if c not in glossary_columns()]
    assert missing == [], f"columns not in docs/glossary.md: {missing}"
