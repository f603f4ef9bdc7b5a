"""Property: the table loaders answer any file with a table or a ShortcutlabError, never another
exception, and their messages are one line.

Inputs: random bytes under every suffix, and random CSV/TSV and JSONL shapes (random headers,
quoting, encodings, NULs, ragged rows, huge fields, non-object lines), read through the public
:func:`~shortcutlab.data.load_table` with random reading options. The profile (tests/conftest.py)
fixes the seed in CI."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shortcutlab.data import gzipped, load_table
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL
from shortcutlab.errors import DataError, ShortcutlabError

SUFFIXES = [".csv", ".tsv", ".jsonl", ".json", ".parquet", ".csv.gz", ".jsonl.gz", ".txt", ""]
ENCODINGS = ["utf-8", "utf-8-sig", "latin-1", "cp1252", "utf-16", "ascii", "no-such-codec"]
COLUMNS = ["text", "label", "review", "stars", "premise", "hypothesis", "row_id", "shortcut"]
NAMES = st.sampled_from(COLUMNS) | st.text(max_size=6)
CELLS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "0", "1", "neg", "pos", "nan", "NA", "null", "True", '"', "\x00"]),
    st.sampled_from(["a\nb", "a,b", 'say "hi"', "\r", "=1+2", "\ufeff", "é"]),
    st.integers(min_value=0, max_value=300_000).map(lambda n: "x" * n),  # a huge field
    st.integers().map(str),
    st.floats().map(str),
)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "text_col": st.sampled_from(COLUMNS),
        "label_col": st.sampled_from(COLUMNS),
        "text_pair_col": st.sampled_from(COLUMNS) | st.none(),
        "encoding": st.sampled_from(ENCODINGS),
        "on_empty": st.sampled_from(["drop", "error", "keep"]),
        "stream_text": st.booleans(),
    },
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tables")  # module-scoped: hypothesis reruns a test in it


def _problem(path: Path, options: dict[str, Any]) -> str | None:
    """None when loading ``path`` returns a whole table or raises a ShortcutlabError of one line;
    else what went wrong (any other exception propagates, with its traceback)."""
    try:
        table = load_table(path, **options)
    except ShortcutlabError as error:
        message = str(error)
        return (
            f"a refusal that is not one line: {message!r}"
            if "\n" in message or "\x00" in message
            else None
        )
    if len(table.frame) != len(table):  # the table is whole: its columns are readable
        return f"a table of {len(table)} rows whose frame has {len(table.frame)}"
    return None


def _write(folder: Path, content: bytes, suffix: str) -> Path:
    path = folder / f"table{suffix}"
    path.write_bytes(gzip.compress(content, mtime=0) if suffix.endswith(".gz") else content)
    return path


@given(content=st.binary(max_size=300), suffix=st.sampled_from(SUFFIXES), options=OPTIONS)
def test_random_bytes_are_loaded_or_refused(folder, content, suffix, options):
    assert _problem(_write(folder, content, suffix), options) is None


def _delimited(header: list[str], rows: list[list[str]], sep: str, quoting: int) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=sep, quoting=quoting, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


@pytest.mark.slow
@given(
    header=st.lists(NAMES, min_size=1, max_size=4),
    rows=st.lists(st.lists(CELLS, max_size=5), max_size=6),  # ragged: any length per row
    sep=st.sampled_from([",", "\t", ";"]),
    quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC]),
    written_in=st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16"]),
    suffix=st.sampled_from([".csv", ".tsv", ".csv.gz", ".txt"]),
    options=OPTIONS,
)
def test_random_delimited_files_are_loaded_or_refused(
    folder, header, rows, sep, quoting, written_in, suffix, options
):
    text = _delimited(header, rows, sep, quoting)
    assert (
        _problem(_write(folder, text.encode(written_in, errors="replace"), suffix), options) is None
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | CELLS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=6,
)


@pytest.mark.slow
@given(
    lines=st.lists(
        st.one_of(
            st.dictionaries(NAMES, JSON_VALUES, max_size=4).map(json.dumps),
            JSON_VALUES.map(json.dumps),  # a line that is not an object
            st.sampled_from(["", "{", "}", "[1, 2]", '{"text": "a", "text": "b"}', "\x00"]),
        ),
        max_size=6,
    ),
    written_in=st.sampled_from(["utf-8", "utf-16"]),
    suffix=st.sampled_from([".jsonl", ".jsonl.gz", ".json"]),
    options=OPTIONS,
)
def test_random_jsonl_files_are_loaded_or_refused(folder, lines, written_in, suffix, options):
    content = "\n".join(lines).encode(written_in, errors="replace")
    assert _problem(_write(folder, content, suffix), options) is None


# Labels as a damaged export or a careless annotator writes them (issue 34, classes I and J).
CONTROLS = "\x00\x1b\x7f\x85"
LABEL_NAMES = st.sampled_from(["pos", "neg", "Neutral", "1", "2"])


def _label_rows(labels: list[str]) -> list[list[str]]:
    return [[f"review number {i} says little", label] for i, label in enumerate(labels)]


# A label name in one of its cases, with a character (a control, a tab, a space) put into it.
LABELS = st.builds(
    lambda name, case, char, at: getattr(name, case)()[:at] + char + getattr(name, case)()[at:],
    LABEL_NAMES,
    st.sampled_from(["lower", "upper", "title", "strip"]),
    st.sampled_from(["", "", "\t", " ", *CONTROLS]),
    st.integers(0, 8),
)


@pytest.mark.filterwarnings("ignore::shortcutlab.errors.ShortcutlabWarning")  # label order
@given(
    labels=st.lists(LABELS, min_size=1, max_size=8),
    suffix=st.sampled_from([".csv", ".jsonl", ".csv.gz"]),
)
def test_labels_are_read_as_written_or_refused_naming_the_problem(folder, labels, suffix):
    if suffix == ".jsonl":
        rows = [json.dumps({"text": text, "label": label}) for text, label in _label_rows(labels)]
        content = "\n".join(rows).encode()
    else:
        content = _delimited(["text", "label"], _label_rows(labels), ",", csv.QUOTE_ALL).encode()
    path = _write(folder, content, suffix)
    written = [label.strip() for label in labels]
    damaged = [i for i, label in enumerate(written) if any(c in CONTROLS + "\t" for c in label)]
    try:
        space = LabelSpace.infer(load_table(path).index.column(LABEL), source="f")
    except DataError as error:
        message = str(error)
        assert "\n" not in message and "\x00" not in message and len(message) < 600
        if damaged:
            assert f"row {damaged[0]}, column 'label': the label " in message, message
            assert "holds a control character" in message
        elif len({label.lower() for label in written}) < len(set(written)):
            assert "has labels that differ only in case: " in message, message
        else:
            assert "fewer than two labels" in message, message
        return
    assert not damaged
    assert sorted(map(str, space.values)) == sorted(set(written))
    assert len({str(label).lower() for label in space.values}) == len(space)


@given(
    rows=st.lists(
        st.lists(CELLS.filter(lambda c: len(c) < 1000), min_size=2, max_size=2), max_size=6
    ),
    cut=st.none() | st.integers(min_value=0, max_value=400),
    limit=st.integers(min_value=1, max_value=400),
)
def test_a_gzipped_file_reads_as_its_plain_file_or_is_refused(folder, rows, cut, limit):
    text = _delimited(["text", "label"], rows, ",", csv.QUOTE_MINIMAL).encode()
    packed = gzip.compress(text, mtime=0)
    plain_path, packed_path = folder / "plain.csv", folder / "packed.csv.gz"
    plain_path.write_bytes(text)
    packed_path.write_bytes(packed if cut is None else packed[:cut])
    with mock.patch.object(gzipped, "MAX_GUNZIPPED_BYTES", limit):
        try:
            read = load_table(packed_path)
        except ShortcutlabError as error:
            message = str(error)
            assert "\n" not in message
            if cut is not None and cut < len(packed):
                return  # cut short: refused, as not gzip or as the plain file's own problem
            if len(text) > limit:
                assert message.endswith("Decompress it (gunzip) and pass the plain file."), message
                return
            with pytest.raises(ShortcutlabError) as plain_error:
                load_table(plain_path)
            assert str(plain_error.value).replace("plain.csv", "packed.csv.gz") == message
            return
    assert cut is None or cut >= len(packed)
    assert len(text) <= limit
    assert read.table.equals(load_table(plain_path).table)
