"""Read a table in any supported format into an Arrow table, with the sha256 of what was read.

Arrow keeps text compactly (one buffer per column instead of a Python object per cell), which is
what lets a million-row build stay within a small multiple of its input size. Delimited files take
Arrow's multi-threaded reader; whatever it refuses (invalid bytes, ragged rows, dialect quirks)
goes through the slower pandas path, which either reads the file the way earlier versions did or
raises the precise one-line error (byte offset and line of a bad byte, the row pandas rejects).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa

from shortcutlab.data.encodings import check_first_line, codec_name, decode_bytes
from shortcutlab.data.gzipped import gunzipped
from shortcutlab.data.hf_folders import (
    chosen_split,
    damaged_folder,
    decode_class_labels,
    is_repository_layout,
    read_repository,
)
from shortcutlab.data.streaming import DelimitedFile
from shortcutlab.errors import ConfigError, DataError, InputFileError, listed, one_line

FILE_FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
#: Field metadata of a column whose values mixed JSON objects or lists with plain values.
OBJECTS = {b"shortcutlab": b"objects"}
SUPPORTED = (
    "CSV (.csv), TSV (.tsv), JSONL (.jsonl), Parquet (.parquet) or a Hugging Face dataset folder "
    "(save_to_disk, or a repository with data/*.parquet)"
)


def detect_format(path: Path) -> str:
    if path.is_dir():
        if _saved_to_disk(path) or is_repository_layout(path):
            return "hf"
        raise InputFileError(
            f"'{path}' is a folder but not a saved Hugging Face dataset or dataset "
            f"repository (no dataset_dict.json, "
            f"state.json or data/*.parquet). Pass a file: {SUPPORTED}."
        )
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    fmt = FILE_FORMATS.get(suffixes[-1] if suffixes else "")
    if fmt is None:
        raise InputFileError(
            f"Cannot read '{path}': unsupported format '{''.join(path.suffixes) or '(none)'}'. "
            f"Use {SUPPORTED}."
        )
    return fmt


def read_file(path: Path, fmt: str, *, encoding: str) -> tuple[pa.Table, str]:
    """The file's rows (delimited files: every column as text) and the sha256 of its bytes."""
    gzipped = path.suffix.lower() == ".gz"
    if fmt in ("csv", "tsv") and not gzipped:
        # Arrow reads the file in blocks while a thread hashes it (hashlib releases the GIL):
        # the whole file is never held as one bytes object next to its table.
        with ThreadPoolExecutor(max_workers=1) as pool:
            digest = pool.submit(sha256_file, path)
            head = _head(path)
            if not head.strip() and path.stat().st_size <= len(head):
                raise InputFileError(
                    f"'{path}' is empty. Provide a file with a header and at least one row."
                )
            check_first_line(head, encoding=encoding, path=path)
            sep = "\t" if fmt == "tsv" else ","
            table = _read_delimited_arrow(str(path), head, sep=sep, encoding=encoding)
            if table is not None:
                return table, digest.result()
    if gzipped:  # the digest is of the file's own (compressed) bytes
        digest_text, raw = sha256_file(path), gunzipped(path)
    else:
        raw = path.read_bytes()
        digest_text = hashlib.sha256(raw).hexdigest()
    if not raw.strip():
        raise InputFileError(
            f"'{path}' is empty. Provide a file with a header and at least one row."
        )
    if fmt == "parquet":
        return _read_parquet(raw, path), digest_text
    check_first_line(raw[: 1 << 16], encoding=encoding, path=path)
    if fmt == "jsonl":
        return _read_jsonl(decode_bytes(raw, encoding=encoding, path=path), path), digest_text
    sep = "\t" if fmt == "tsv" else ","
    table = _read_delimited_arrow(pa.py_buffer(raw), raw[: 1 << 16], sep=sep, encoding=encoding)
    if table is None:
        table = _read_delimited_pandas(raw, path, sep=sep, encoding=encoding)
    return table, digest_text


