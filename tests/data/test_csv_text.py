"""The one CSV writer against pandas: the same bytes as ``DataFrame.to_csv(index=False,
lineterminator="\\n")`` on hostile texts and every column type the project writes, however the
rows are split into pieces.

The frames are drawn from a seeded generator (hypothesis is not a dependency): 400 frames of
0-7 rows and 0-3 columns, each column one of eleven kinds.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from shortcutlab.data.csv_text import csv_table, csv_text, from_people_csv, people_cell
from shortcutlab.data.writing import TableWriter, write_table
from shortcutlab.errors import ConfigError

# Quotes, separators, line breaks of every kind, tabs, emoji, accents, empty pieces.
PIECES = ['"', ",", "\n", "\r", "\r\n", "\t", " ", "a", "Zz", "é", "😀", "'", ";", '""', "\\"]
PIECES += ["x,y", "\u2028", "\x0b", ""]
FLOATS = [0.0, -0.0, 0.1, 1 / 3, 1e-5, 1e16, 1.5e300, 5e-324, np.inf, -np.inf, np.nan, 2.0, -7.25]
# A row end no value holds: see pandas_csv.
_ROW_END = "\r\n\x1e"


def pandas_csv(frame: pd.DataFrame, **options: str) -> str:
    """What pandas writes. CPython's csv module quotes a bare carriage return since 3.11.9
    (gh-67044); before that it quoted only the characters of the line terminator, so there the
    rows end with one holding both line-break characters and a character no value holds, which
    is then put back to the plain line feed."""
    if sys.version_info >= (3, 11, 9):
        return frame.to_csv(index=False, lineterminator="\n", **options)
    return frame.to_csv(index=False, lineterminator=_ROW_END, **options).replace(_ROW_END, "\n")


def _text(rng: np.random.Generator) -> str:
    return "".join(rng.choice(PIECES, size=rng.integers(0, 5)))


def _maybe(rng: np.random.Generator, value: object, share: float = 0.3) -> object:
    return None if rng.random() < share else value


def _column(rng: np.random.Generator, rows: int) -> object:
    kind = int(rng.integers(0, 11))
    draws = range(rows)
    if kind == 0:  # plain texts
        return [_text(rng) for _ in draws]
    if kind == 1:  # texts with missing values
        return pd.Series([_maybe(rng, _text(rng)) for _ in draws], dtype=object)
    if kind == 2:
        return rng.integers(-(10**12), 10**12, rows)
    if kind == 3:  # floats: shortest texts, exponents, infinities, NaN, negative zero
        return np.array([FLOATS[i] for i in rng.integers(0, len(FLOATS), rows)]) * rng.choice(
            [1.0, 3.7], rows
        )
    if kind == 4:
        return rng.random(rows) < 0.5
    if kind == 5:  # mixed Python and numpy objects
        mixed = [None, np.nan, True, 1, 2.5, np.float64(0.1), np.int64(3)]
        return pd.Series(
            [mixed[i] if i < len(mixed) else _text(rng) for i in rng.integers(0, 9, rows)],
            dtype=object,
        )
    if kind == 6:
        return pd.array([_maybe(rng, int(rng.integers(-5, 5))) for _ in draws], dtype="Int64")
    if kind == 7:
        return (rng.random(rows) * 10).astype(np.float32)
    if kind == 8:
        return pd.Series([_maybe(rng, _text(rng)) for _ in draws], dtype="str")
    if kind == 9:
        return pd.Categorical([_maybe(rng, ["x", "y,z"][int(rng.integers(0, 2))]) for _ in draws])
    return pd.array([_maybe(rng, bool(rng.random() < 0.5)) for _ in draws], dtype="boolean")


def hostile_frames(count: int = 400, seed: int = 20) -> list[pd.DataFrame]:
    rng = np.random.default_rng(seed)
    frames = []
    for _ in range(count):
        rows, width = int(rng.integers(0, 8)), int(rng.integers(0, 4))
        names = [_text(rng) if rng.random() < 0.3 else f"c{i}" for i in range(width)]
        columns = {name: _column(rng, rows) for name in dict.fromkeys(names)}
        frames.append(pd.DataFrame(columns) if columns else pd.DataFrame(index=range(rows)))
    return frames


FRAMES = hostile_frames()


@pytest.mark.parametrize("float_format", [None, "%.6f"])
def test_the_text_is_what_pandas_writes(float_format: str | None) -> None:
    options = {} if float_format is None else {"float_format": float_format}
    for number, frame in enumerate(FRAMES):
        assert csv_text(frame, **options) == pandas_csv(frame, **options), (number, frame.dtypes)


@pytest.mark.parametrize(
    "values",
    [
        ["a\rb", "line\nbreak", "crlf\r\n", 'a "quote"', "comma, here", "tab\there", "😀"],
        ["", None, "x"],  # one column: an empty cell is written ""
        [None, None],
    ],
)
def test_hostile_texts_are_written_as_pandas_writes_them_and_read_back(values: list) -> None:
    frame = pd.DataFrame({"text": pd.Series(values, dtype=object)})
    text = csv_text(frame)
    assert text == pandas_csv(frame)
    back = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    assert back["text"].tolist() == ["" if v is None else v for v in values]


def test_a_bare_carriage_return_is_quoted() -> None:
    assert csv_text(pd.DataFrame({"a": ["x\ry"], "b": [1]})) == 'a,b\n"x\ry",1\n'


def test_files_hold_the_same_bytes_as_the_text(tmp_path) -> None:
    for number, frame in enumerate(FRAMES[:100]):
        path = write_table(frame, tmp_path / f"{number}.csv")
        assert path.read_bytes() == pandas_csv(frame).encode("utf-8"), number


def _pieces(table: pa.Table, size: int) -> list[pa.Table]:
    return [table.slice(start, size) for start in range(0, table.num_rows, size)] or [table]


@pytest.mark.parametrize("size", [1, 7, None])
def test_the_bytes_do_not_depend_on_the_chunk_size(tmp_path, size: int | None) -> None:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "text": [_text(rng) for _ in range(50)],
            "label": rng.integers(0, 3, 50),
            "score": rng.choice(FLOATS, 50),
            "kept": rng.random(50) < 0.5,
            "note": pd.Series([_maybe(rng, _text(rng)) for _ in range(50)], dtype=object),
        }
    )
    table = csv_table(frame)
    writer = TableWriter(tmp_path / "pieces.csv", float_format="%.6f")
    for piece in _pieces(table, size or table.num_rows):
        writer.write(piece)
    digest = writer.close()
    written = (tmp_path / "pieces.csv").read_bytes()
    assert written == pandas_csv(frame, float_format="%.6f").encode("utf-8")
    assert digest == hashlib.sha256(written).hexdigest()


def test_one_column_of_empty_texts_written_in_pieces(tmp_path) -> None:
    frame = pd.DataFrame({"text": ["", "a", ""]})
    writer = TableWriter(tmp_path / "one.csv")
    for piece in _pieces(csv_table(frame), 1):
        writer.write(piece)
    writer.close()
    assert (
        (tmp_path / "one.csv").read_text(encoding="utf-8")
        == pandas_csv(frame)
        == 'text\n""\na\n""\n'
    )


def test_float_format_is_refused_for_other_formats(tmp_path) -> None:
    with pytest.raises(ConfigError, match="'float_format' parameter applies to CSV files only"):
        TableWriter(tmp_path / "a.jsonl", "jsonl", float_format="%.2f")


# What a spreadsheet may run (OWASP), numbers in text, and quotes already in front.
FORMULA_PIECES = ["=", "+", "-", "@", "\t", "\r", "'", "''", "1", "0.5", "e3", "=1+2", "-1", ","]
PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _formula_text(rng: np.random.Generator) -> str:
    return "".join(rng.choice(FORMULA_PIECES + PIECES, size=rng.integers(0, 5)))


def test_files_for_people_run_nothing_and_give_back_every_value(tmp_path) -> None:
    rng = np.random.default_rng(21)
    texts = [_formula_text(rng) for _ in range(3000)] + ["-0.25", "+3", "1e-5", "-1+2", "'=x"]
    numbers = rng.choice(FLOATS, len(texts))
    frame = pd.DataFrame({"=text": texts, "score": numbers, "n": rng.integers(-9, 9, len(texts))})
    written = write_table(frame, tmp_path / "people.csv", for_people=True).read_bytes().decode()
    assert written == csv_text(frame, for_people=True)
    rows = list(csv.reader(io.StringIO(written, newline="")))
    assert rows[0] == ["'=text", "score", "n"]
    for row, text in zip(rows[1:], texts, strict=True):
        runnable = row[0].startswith(("=", "+", "-", "@", "\t", "\r"))
        assert not runnable or PLAIN_NUMBER.fullmatch(row[0]), row[0]
        assert row[0] == text or row[0] == "'" + text
    # text cells are quoted, numbers are not (a negative float is not touched)
    lines = written.split("\n")
    assert lines[0] == '"\'=text","score","n"'
    assert lines[-2] == f"\"''=x\",{numbers[-1]!s},{frame['n'].iloc[-1]}".replace("nan", "")
    back = from_people_csv(
        pd.read_csv(tmp_path / "people.csv", dtype={"=text": str}, keep_default_na=False)
    )
    assert back.columns.tolist() == ["=text", "score", "n"]
    assert back["=text"].tolist() == texts and back["n"].tolist() == frame["n"].tolist()
    assert (
        csv_text(frame[["score", "n"]], for_people=True)
        == '"score","n"\n' + pandas_csv(frame[["score", "n"]]).split("\n", 1)[1]
    )


def test_people_cells_are_the_owasp_rule_with_plain_numbers_kept() -> None:
    cases = {
        "=1+2": "'=1+2", "+1+2": "'+1+2", "-1+2": "'-1+2", "@SUM(A1)": "'@SUM(A1)",
        "\tx": "'\tx", "\rx": "'\rx", "-0.25": "-0.25", "+3": "+3", "1e5": "1e5", "-inf": "'-inf",
        "'=x": "''=x", "'x": "'x", "x=1": "x=1", "-1\n": "'-1\n", "": "",
    }  # fmt: skip
    assert {text: people_cell(text) for text in cases} == cases
    frame = pd.DataFrame({"text": list(cases)})
    written = csv_text(frame, for_people=True)
    assert [row[0] for row in csv.reader(io.StringIO(written, newline=""))][1:] == list(
        cases.values()
    )


def test_model_inputs_keep_formulas_byte_exact(tmp_path) -> None:
    frame = pd.DataFrame({"text": ['=HYPERLINK("http://evil")', "-1+2", "@x"], "label": [0, 1, 0]})
    written = write_table(frame, tmp_path / "train.csv").read_bytes()
    assert written == pandas_csv(frame).encode("utf-8")
    assert b"'" not in written
