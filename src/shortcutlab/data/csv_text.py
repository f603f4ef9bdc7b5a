"""CSV text: the one encoding of values behind every CSV file the project writes.

It is what ``pandas.DataFrame.to_csv(index=False, lineterminator="\\n")`` writes, made by Arrow
kernels so a million rows take a fraction of a second (``tests/data/test_csv_text.py`` compares
the two byte for byte):

- a cell is quoted only when it holds a comma, a quote, a carriage return or a line feed, and its
  quotes are doubled (Python's ``csv`` module; the bare carriage return is quoted as CPython has
  done since 3.11.9, gh-67044, so a reader cannot take it for a line end);
- a row whose only cell is empty is written ``""`` (a bare empty line would read as no row);
- missing values (None, NaN, NA) are empty cells;
- integers in decimal, floats as numpy prints them for their width (the shortest text that reads
  back as the same number: ``0.1``, ``1e-05``, ``inf``) or through ``float_format`` (``"%.6f"``),
  booleans as ``True``/``False``, and any other object as ``str(value)``.

Files meant for people (``for_people=True``: reports, audits, annotation exports, check files)
follow OWASP's CSV-injection guidance, so a spreadsheet never runs a cell as a formula: every
string cell (and header name) is quoted, and one that starts with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return gets a leading ``'``. Numbers stay numbers: numeric columns are written
as above, and a string that is a plain decimal number (``-0.25``, ``+3``, ``1e-5``) keeps its
text, since a spreadsheet reads it as that number and it can run nothing (labels such as ``-1``
stay readable). A string already starting with quotes before such a character gets one more, so
:func:`from_people_csv` restores every value exactly. Model inputs (benchmark splits) keep the
default: texts byte for byte.

Examples:
    >>> import pandas as pd
    >>> csv_text(pd.DataFrame({"text": ['say "hi", then go', None], "score": [0.5, 2.0]}))
    'text,score\\n"say ""hi"", then go",0.5\\n,2.0\\n'
    >>> people = pd.DataFrame({"text": ['=HYPERLINK("x")', "-0.25"], "n": [-1, 2]})
    >>> print(csv_text(people, for_people=True), end="")
    "text","n"
    "'=HYPERLINK(""x"")",-1
    "-0.25",2
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.data.columns import bool_array, filled, string_array, text_scalar

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["csv_header", "csv_rows", "csv_table", "csv_text", "from_people_csv", "people_cell"]

#: The characters that make a cell quoted (an RE2 class for the Arrow kernel).
_NEEDS_QUOTES = '[",\r\n]'
#: A people's cell that a spreadsheet could take for a formula (OWASP's six first characters),
#: after any quotes already there (so that neutralising can be undone exactly).
_FORMULA = "^'*[=+\\-@\t\r]"
#: A plain decimal number: a spreadsheet reads it as that number, so it is left as it is.
_NUMBER = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_PLAIN_NUMBER = f"^{_NUMBER}$"  # RE2's $ is the end of the text only (Python's fullmatch below)
#: What :func:`people_cell` added: a quote before quotes and a formula character.
_NEUTRALISED = "^'+[=+\\-@\t\r]"


def csv_text(
    frame: pd.DataFrame | pa.Table, *, float_format: str | None = None, for_people: bool = False
) -> str:
    """The whole table as CSV text: a header line, then one line per row (``for_people``: cells
    a spreadsheet could run are neutralised, see the module's notes)."""
    table = frame if isinstance(frame, pa.Table) else csv_table(frame)
    rows = csv_rows(table, float_format=float_format, for_people=for_people)
    return (csv_header(table.column_names, for_people=for_people) + rows).decode("utf-8")


def csv_header(names: list[str], *, for_people: bool = False) -> bytes:
    """The header line for columns called ``names``."""
    if for_people:
        return _csv_line(['"' + people_cell(str(n)).replace('"', '""') + '"' for n in names])
    return _csv_line([_csv_cell(str(name)) for name in names])


def csv_rows(
    table: pa.Table, *, float_format: str | None = None, for_people: bool = False
) -> bytes:
    """The rows of ``table`` as CSV lines (no header); the bytes of a table split into pieces are
    the pieces' bytes joined."""
    if table.num_columns == 0:
        return b"\n" * table.num_rows
    if table.num_rows == 0:
        return b""
    cells = [
        _csv_column(table.column(i), float_format, for_people) for i in range(table.num_columns)
    ]
    if len(cells) == 1:  # a row of one empty cell is written "" (Python's csv module)
        empty = pc.equal(cells[0], text_scalar(""))
        cells = [pc.if_else(empty, text_scalar('""'), cells[0])]
    # The line end goes onto the last cell, often short (a cue span, a label): a pass over it
    # instead of another over every line.
    cells[-1] = pc.binary_join_element_wise(cells[-1], text_scalar("\n"), text_scalar(""))
    return _concatenated(pc.binary_join_element_wise(*cells, text_scalar(",")))


def csv_table(frame: pd.DataFrame) -> pa.Table:
    """``frame`` as the Arrow table :func:`csv_rows` writes as pandas would: numbers, booleans,
    strings and categories keep their types; any other column becomes the text of its values
    (``str``, as pandas' writer does), with pandas' missing values (None, NaN, NA, NaT) empty."""
    import pandas as pd

    columns = []
    for position in range(frame.shape[1]):
        values = frame.iloc[:, position]
        dtype = values.dtype
        if isinstance(dtype, pd.StringDtype | pd.CategoricalDtype) or dtype.kind in "iufb":
            column = pa.array(values, from_pandas=True)
        else:
            objects = values.to_numpy(dtype=object)
            missing = pd.isna(objects)
            column = string_array(
                [None if gone else str(v) for v, gone in zip(objects, missing, strict=True)]
            )
        columns.append(column)
    names = [str(name) for name in frame.columns]
    if not columns:  # no columns, but the rows still count: each is an empty line
        return pa.table({"rows": np.zeros(len(frame), np.int8)}).drop_columns(["rows"])
    return pa.Table.from_arrays(columns, names=names)


def people_cell(text: str) -> str:
    """One string cell of a people's file, before quoting: a leading ``'`` where a spreadsheet
    could take it for a formula.

    Examples:
        >>> people_cell("=1+2"), people_cell("-0.25"), people_cell("-1+2"), people_cell("'@x")
        ("'=1+2", '-0.25', "'-1+2", "''@x")
    """
    if re.match(_FORMULA, text) and not re.fullmatch(_NUMBER, text):
        return "'" + text
    return text


def from_people_csv(frame: pd.DataFrame) -> pd.DataFrame:
    """A people's CSV file as read back (``pandas.read_csv``) with the values it was written from:
    the quote :func:`people_cell` added is taken off every text cell."""
    import pandas as pd

    restored = frame.copy()
    for name in restored.columns:
        values = restored[name]
        if values.dtype == object or isinstance(values.dtype, pd.StringDtype):
            restored[name] = values.map(_restored)
    return restored.rename(columns=_restored)


def _restored(value: Any) -> Any:
    """A people's cell as it was before :func:`people_cell`."""
    return value[1:] if isinstance(value, str) and re.match(_NEUTRALISED, value) else value


def _csv_column(
    column: pa.ChunkedArray | pa.Array, float_format: str | None, people: bool = False
) -> pa.Array:
    """One column's cells as CSV text (quoted where needed, missing values empty)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    kind = column.type
    if pa.types.is_integer(kind):
        text = pc.cast(column, pa.string())
    elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = column.cast(pa.string())
        if people:  # every string cell quoted (OWASP), so no separator splits off a formula
            formula = pc.and_not(
                pc.match_substring_regex(text, _FORMULA),
                pc.match_substring_regex(text, _PLAIN_NUMBER),
            )
            text = pc.if_else(
                formula, pc.binary_join_element_wise(text_scalar("'"), text, text_scalar("")), text
            )
            mask = pc.is_valid(text)
            text = pc.replace_with_mask(text, mask, _quoted(text.filter(mask)))
        else:
            text = _quoted_where_needed(text)
    else:  # each distinct value is formatted once, then the texts are taken row by row
        encoded = pc.dictionary_encode(column)
        names = [_csv_cell(t) for t in _value_texts(encoded.dictionary, float_format)]
        text = string_array(names).take(encoded.indices)
    return filled(text, text_scalar(""))


def _quoted_where_needed(text: pa.Array) -> pa.Array:
    """The cells holding a comma, a quote or a line break quoted, the others as they are."""
    held = _holding_quote_characters(text)
    if held is None:  # nothing to quote (often: labels, numbers as text)
        return text
    needs_quotes, has_quote = held
    if needs_quotes.all():  # e.g. every cue span "[[0,9]]": no cell kept as it is
        return _quoted(text, has_quote)
    mask = bool_array(needs_quotes)
    return pc.replace_with_mask(text, mask, _quoted(text.filter(mask), has_quote))


def _quoted(text: pa.Array, has_quote: bool = True) -> pa.Array:
    """Every cell in quotes, its own quotes doubled (``has_quote``: whether any cell holds one)."""
    quote = text_scalar('"')
    escaped = pc.replace_substring(text, '"', '""') if has_quote else text
    return pc.binary_join_element_wise(quote, escaped, quote, text_scalar(""))


#: The bytes that make a cell quoted (:data:`_NEEDS_QUOTES`); UTF-8 never uses them inside a
#: longer character.
_QUOTE_BYTES = tuple(map(ord, '",\r\n'))


def _holding_quote_characters(text: pa.Array) -> tuple[np.ndarray, bool] | None:
    """Per cell, whether it holds a character that makes it quoted (None: no cell does), and
    whether any cell holds a quote, found in the column's UTF-8 buffer with numpy (an RE2 scan
    of every cell takes several times as long)."""
    _, offsets, data = text.buffers()
    if data is None or len(text) == 0:
        return None
    starts = np.frombuffer(offsets, np.int32)[text.offset : text.offset + len(text) + 1]
    used = np.frombuffer(data, np.uint8)[starts[0] : starts[-1]]
    hits = used == _QUOTE_BYTES[0]
    has_quote = bool(hits.any())
    for byte in _QUOTE_BYTES[1:]:  # comparisons: several times faster than a lookup table
        hits |= used == byte
    found = np.flatnonzero(hits)
    if not len(found):
        return None
    rows = np.searchsorted(starts, found + starts[0], side="right") - 1
    needs = np.zeros(len(text), dtype=bool)
    needs[rows] = True
    return needs, has_quote


def _value_texts(values: pa.Array, float_format: str | None) -> list[str]:
    """The text of distinct non-integer, non-string values (floats as pandas writes them)."""
    if pa.types.is_floating(values.type):
        numbers = values.to_numpy(zero_copy_only=False)
        if float_format is None:
            texts = numbers.astype(str).tolist()  # numpy's shortest text for the float's width
        else:
            texts = [float_format % number for number in numbers.tolist()]
        return ["" if np.isnan(n) else t for n, t in zip(numbers, texts, strict=True)]
    return ["" if v is None else str(v) for v in values.to_pylist()]


def _csv_cell(value: str) -> str:
    if any(ch in value for ch in ',"\r\n'):
        return '"' + value.replace('"', '""') + '"'
    return value


def _csv_line(cells: list[str]) -> bytes:
    if cells == [""]:
        cells = ['""']
    return (",".join(cells) + "\n").encode("utf-8")


def _concatenated(lines: pa.Array) -> bytes:
    """All strings of an Arrow string array as one bytes object (its data buffer)."""
    if isinstance(lines, pa.ChunkedArray):
        lines = lines.combine_chunks()
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int32)
    start, end = int(offsets[lines.offset]), int(offsets[lines.offset + len(lines)])
    data = lines.buffers()[2]
    return b"" if data is None else data[start:end].to_pybytes()