def delimited_file(path: Path, fmt: str, *, encoding: str) -> DelimitedFile | None:
    """How Arrow can stream a plain (not gzipped) CSV/TSV file, or None where it cannot."""
    if fmt not in ("csv", "tsv") or path.suffix.lower() == ".gz":
        return None
    sep = "\t" if fmt == "tsv" else ","
    head = _head(path)
    check_first_line(head, encoding=encoding, path=path)
    names = _header(head, sep=sep, encoding=encoding)
    if not names or len(set(names)) != len(names) or "" in names:
        return None
    codec = codec_name(encoding)
    return DelimitedFile(path, tuple(names), sep, "utf8" if codec == "utf-8-sig" else codec)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _head(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(1 << 16)


def _header(head: bytes, *, sep: str, encoding: str) -> list[str] | None:
    """The column names of a delimited file, read from its first record."""
    try:
        text = head.decode(codec_name(encoding), errors="ignore")
        return next(csv.reader(io.StringIO(text), delimiter=sep))
    except (LookupError, StopIteration, csv.Error):
        return None


def _read_delimited_arrow(
    source: str | pa.Buffer, head: bytes, *, sep: str, encoding: str
) -> pa.Table | None:
    """Every column as text with Arrow's reader, or None where it disagrees with pandas' reading."""
    import pyarrow.csv as pacsv

    names = _header(head, sep=sep, encoding=encoding)
    if not names or len(set(names)) != len(names) or "" in names:
        return None  # pandas renames duplicate or blank column names; let it
    codec = codec_name(encoding)
    try:
        table = pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(encoding="utf8" if codec == "utf-8-sig" else codec),
            parse_options=pacsv.ParseOptions(delimiter=sep, newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types={name: pa.string() for name in names},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
        # Arrow keeps a header's invalid bytes in the names; pandas' strict decoding refuses them.
        return table if table.column_names == names else None
    except (pa.ArrowException, LookupError, UnicodeError, ValueError):
        return None


def _read_delimited_pandas(raw: bytes, path: Path, *, sep: str, encoding: str) -> pa.Table:
    import pandas as pd

    text = decode_bytes(raw, encoding=encoding, path=path)
    check_unique_columns(_header(raw[: 1 << 16], sep=sep, encoding=encoding) or [], path)
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=sep, dtype=str, keep_default_na=False, na_filter=False
        )
    except pd.errors.EmptyDataError as exc:
        raise InputFileError(
            f"'{path}' is empty. Provide a file with a header and at least one row."
        ) from exc
    except pd.errors.ParserError as exc:
        raise DataError(
            f"'{path}' is not a well-formed {'TSV' if sep == chr(9) else 'CSV'} file: "
            f"{one_line(str(exc))}"
        ) from exc
    _check_last_row(text, path, sep=sep, columns=frame.shape[1])
    return table_from_frame(frame.astype(object))


def check_unique_columns(names: Sequence[str], path: Path | str) -> None:
    """Refuse a file with two columns of one name (pandas would rename the second ``x.1``, JSON
    keep the last, and the text or label read could be the wrong one)."""
    repeated = sorted({str(name) for name in names if list(names).count(name) > 1})
    if repeated:
        raise DataError(
            f"'{path}' has more than one column named {listed(repeated, show=repr)}; one "
            f"would be read in place of the other. Give every column its own name."
        )


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs, refusing a key given twice (json.loads would keep the last)."""
    record = dict(pairs)
    if len(record) < len(pairs):
        raise _RepeatedKey(sorted({k for k, _ in pairs if sum(k == j for j, _ in pairs) > 1}))
    return record


def _may_repeat_keys(line: str, record: Any) -> bool:
    """Whether a key of ``record`` is written more than once in ``line`` (a quoted key followed
    by more quotes of it can only be another key: quotes inside JSON strings are escaped)."""
    return isinstance(record, dict) and any(line.count(_quoted(key)) > 1 for key in record)


@functools.lru_cache(maxsize=4096)  # the lines of a file share their keys
def _quoted(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


class _RepeatedKey(ValueError):
    def __init__(self, keys: list[str]) -> None:
        super().__init__(keys)
        self.keys = keys


def _check_last_row(text: str, path: Path, *, sep: str, columns: int) -> None:
    """Refuse a file cut off in its last row: pandas fills the missing fields with empty values,
    so a truncated file would be read as one with an empty label (or text) at the end."""
    if text.endswith(("\n", "\r")) or "\n" not in text:
        return
    last = next(csv.reader([text[text.rindex("\n") + 1 :]], delimiter=sep), [])
    if len(last) < columns:
        raise DataError(
            f"'{path}' ends in the middle of a row (its last line has {len(last)} of {columns} "
            "fields and no line break): the file looks truncated. Restore it, or rebuild it."
        )


def _read_jsonl(text: str, path: Path) -> pa.Table:
    import pandas as pd

    records: list[Mapping[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if _may_repeat_keys(line, record):  # parsed again, slowly, only then
                json.loads(line, object_pairs_hook=_unique_keys)
        except _RepeatedKey as exc:
            raise DataError(
                f"'{path}' line {number} gives the key {listed(exc.keys, show=repr)} more than "
                f"once; one value would be read in place of the other. Give every key once."
            ) from exc
        except json.JSONDecodeError as exc:
            raise DataError(
                f"'{path}' line {number} is not valid JSON ({exc.msg}). Each line must be one JSON object."
            ) from exc
        if not isinstance(record, dict):
            raise DataError(
                f"'{path}' line {number} is a JSON {type(record).__name__}, not an object."
            )
        records.append(record)
    return table_from_frame(pd.DataFrame.from_records(records))


def _read_parquet(raw: bytes, path: Path) -> pa.Table:
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(pa.BufferReader(raw))
        check_unique_columns(parquet.schema_arrow.names, path)
        return parquet.read()
    except (pa.ArrowException, OSError) as exc:
        reason = " ".join(str(exc).split())  # Arrow's messages span lines; the error is one
        raise DataError(f"'{path}' is not a readable Parquet file ({reason[:200]}).") from exc


def table_from_frame(frame: Any) -> pa.Table:
    """A pandas DataFrame as an Arrow table; columns Arrow cannot type keep their values' text,
    marked :data:`OBJECTS` in their field's metadata where some values were objects or lists."""
    names = [str(name) for name in frame.columns]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise DataError(
            f"The table has more than one column named {listed(repeated, show=repr)}; a "
            f"column would be read in place of another. Give every column its own name."
        )
    fields, arrays = [], []
    for name in frame.columns:
        values = frame[name]
        metadata = None
        try:
            column = pa.array(values, from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            # Mixed types, or integers past 64 bits: keep their text.
            column = pa.array([None if v is None else str(v) for v in values])
            if any(isinstance(v, dict | list | tuple) for v in values):
                metadata = OBJECTS
        # pandas' string dtype arrives as large_string; one string type keeps files identical.
        if pa.types.is_large_string(column.type):
            column = column.cast(pa.string())
        fields.append(pa.field(str(name), column.type, metadata=metadata))
        arrays.append(column)
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields)) if arrays else pa.table({})


