"""Loading and writing only: every input format becomes one table type."""

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
    "write_json",
    "write_table",
]
