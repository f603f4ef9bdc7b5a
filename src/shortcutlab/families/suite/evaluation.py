"""What ``suite evaluate`` computed (a JSON-ready record), its long table, and writing it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.families.suite.long_table import suite_long_table


@dataclass(repr=False)  # a short __repr__ below
class SuiteEvaluation:
    """What ``suite evaluate`` computed: a JSON-ready record (``results``) for results.json."""

    results: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def to_pandas(self) -> pd.DataFrame:
        """The long, tidy table: one row per strategy × set × metric (``split`` names the set;
        columns in the glossary, "The tidy table")."""
        return suite_long_table(self.results)

    def __repr__(self) -> str:
        sets = ", ".join(f"{n}={rows:,}" for n, rows in self.results["suite"]["sets"].items())
        return f"SuiteEvaluation(model={self.results['model']['name']!r}, sets=({sets}))"


def save_suite_evaluation(
    evaluation: SuiteEvaluation, out: str | Path, *, overwrite: bool = False
) -> Path:
    """Write ``results.json`` and ``tables.md`` into ``out`` atomically (all or nothing)."""
    from shortcutlab.data.writing import atomic_output_dir, write_json
    from shortcutlab.families.suite.tables import suite_markdown

    with atomic_output_dir(out, overwrite=overwrite) as folder:
        write_json(folder / "results.json", _finite(evaluation.results))
        (folder / "tables.md").write_text(suite_markdown(evaluation.results), encoding="utf-8")
    return Path(out)


def _finite(value: Any) -> Any:
    """NaN (a metric over no rows) becomes null, which JSON can hold."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, float) and np.isnan(value):
        return None
    return value
