"""Loading and writing only: every input format becomes one table type; every CSV file is written
by one encoder (:mod:`shortcutlab.data.csv_text`, what pandas' ``to_csv`` writes).

It imports only the bottom layer (``errors``, ``params``, ``fields``); every other package
reads and writes tables through it.
"""

from shortcutlab.data.csv_text import csv_text
from shortcutlab.data.group_split import GroupSplit, split_by_group
from shortcutlab.data.labels import LabelSpace, normalize_label_values
from shortcutlab.data.loading import (
    LABEL,
    ROW_ID,
    SHORTCUT,
    TEXT,
    TEXT_PAIR,
    LoadedTable,
    TableSource,
    load_table,
)
from shortcutlab.data.writing import (
    FORMATS,
    atomic_output_dir,
    sha256_file,
    write_json,
    write_table,
)

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
    "csv_text",
    "load_table",
    "normalize_label_values",
    "sha256_file",
    "split_by_group",
    "write_json",
    "write_table",
]
