"""A metadata column's entries as the audit reads them: missing, a value's name, numbers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


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
