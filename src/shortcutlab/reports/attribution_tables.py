"""The Shortcut Maze Table 4 layout of ``explain`` results: mean SHAP value per label of the cue's
tokens and of the other tokens, one row block per method (the paper's BERT and AFR)."""

from __future__ import annotations

from typing import Any

import pandas as pd

TABLES = {False: "table", True: "table_abs"}


def token_frame(results: dict[str, Any], *, absolute: bool = False) -> pd.DataFrame:
    """Rows: per method, the token groups (the cue's sides, then ``others``); columns: how many
    tokens, then one per label. Methods are row blocks, not side by side, so the table stays
    narrow enough for a terminal with any number of labels."""
    labels = results["labels"]
    index: list[tuple[str, str]] = []
    rows: list[list[Any]] = []
    for method, summary in results["methods"].items():
        for group, entry in summary[TABLES[absolute]].items():
            index.append((method, group))
            rows.append([entry["count"], *(entry[label] for label in labels)])
    return pd.DataFrame(
        rows,
        columns=["count", *map(str, labels)],
        index=pd.MultiIndex.from_tuples(index, names=["method", "tokens"]),
    )
