"""Read labelled text tables from CSV, TSV, JSONL, Parquet, pandas or Hugging Face datasets.

Every loader returns the same table type: the canonical columns (``row_id``, ``text``, optional
``text_pair``, ``label``, then the input's other columns; :mod:`~shortcutlab.data.canonical`), held
as an Arrow table (compact text storage; ``LoadedTable.frame`` gives pandas), plus a
:class:`TableSource` that records where it came from.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from shortcutlab.data.canonical import (
    CANONICAL_COLUMNS,
    CUE_SPANS,
    LABEL,
    ROW_ID,
    SHORTCUT,
    TEXT,
    TEXT_PAIR,
    as_text,
    canonical_rows,
    check_column_types,
    check_columns,
    find_text_columns,
)
from shortcutlab.data.columns import (
    counted_nul,
    empty_values,
    int_array,
    numpy_of,
    string_array,
    without_nul,
)
from shortcutlab.data.reading import (
    delimited_file,
    detect_format,
    frame_digest,
    read_file,
    read_hf,
    sha256_file,
    table_from_frame,
)
from shortcutlab.data.streaming import HOLD_BYTES, TextStream, held_texts
from shortcutlab.errors import ConfigError, DataError, InputFileError, ShortcutlabWarning
from shortcutlab.params import check_choice

if TYPE_CHECKING:
    import pandas as pd

ON_EMPTY = ("drop", "error", "keep")
# The column names live in data/canonical.py; callers import them from here, with load_table.
__all__ = [
    "CUE_SPANS",
    "LABEL",
    "ON_EMPTY",
    "ROW_ID",
    "SHORTCUT",
    "TEXT",
    "TEXT_PAIR",
    "LoadedTable",
    "TableSource",
    "load_table",
    "split_source_spec",
]


@dataclass(frozen=True)
class TableSource:
    """Provenance of a loaded table, written into manifests."""

    path: str | None
    format: str
    sha256: str
    rows_read: int
    dropped_empty_text: int = 0
    dropped_empty_label: int = 0
    split: str | None = None
    #: Input columns found by name because none was given (e.g. {"text": "premise", "text_pair":
    #: "hypothesis"}); absent from the record when the columns were given or canonical.
    columns_found: dict[str, str] | None = None
    #: Rows whose text held NUL bytes, read as spaces (absent from the record when none did).
    texts_with_nul: int = 0

    def to_json(self) -> dict[str, Any]:
        record = asdict(self)
        if self.columns_found is None:
            del record["columns_found"]
        if not self.texts_with_nul:
            del record["texts_with_nul"]
        return record


@dataclass
class LoadedTable:
    """A table in the canonical columns (Arrow) and where it came from.

    A table loaded with ``stream_text=True`` holds only ``row_id`` and ``label`` in memory
    (:attr:`index`); :meth:`batches` re-reads its texts from the file, and :attr:`table` reads the
    whole table the first time it is asked for.
    """

    materialized: pa.Table | None
    source: TableSource
    index: pa.Table | None = None
    stream: TextStream | None = None
    loader: dict[str, Any] | None = field(default=None, repr=False)
    _frame: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.index is None:
            self.index = self.table.select([ROW_ID, LABEL])

    @property
    def table(self) -> pa.Table:
        """Every column (read from the file on first use if the table was streamed)."""
        if self.materialized is None:
            if self.source.path is None or self.loader is None:
                raise DataError("This table was streamed and cannot be read again.")
            with warnings.catch_warnings():  # what the first reading warned about, once
                warnings.simplefilter("ignore", ShortcutlabWarning)
                full = load_table(self.source.path, **self.loader)
            if full.source.sha256 != self.source.sha256:
                raise DataError(f"'{self.source.path}' changed while it was being read.")
            # The labels as the index holds them (brought to other files' type by agree_labels).
            self.materialized = _with_column(full.table, LABEL, self.index.column(LABEL))
        return self.materialized

    @property
    def frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame (made on first use)."""
        if self._frame is None:
            self._frame = self.table.to_pandas()
        return self._frame

    def __len__(self) -> int:
        return self.index.num_rows

    def texts(self) -> list[str]:
        return self.table.column(TEXT).to_pylist()

    def column_names(self) -> list[str]:
        """The canonical columns, then the input's other columns."""
        if self.materialized is not None or self.stream is None or self.loader is None:
            return self.table.column_names
        stream = self.stream
        used = {stream.text_col, stream.text_pair_col, self.loader["label_col"], ROW_ID}
        canonical = [ROW_ID, TEXT, *([TEXT_PAIR] if stream.text_pair_col else []), LABEL]
        others = [c for c in stream.file.names if c not in used and c not in CANONICAL_COLUMNS]
        return canonical + others

    def columns(self, names: list[str]) -> pa.Table:
        """Some of the input's other columns for the table's rows; a streamed table reads only
        these from its file."""
        if self.materialized is not None or self.stream is None:
            return self.table.select(names)
        return self.stream.columns(names)

    def row_ids(self) -> np.ndarray:
        return numpy_of(self.index.column(ROW_ID))

    def batches(self, rows: int) -> Iterator[pa.Table]:
        """The canonical columns (row_id, text, [text_pair], label) in pieces, in row order."""
        if self.materialized is not None or self.stream is None:
            names = [c for c in CANONICAL_COLUMNS if c in self.table.column_names]
            canonical = self.table.select(names)
            for start in range(0, canonical.num_rows, rows):
                yield canonical.slice(start, rows)
            return
        start = 0
        for texts, pairs in self.stream.batches():
            for offset in range(0, len(texts), rows):
                length = min(rows, len(texts) - offset)
                piece = {
                    ROW_ID: self.index.column(ROW_ID).slice(start + offset, length),
                    TEXT: texts.slice(offset, length),
                }
                if pairs is not None:
                    piece[TEXT_PAIR] = pairs.slice(offset, length)
                piece[LABEL] = self.index.column(LABEL).slice(start + offset, length)
                yield pa.table(piece)
            start += len(texts)

    def select(self, rows: np.ndarray) -> LoadedTable:
        """The rows at the given positions (a boolean mask or indices), same source."""
        rows = np.asarray(rows)
        indices = np.flatnonzero(rows) if rows.dtype == bool else rows
        return LoadedTable(self.table.take(int_array(indices.astype(np.int64))), self.source)

    def with_labels(self, labels: pa.Array) -> LoadedTable:
        """The same rows with their labels in another type (see :func:`agree_labels`)."""
        materialized = self.materialized
        if materialized is not None:
            materialized = _with_column(materialized, LABEL, labels)
        index = _with_column(self.index, LABEL, labels)
        return LoadedTable(materialized, self.source, index, self.stream, self.loader)

    def with_texts(self, texts: list[str]) -> LoadedTable:
        """The same rows with new texts (e.g. after cleaning)."""
        position = self.table.schema.get_field_index(TEXT)
        return LoadedTable(self.table.set_column(position, TEXT, string_array(texts)), self.source)


