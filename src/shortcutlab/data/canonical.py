"""The canonical columns of a loaded table, and how an input table is brought to them.

``row_id`` (the row's index in the input, kept by every derived row), ``text``, optional
``text_pair``, ``label``, then the input's other columns; rows with an empty text or label are
dropped, refused or kept as the caller asks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.data.column_names import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.data.column_names import SHORTCUT as SHORTCUT  # re-exported with the others
from shortcutlab.data.columns import (
    bool_array,
    bool_scalar,
    empty_values,
    filled,
    int_array,
    numpy_of,
)
from shortcutlab.data.labels import is_nested, normalize_label_array, shown
from shortcutlab.data.pairs import named_pair_columns
from shortcutlab.data.reading import OBJECTS
from shortcutlab.errors import (
    LISTED_NAMES,
    ConfigError,
    DataError,
    InputFileError,
    ended,
    knob,
    listed,
)
from shortcutlab.params import quoted

#: A Maze build's JSON list of ``[start, end]`` offsets of the inserted cue in the text that got it.
CUE_SPANS = "cue_spans"
CANONICAL_COLUMNS = (ROW_ID, TEXT, TEXT_PAIR, LABEL)


def find_text_columns(
    columns: list[str], text_col: str, text_pair_col: str | None
) -> tuple[str, str | None, dict[str, str] | None]:
    """The text columns to read: the given ones, else a second text found by name.

    With ``text_col`` at its default and no ``text_pair_col``, a table with ``text`` and
    ``text_pair`` (a canonical table) is read as pairs, and a table without ``text`` but with a
    known pair such as ``premise``/``hypothesis`` (:data:`NAMED_PAIR_COLUMNS`) reads those; the
    third value records which columns were found (None when nothing was looked up).
    """
    if text_col != TEXT or text_pair_col is not None:
        return text_col, text_pair_col, None
    if TEXT in columns:
        return TEXT, (TEXT_PAIR if TEXT_PAIR in columns else None), None
    named = named_pair_columns(columns)
    if named is None:
        return text_col, text_pair_col, None
    return named[0], named[1], {TEXT: named[0], TEXT_PAIR: named[1]}


def check_columns(
    columns: list[str], name: str, *, text_col: str, label_col: str, text_pair_col: str | None
) -> None:
    options = (("text_col", text_col), ("label_col", label_col), ("text_pair_col", text_pair_col))
    check_distinct_columns(options)
    for option, column in options:
        if column is not None and column not in columns:
            raise DataError(
                f"Column {quoted(column)} not found in {name}. Columns found: "
                f"{listed(columns, limit=LISTED_NAMES)}. "
                f"Pass the right name with {ended(knob(option))}"
            )


def check_distinct_columns(
    options: Sequence[tuple[str, str | None]], flags: Mapping[str, str] | None = None
) -> None:
    """Refuse one column given to two options, as (parameter, column) pairs (``--text-col label
    --label-col label`` would build a benchmark whose text is its label); ``flags`` names the
    command-line option of a parameter not spelled ``--`` + its name."""
    flags = flags or {}
    given = [(option, column) for option, column in options if column is not None]
    for position, (option, column) in enumerate(given):
        for other, other_column in given[position + 1 :]:
            if column == other_column:
                raise ConfigError(
                    f"{knob(option, flag=flags.get(option))} and {knob(other, flag=flags.get(other))} "
                    f"both name the column {quoted(column)}; each needs a column of its own. "
                    f"Pass the right names."
                )


def check_column_types(
    raw: pa.Table, name: str, *, text_col: str, label_col: str, text_pair_col: str | None
) -> None:
    """Refuse a text or label column of lists or objects (:func:`refuse_nested`)."""
    for option, column in (
        ("text_col", text_col),
        ("text_pair_col", text_pair_col),
        ("label_col", label_col),
    ):
        if column is not None:
            refuse_nested(raw, column, name, option)
            if option != "label_col":
                _check_utf8(raw.column(column), column, name)


def _check_utf8(values: pa.ChunkedArray, column: str, name: str) -> None:
    """A column of bytes (Parquet binary) is text only where it is UTF-8 (else it would be read
    as Python's b'...' repr)."""
    if pa.types.is_binary(values.type) or pa.types.is_large_binary(values.type):
        try:
            pc.cast(values, pa.string())
        except pa.ArrowInvalid as exc:
            raise DataError(
                f"The text column {quoted(column)} of {name} holds bytes that are not UTF-8 text. "
                f"Store the texts as strings (decoded with their encoding)."
            ) from exc


def refuse_nested(raw: pa.Table, column: str, name: str, option: str) -> None:
    """Refuse a list, struct or JSON-object column where text or labels are read (its values
    would become their Python repr)."""
    field = raw.schema.field(column)
    if not (is_nested(field.type) or field.metadata == OBJECTS):
        return
    values = [v for v in raw.column(column).to_pylist() if v is not None]
    # A mixed column keeps each value's text: its example is one that was an object or list.
    example = next((v for v in values if str(v)[:1] in "{[("), values[0] if values else None)
    kind = "label" if option == "label_col" else "text"
    raise DataError(
        f"The {kind} column {quoted(column)} of {name} holds lists or objects (e.g. {shown(example)}), "
        f"not {'labels' if kind == 'label' else 'text'}; "
        + (
            "a label is a number, true/false or a text. "
            if kind == "label"
            else "join them into one text first. "
        )
        + f"Pick a column of plain values with {ended(knob(option))}"
    )


def canonical_rows(
    raw: pa.Table,
    texts: dict[str, Any],
    extras: dict[str, Any],
    empty_text: np.ndarray,
    label_col: str,
    on_empty: str,
    name: str,
) -> tuple[pa.Table, tuple[int, int]]:
    """Row ids, texts, normalised labels and extras, without the rows ``on_empty`` drops."""
    if raw.num_rows == 0:
        raise InputFileError(
            f"{name} has no rows. Provide a table with a header and at least one row."
        )
    ids = row_ids(raw)
    empty_label = empty_values(raw.column(label_col)) & ~empty_text
    for flag, mask in (("text", empty_text), ("label", empty_label)):
        if on_empty == "error" and mask.any():
            first = int(ids[int(np.argmax(mask))].as_py())
            count = int(mask.sum())
            raise DataError(
                f"{name} has {count} row{'' if count == 1 else 's'} with an empty {flag} (first: "
                f"row {first}). "
                f"Remove them or pass {knob('on_empty', 'drop')}."
            )
    if on_empty == "keep":
        empty_text[:] = False
        empty_label[:] = False
    table = pa.table({ROW_ID: ids, **texts, LABEL: raw.column(label_col), **extras})
    keep = ~(empty_text | empty_label)
    if not keep.all():
        table = table.filter(bool_array(keep))
    if table.num_rows == 0:
        raise DataError(f"{name} has no rows with a non-empty text and label.")
    refuse_control_labels(table.column(LABEL), table.column(ROW_ID), name, label_col)
    position = table.schema.get_field_index(LABEL)
    table = table.set_column(position, LABEL, normalize_label_array(table.column(LABEL)))
    return table, (int(empty_text.sum()), int(empty_label.sum()))


def refuse_control_labels(
    labels: pa.ChunkedArray, ids: pa.ChunkedArray, name: str, label_col: str
) -> None:
    """Refuse a text label holding a control character (a NUL, an escape) inside it: a damaged
    cell would be a label of its own ("3\\x00" beside 3), and with it the label order and the cue
    schedule change. White space at either end is trimmed from labels, so it may stay."""
    if not (pa.types.is_string(labels.type) or pa.types.is_large_string(labels.type)):
        return
    found = pc.match_substring_regex(pc.utf8_trim_whitespace(labels), r"\p{Cc}")
    rows = np.flatnonzero(numpy_of(filled(found, bool_scalar(False))))
    if len(rows):
        first = int(rows[0])
        more = f" ({len(rows) - 1:,} more rows hold one too)" if len(rows) > 1 else ""
        raise DataError(
            f"{name} row {ids[first].as_py()}, column {quoted(label_col)}: the label "
            f"{quoted(labels[first].as_py())} holds a control character{more}; it would be a "
            f"label of its own. Fix the cell (a damaged export?), or remove the row."
        )


def row_ids(raw: pa.Table) -> pa.Array:
    """The input's own ``row_id`` column when it holds unique whole numbers (a derived table
    keeps its ids, also through CSV), else the row positions."""
    if ROW_ID in raw.column_names:
        column = raw.column(ROW_ID)
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            if (
                column.null_count == 0
                and pc.all(pc.match_substring_regex(column, r"^\d{1,18}$")).as_py()
            ):
                column = pc.cast(column, pa.int64())
        if pa.types.is_integer(column.type) and column.null_count == 0:
            ids = numpy_of(pc.cast(column, pa.int64()))
            if len(np.unique(ids)) == len(ids):
                return int_array(ids.astype(np.int64))
    return int_array(np.arange(raw.num_rows, dtype=np.int64))


def as_text(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Text columns as strings; other types keep Python's ``str`` of each value."""
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return column
    if pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type):
        return pc.cast(column, pa.string())  # checked to be UTF-8 (check_column_types)
    return pa.chunked_array(
        [pa.array([None if v is None else str(v) for v in column.to_pylist()], pa.string())]
    )
