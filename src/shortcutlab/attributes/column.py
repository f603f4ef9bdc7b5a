"""``column``: an attribute the user already has, read from a metadata column of the input table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.attributes.base import Annotation, Attribute
from shortcutlab.errors import LISTED_NAMES, ConfigError, DataError, listed
from shortcutlab.params import quoted

# Columns every MPS split already has; an attribute column of the same name gets the prefix attr_.
RESERVED_COLUMNS = ("row_id", "text", "text_pair", "label", "group")


class ColumnAttribute(Attribute):
    """The value of each row is its entry in the input column ``column``, as a string.

    Missing entries (empty, NaN, None) get ``None`` and leave the build. Whole-number floats read
    as integers (pandas turns an integer column with a gap into floats: ``3.0`` reads ``"3"``).
    The output column keeps the user's name unless that clashes with a column every split has
    (row_id, text, text_pair, label, group); then it is ``attr_<name>``.

    Examples:
        >>> genre = ColumnAttribute("genre")
        >>> genre.annotate(["a", "b", "c", "d"], {"genre": ["drama", None, 3.0, " "]}).values.tolist()
        ['drama', None, '3', None]
        >>> genre.column, ColumnAttribute("label").column
        ('genre', 'attr_label')

    Args:
        column: The input column holding each row's value (required).
    """

    name = "column"

    def __init__(self, column: str | None = None) -> None:
        if not isinstance(column, str) or not column.strip():
            raise ConfigError(
                "The column attribute needs the 'column' option: the name of the input column "
                f"that holds the attribute, e.g. column=genre. Got {quoted(column)} instead."
            )
        self.source = column
        self.needs_columns = (column,)

    @property
    def column(self) -> str:
        """The user's column name, or ``attr_<name>`` when it clashes with a split's own column."""
        return f"attr_{self.source}" if self.source in RESERVED_COLUMNS else self.source

    def annotate(
        self, texts: Sequence[str], columns: Mapping[str, Sequence[Any]] | None = None
    ) -> Annotation:
        available = list(columns or {})
        if self.source not in available:
            names = listed(available, limit=LISTED_NAMES) if available else "none besides the text"
            raise DataError(
                f"The column attribute reads the column {quoted(self.source)}, which the input does not "
                f"have. Its columns are: {names}. Set column= to one of them."
            )
        entries = list(columns[self.source])  # type: ignore[index]
        if len(entries) != len(texts):
            raise DataError(
                f"The column {quoted(self.source)} has {len(entries)} entries for {len(texts)} texts; "
                "pass the column of the same rows."
            )
        values = np.empty(len(entries), dtype=object)
        values[:] = [_as_value(entry) for entry in entries]
        return Annotation(values, {"missing": sum(v is None for v in values.tolist())})

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "column": self.source}


def _as_value(entry: Any) -> str | None:
    if entry is None or (np.ndim(entry) == 0 and pd.isna(entry)):  # None, NaN, pd.NA, NaT
        return None
    if isinstance(entry, float | np.floating) and float(entry).is_integer():
        entry = int(entry)
    text = str(entry).strip()
    return text or None