def _with_column(table: pa.Table, name: str, values: pa.Array | pa.ChunkedArray) -> pa.Table:
    return table.set_column(table.schema.get_field_index(name), name, values)


def split_source_spec(spec: str | Path) -> tuple[Path, str | None]:
    """``"data/dd::validation"`` -> (Path("data/dd"), "validation"); plain paths have no split."""
    text = str(spec)
    if "::" in text:
        path, _, split = text.rpartition("::")
        return Path(path), split or None
    return Path(text), None


def load_table(
    source: str | Path | pd.DataFrame | Any,
    *,
    text_col: str = TEXT,
    label_col: str = LABEL,
    text_pair_col: str | None = None,
    encoding: str = "utf-8",
    on_empty: str = "drop",
    split: str | None = None,
    role: str = "data",
    stream_text: bool = False,
) -> LoadedTable:
    """Load a labelled text table and bring it to the canonical columns.

    Args:
        source: a path (CSV/TSV/JSONL/Parquet, optionally gzipped, or a folder saved with
            ``datasets.save_to_disk``; ``PATH::SPLIT`` picks a split of a DatasetDict), a
            pandas DataFrame, or a ``datasets.Dataset``.
        text_col: the column holding the text.
        label_col: the column holding the label.
        text_pair_col: the column holding a pair's second text, if any.
        encoding: encoding of text files.
        on_empty: ``"drop"`` rows with an empty text or label (counted in the source record),
            ``"error"``, or ``"keep"`` them (for derived tables whose rows are paired).
        split: split of a DatasetDict; defaults to ``role`` (for example ``"train"``).
        role: what the table is for, used in messages ("train", "test").
        stream_text: for a plain CSV/TSV file, keep only row ids and labels in memory and read
            the texts again when they are needed (:meth:`LoadedTable.batches`).
    """
    check_choice("on_empty", on_empty, ON_EMPTY)
    options = dict(text_col=text_col, label_col=label_col, text_pair_col=text_pair_col)
    if stream_text and isinstance(source, str | Path):
        loader = dict(options, encoding=encoding, on_empty=on_empty, split=split, role=role)
        streamed = _load_streamed(Path(source), loader)
        if streamed is not None:
            return streamed
    raw, path, fmt, digest = _read_any(source, encoding=encoding, split=split, role=role)
    name = f"'{path}'" if path is not None else f"the {role} table"
    text_col, text_pair_col, columns_found = find_text_columns(
        raw.column_names, text_col, text_pair_col
    )
    options = dict(text_col=text_col, label_col=label_col, text_pair_col=text_pair_col)
    check_columns(raw.column_names, name, **options)
    check_column_types(raw, name, **options)
    parts = (
        {TEXT: text_col} if text_pair_col is None else {TEXT: text_col, TEXT_PAIR: text_pair_col}
    )
    canonical, empty_text, with_nul = {}, np.zeros(raw.num_rows, bool), np.zeros(raw.num_rows, bool)
    for part, column in parts.items():
        canonical[part], held = without_nul(as_text(raw.column(column)))
        empty_text |= empty_values(raw.column(column)) | empty_values(canonical[part])
        with_nul |= held
    used = {text_col, label_col, text_pair_col, ROW_ID}
    extras = {
        c: raw.column(c) for c in raw.column_names if c not in used and c not in CANONICAL_COLUMNS
    }
    table, dropped = canonical_rows(raw, canonical, extras, empty_text, label_col, on_empty, name)
    source_record = TableSource(
        path=str(path) if path is not None else None,
        format=fmt,
        sha256=digest,
        rows_read=raw.num_rows,
        dropped_empty_text=dropped[0],
        dropped_empty_label=dropped[1],
        split=split,
        columns_found=columns_found,
        texts_with_nul=counted_nul(with_nul, name),
    )
    return LoadedTable(table, source_record)