def frame_digest(frame: Any) -> str:
    import pandas as pd

    return hashlib.sha256(
        pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes()
    ).hexdigest()


def _saved_to_disk(path: Path) -> bool:
    return (path / "dataset_dict.json").exists() or (path / "state.json").exists()


def read_hf(path: Path, *, split: str | None, role: str) -> tuple[pa.Table, str]:
    """A folder saved with ``datasets.save_to_disk`` or a dataset repository layout (``split``
    picks one split of several); ``ClassLabel`` columns are read as their names."""
    if not _saved_to_disk(path):
        return read_repository(path, split=split, role=role)
    try:
        import datasets
    except ImportError as exc:
        raise ConfigError(
            f"Reading the Hugging Face dataset folder '{path}' needs the 'datasets' package. "
            f"Install it with: pip install 'shortcutlab[hf]'."
        ) from exc
    try:
        loaded = datasets.load_from_disk(str(path))
        if isinstance(loaded, datasets.DatasetDict):
            loaded = loaded[chosen_split(path, list(loaded.keys()), split, role)]
        loaded.data.table.validate(full=True)  # bytes overwritten inside a text: invalid UTF-8
        frame = loaded.to_pandas()
    except (OSError, ValueError, KeyError, pa.ArrowException) as exc:
        if isinstance(exc, OSError) and exc.errno is not None or isinstance(exc, DataError):
            raise  # a missing or unreadable file names itself; a wrong split is refused already
        raise damaged_folder(path, exc) from exc
    names = {
        column: list(feature.names)
        for column, feature in loaded.features.items()
        if isinstance(feature, datasets.ClassLabel)
    }
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(str(file.relative_to(path)).encode())
        digest.update(file.read_bytes())
    return decode_class_labels(table_from_frame(frame), names), digest.hexdigest()


#: The file a command's output folder keeps its figures in (``cat``, ``suite evaluate``, ``explain``).
RESULTS = "results.json"


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or None when it is missing, unreadable or not an object."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None


def results_with(path: Path, keys: Sequence[str]) -> dict[str, Any] | None:
    """``path/results.json`` when it holds every one of ``keys`` (what tells the outputs of
    ``cat``, ``suite evaluate`` and ``explain`` apart), else None."""
    found = read_json_object(Path(path) / RESULTS)
    return found if found is not None and all(key in found for key in keys) else None
