"""The Shortcut Maze Table 4 layout of ``explain`` results: mean SHAP value per label of the cue's
tokens and of the other tokens, methods side by side (the paper's BERT | AFR)."""

from __future__ import annotations

from typing import Any

import pandas as pd

TABLES = {False: "table", True: "table_abs"}


def token_frame(results: dict[str, Any], *, absolute: bool = False) -> pd.DataFrame:
    """Rows: token groups (the cue's sides, then ``others``); columns: how many tokens, then one
    per label (``method label`` when several methods are compared)."""
    labels = results["labels"]
    methods = results["methods"]
    columns: dict[str, list[Any]] = {}
    for method, summary in methods.items():
        table = summary[TABLES[absolute]]
        if not columns:
            columns["count"] = [entry["count"] for entry in table.values()]
        for label in labels:
            name = f"{method} {label}" if len(methods) > 1 else str(label)
            columns[name] = [entry[label] for entry in table.values()]
    groups = list(next(iter(methods.values()))[TABLES[absolute]])
    return pd.DataFrame(columns, index=pd.Index(groups, name="tokens"))
