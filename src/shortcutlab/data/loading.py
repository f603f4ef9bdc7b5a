"""Read labelled text tables from CSV, TSV, JSONL, Parquet, pandas or Hugging Face datasets.

Every loader returns the same table type: a DataFrame with ``row_id`` (the row's index in the
input, kept by every derived row), ``text``, optional ``text_pair``, ``label`` and any other
columns of the input, plus a :class:`TableSource` that records where it came from.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.labels import normalize_label_values
from shortcutlab.errors import ConfigError, DataError, EncodingError, InputFileError
from shortcutlab.registry import check_choice

ROW_ID, TEXT, TEXT_PAIR, LABEL, SHORTCUT = "row_id", "text", "text_pair", "label", "shortcut"
CANONICAL_COLUMNS = (ROW_ID, TEXT, TEXT_PAIR, LABEL)
ON_EMPTY = ("drop", "error", "keep")

_SUFFIX_FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
SUPPORTED = (
    "CSV (.csv), TSV (.tsv), JSONL (.jsonl), Parquet (.parquet) or a Hugging Face dataset folder"
)


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

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class LoadedTable:
    frame: pd.DataFrame
    source: TableSource


def split_source_spec(spec: str | Path) -> tuple[Path, str | None]:
    """``"data/dd::validation"`` -> (Path("data/dd"), "validation"); plain paths have no split."""
    text = str(spec)
    if "::" in text:
        path, _, split = text.rpartition("::")
        return Path(path), split or None
    return Path(text), None


def detect_format(path: Path) -> str:
    if path.is_dir():
        if (path / "dataset_dict.json").exists() or (path / "state.json").exists():
            return "hf"
        raise InputFileError(
            f"'{path}' is a folder but not a saved Hugging Face dataset (no dataset_dict.json or "
            f"state.json). Pass a file: {SUPPORTED}."
        )
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    fmt = _SUFFIX_FORMATS.get(suffixes[-1] if suffixes else "")
    if fmt is None:
        raise InputFileError(
            f"Cannot read '{path}': unsupported format '{''.join(path.suffixes) or '(none)'}'. "
            f"Use {SUPPORTED}."
        )
    return fmt


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
) -> LoadedTable:
    """Load a labelled text table and bring it to the canonical columns.

    Args:
        source: a path (CSV/TSV/JSONL/Parquet, optionally gzipped, or a folder saved with
            ``datasets.save_to_disk``; ``PATH::SPLIT`` picks a split of a DatasetDict), a
            pandas DataFrame, or a ``datasets.Dataset``.
        text_col, label_col, text_pair_col: column names in the input.
        encoding: encoding of text files.
        on_empty: ``"drop"`` rows with an empty text or label (counted in the source record),
            ``"error"``, or ``"keep"`` them (for derived tables whose rows are paired).
        split: split of a DatasetDict; defaults to ``role`` (for example ``"train"``).
        role: what the table is for, used in messages ("train", "test").
    """
    check_choice("on_empty", on_empty, ON_EMPTY)
    frame, path, fmt, digest = _read_any(source, encoding=encoding, split=split, role=role)
    name = f"'{path}'" if path is not None else f"the {role} table"
    if len(frame) == 0:
        raise InputFileError(
            f"{name} has no rows. Provide a table with a header and at least one row."
        )
    columns = [str(c) for c in frame.columns]
    for option, column in (
        ("text-col", text_col),
        ("label-col", label_col),
        ("text-pair-col", text_pair_col),
    ):
        if column is not None and column not in columns:
            raise DataError(
                f"Column '{column}' not found in {name}. Columns found: {', '.join(columns)}. "
                f"Pass the right name with --{option}."
            )
    rows_read = len(frame)
    if (
        ROW_ID in columns
        and pd.api.types.is_integer_dtype(frame[ROW_ID])
        and frame[ROW_ID].is_unique
    ):
        row_ids = frame[ROW_ID].astype("int64").to_numpy()  # a derived table keeps its ids
    else:
        row_ids = np.arange(rows_read, dtype=np.int64)
    canonical = {ROW_ID: row_ids, TEXT: frame[text_col].to_numpy(dtype=object)}
    if text_pair_col is not None:
        canonical[TEXT_PAIR] = frame[text_pair_col].to_numpy(dtype=object)
    canonical[LABEL] = frame[label_col].to_numpy(dtype=object)
    used = {text_col, label_col, text_pair_col, ROW_ID}
    extras = {
        c: frame[c].to_numpy() for c in columns if c not in used and c not in CANONICAL_COLUMNS
    }
    table = pd.DataFrame({**canonical, **extras})

    empty_text = _is_empty(table[TEXT])
    if TEXT_PAIR in table:
        empty_text |= _is_empty(table[TEXT_PAIR])
    empty_label = _is_empty(table[LABEL]) & ~empty_text
    for flag, mask in (("text", empty_text), ("label", empty_label)):
        if on_empty == "error" and mask.any():
            first = int(table.loc[mask, ROW_ID].iloc[0])
            raise DataError(
                f"{name} has {int(mask.sum())} rows with an empty {flag} (first: row {first}). "
                f"Remove them or pass --on-empty drop."
            )
    if on_empty == "keep":
        empty_text[:] = False
        empty_label[:] = False
    keep = ~(empty_text | empty_label)
    table = table.loc[keep].reset_index(drop=True)
    if len(table) == 0:
        raise DataError(f"{name} has no rows with a non-empty text and label.")
    table[TEXT] = table[TEXT].map(str).astype(object)
    if TEXT_PAIR in table:
        table[TEXT_PAIR] = table[TEXT_PAIR].map(str).astype(object)
    table[LABEL] = normalize_label_values(table[LABEL])
    return LoadedTable(
        frame=table,
        source=TableSource(
            path=str(path) if path is not None else None,
            format=fmt,
            sha256=digest,
            rows_read=rows_read,
            dropped_empty_text=int(empty_text.sum()),
            dropped_empty_label=int(empty_label.sum()),
            split=split,
        ),
    )


def _is_empty(values: pd.Series) -> pd.Series:
    return values.isna() | values.map(lambda v: isinstance(v, str) and not v.strip())


def _read_any(
    source: Any, *, encoding: str, split: str | None, role: str
) -> tuple[pd.DataFrame, Path | None, str, str]:
    if isinstance(source, pd.DataFrame):
        digest = hashlib.sha256(
            pd.util.hash_pandas_object(source, index=False).to_numpy().tobytes()
        )
        return source.reset_index(drop=True), None, "dataframe", digest.hexdigest()
    if _is_hf_dataset(source):
        frame = source.to_pandas()
        digest = hashlib.sha256(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
        return frame, None, "hf-dataset", digest.hexdigest()
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
        frame, digest = _read_hf(path, split=split, role=role)
        return frame, path, fmt, digest
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if path.suffix.lower() == ".gz":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise InputFileError(f"'{path}' is not a valid gzip file ({exc}).") from exc
    if not raw.strip():
        raise InputFileError(
            f"'{path}' is empty. Provide a file with a header and at least one row."
        )
    if fmt == "parquet":
        return _read_parquet(raw, path), path, fmt, digest
    text = decode_bytes(raw, encoding=encoding, path=path)
    if fmt == "jsonl":
        return _read_jsonl(text, path), path, fmt, digest
    return _read_delimited(text, path, sep="\t" if fmt == "tsv" else ","), path, fmt, digest


def decode_bytes(raw: bytes, *, encoding: str, path: Path) -> str:
    """Decode ``raw``; invalid bytes raise an EncodingError with the byte offset and line."""
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    try:
        return raw.decode(codec)
    except LookupError as exc:
        raise ConfigError(
            f"The 'encoding' parameter names an unknown encoding {encoding!r}. "
            f"Use a Python codec name such as utf-8, cp1252 or latin-1."
        ) from exc
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise EncodingError(
            f"'{path}' is not valid {encoding}: byte 0x{raw[exc.start]:02x} at offset {exc.start} "
            f"(line {line}). Pass --encoding with the file's real encoding, e.g. --encoding cp1252."
        ) from exc


def _read_delimited(text: str, path: Path, *, sep: str) -> pd.DataFrame:
    try:
        return pd.read_csv(
            io.StringIO(text), sep=sep, dtype=str, keep_default_na=False, na_filter=False
        )
    except pd.errors.EmptyDataError as exc:
        raise InputFileError(
            f"'{path}' is empty. Provide a file with a header and at least one row."
        ) from exc
    except pd.errors.ParserError as exc:
        raise DataError(
            f"'{path}' is not a well-formed {'TSV' if sep == chr(9) else 'CSV'} file: {exc}"
        ) from exc


def _read_jsonl(text: str, path: Path) -> pd.DataFrame:
    records: list[Mapping[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(
                f"'{path}' line {number} is not valid JSON ({exc.msg}). Each line must be one JSON object."
            ) from exc
        if not isinstance(record, dict):
            raise DataError(
                f"'{path}' line {number} is a JSON {type(record).__name__}, not an object."
            )
        records.append(record)
    return pd.DataFrame.from_records(records)


def _read_parquet(raw: bytes, path: Path) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(pa.BufferReader(raw)).to_pandas()
    except (pa.ArrowException, OSError) as exc:
        raise DataError(f"'{path}' is not a readable Parquet file ({exc}).") from exc


def _is_hf_dataset(obj: Any) -> bool:
    return type(obj).__module__.startswith("datasets.") and hasattr(obj, "to_pandas")


def _read_hf(path: Path, *, split: str | None, role: str) -> tuple[pd.DataFrame, str]:
    try:
        import datasets
    except ImportError as exc:
        raise ConfigError(
            f"Reading the Hugging Face dataset folder '{path}' needs the 'datasets' package. "
            f"Install it with: pip install 'shortcutlab[hf]'."
        ) from exc
    loaded = datasets.load_from_disk(str(path))
    if isinstance(loaded, datasets.DatasetDict):
        names = list(loaded.keys())
        chosen = split or (role if role in loaded else None)
        if chosen not in loaded:
            raise DataError(
                f"'{path}' is a DatasetDict with splits {', '.join(names)}; "
                f"{'split ' + repr(chosen) + ' does not exist' if chosen else 'no split was chosen'}. "
                f"Pick one with '{path}::SPLIT'."
            )
        loaded = loaded[chosen]
    frame = loaded.to_pandas()
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(str(file.relative_to(path)).encode())
        digest.update(file.read_bytes())
    return frame, digest.hexdigest()
