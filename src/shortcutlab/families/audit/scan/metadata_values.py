"""A metadata column's entries as the audit reads them: missing, a value's name, numbers."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from shortcutlab.errors import LISTED_NAMES, DataError, listed
from shortcutlab.params import quoted


def is_missing(value: Any) -> bool:
    """None, NaN or the empty string."""
    return value is None or (isinstance(value, float) and np.isnan(value)) or value == ""


def value_name(value: Any) -> str:
    """The entry as text; a whole float without its ".0"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def as_numbers(values: Sequence[Any]) -> np.ndarray | None:
    """The column as floats (NaN for missing), or None when some entry is not a number."""
    out = np.empty(len(values))
    for i, value in enumerate(values):
        if is_missing(value):
            out[i] = np.nan
        elif isinstance(value, bool):
            return None
        else:
            try:
                out[i] = float(value)
            except (TypeError, ValueError):
                return None
    return out


def check_metadata_columns(found: Collection[str], columns: Sequence[str]) -> None:
    """Refuse a metadata column the table (with columns ``found``) does not have."""
    missing = [c for c in columns if c not in found]
    if missing:
        there = listed(sorted(found), limit=LISTED_NAMES) or "none"
        raise DataError(
            f"Metadata column {quoted(missing[0])} is not in the table; the metadata columns there are: {there}."
        )
