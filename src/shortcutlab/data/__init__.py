"""Loading and writing only: every input format becomes one table type; every CSV file is written
by one encoder (:mod:`shortcutlab.data.csv_text`, what pandas' ``to_csv`` writes).

It imports only the bottom layer (``errors``, ``params``, ``fields``); every other package
reads and writes tables through it.

The names below load lazily (PEP 562): importing one light submodule (``data.options``,
``data.sqlite_file``) does not import numpy and pyarrow with the readers and writers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shortcutlab.data.column_names import LABEL, ROW_ID, SHORTCUT, TEXT, TEXT_PAIR
from shortcutlab.lazy_exports import lazy_exports

_LAZY = {
    "FORMATS": "shortcutlab.data.writing",
    "GroupSplit": "shortcutlab.data.group_split",
    "LabelSpace": "shortcutlab.data.labels",
    "LoadedTable": "shortcutlab.data.loading",
    "TableSource": "shortcutlab.data.loading",
    "atomic_output_dir": "shortcutlab.data.writing",
    "load_table": "shortcutlab.data.loading",
    "normalize_label_values": "shortcutlab.data.labels",
    "sha256_file": "shortcutlab.data.writing",
    "split_by_group": "shortcutlab.data.group_split",
    "write_json": "shortcutlab.data.writing",
    "write_table": "shortcutlab.data.writing",
}

if TYPE_CHECKING:  # pragma: no cover
    from shortcutlab.data.group_split import GroupSplit, split_by_group
    from shortcutlab.data.labels import LabelSpace, normalize_label_values
    from shortcutlab.data.loading import LoadedTable, TableSource, load_table
    from shortcutlab.data.writing import (
        FORMATS,
        atomic_output_dir,
        sha256_file,
        write_json,
        write_table,
    )


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "FORMATS",
    "GroupSplit",
    "LABEL",
    "ROW_ID",
    "SHORTCUT",
    "TEXT",
    "TEXT_PAIR",
    "LabelSpace",
    "LoadedTable",
    "TableSource",
    "atomic_output_dir",
    "load_table",
    "normalize_label_values",
    "sha256_file",
    "split_by_group",
    "write_json",
    "write_table",
]