def _load_streamed(path: Path, loader: dict[str, Any]) -> LoadedTable | None:
    """Scan a plain CSV/TSV file for row ids, labels and empty rows (None: load it whole)."""
    if not path.is_file():
        return None
    try:
        fmt = detect_format(path)
    except InputFileError:
        return None
    file = delimited_file(path, fmt, encoding=loader["encoding"])
    if file is None:
        return None
    name = f"'{path}'"
    text_col, pair_col, columns_found = find_text_columns(
        list(file.names), loader["text_col"], loader["text_pair_col"]
    )
    loader = dict(loader, text_col=text_col, text_pair_col=pair_col)
    label_col = loader["label_col"]
    check_columns(
        list(file.names), name, text_col=text_col, label_col=label_col, text_pair_col=pair_col
    )
    wanted = [
        c for c in (ROW_ID, text_col, pair_col, label_col) if c is not None and c in file.names
    ]
    signature = file.signature()
    with ThreadPoolExecutor(max_workers=1) as pool:
        digest = pool.submit(sha256_file, path)
        empty_parts: list[np.ndarray] = []
        nul_parts: list[np.ndarray] = []
        kept: dict[str, list[pa.Array]] = {c: [] for c in wanted if c not in (text_col, pair_col)}
        blocks: list[tuple[pa.Array, pa.Array | None]] | None = (
            [] if signature[0] <= HOLD_BYTES else None
        )
        try:
            for batch in file.batches(wanted):
                empty = np.zeros(batch.num_rows, bool)
                held = np.zeros(batch.num_rows, bool)
                parts: list[pa.Array | None] = [None, None]
                for at, column in enumerate((text_col, pair_col)):
                    if column is not None:
                        parts[at], nul = without_nul(batch.column(column))
                        empty |= empty_values(parts[at])
                        held |= nul
                if blocks is not None:
                    blocks.append((parts[0], parts[1]))
                empty_parts.append(empty)
                nul_parts.append(held)
                for column in kept:
                    kept[column].append(batch.column(column))
        except (pa.ArrowException, LookupError, UnicodeError, ValueError):
            return None  # the whole-file path reads it or names the problem precisely
        digest_text = digest.result()
    if not empty_parts:
        return None
    raw = pa.table({c: pa.chunked_array(parts, pa.string()) for c, parts in kept.items()})
    empty_text = np.concatenate(empty_parts)
    index, dropped = canonical_rows(
        raw, {}, {}, empty_text.copy(), label_col, loader["on_empty"], name
    )
    keep = ~(empty_text | empty_values(raw.column(label_col)))
    if loader["on_empty"] == "keep":
        keep[:] = True
    source = TableSource(
        path=str(path),
        format=fmt,
        sha256=digest_text,
        rows_read=raw.num_rows,
        dropped_empty_text=dropped[0],
        dropped_empty_label=dropped[1],
        split=loader["split"],
        columns_found=columns_found,
        texts_with_nul=counted_nul(np.concatenate(nul_parts), name),
    )
    texts = None if blocks is None else held_texts(blocks, keep)
    stream = TextStream(file, text_col, pair_col, keep, signature, texts)
    return LoadedTable(None, source, index=index, stream=stream, loader=loader)


def _read_any(
    source: Any, *, encoding: str, split: str | None, role: str
) -> tuple[pa.Table, Path | None, str, str]:
    if type(source).__name__ == "DataFrame" and hasattr(source, "to_parquet"):
        frame = source.reset_index(drop=True)
        return table_from_frame(frame), None, "dataframe", frame_digest(frame)
    if type(source).__module__.startswith("datasets.") and hasattr(source, "to_pandas"):
        frame = source.to_pandas()
        return table_from_frame(frame), None, "hf-dataset", frame_digest(frame)
    if not isinstance(source, str | Path):
        raise ConfigError(
            f"Cannot load a table from {type(source).__name__}. Pass a path, a pandas DataFrame "
            f"or a datasets.Dataset."
        )
    path, path_split = split_source_spec(source)
    split = split or path_split
    if not path.exists():
        raise InputFileError(f"The {role} file '{path}' does not exist. Check the path.")
    fmt = detect_format(path)
    if fmt == "hf":
        table, digest = read_hf(path, split=split, role=role)
        return table, path, fmt, digest
    table, digest = read_file(path, fmt, encoding=encoding)
    return table, path, fmt, digest
