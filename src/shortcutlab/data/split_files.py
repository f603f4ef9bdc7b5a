"""Write a table's group split (:func:`~shortcutlab.data.group_split.split_by_group`) as files.

``OUT/train.<ext>`` and ``OUT/test.<ext>`` (and ``OUT/dev.<ext>``) hold the input's rows with
all of its columns, in the input's format and row order (a saved Hugging Face dataset is written
as Parquet); ``OUT/split.json`` records the input's sha256, the column, the shares, the seed and
each side's rows, groups and file sha256. The folder is written atomically.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from shortcutlab.data.columns import int_array
from shortcutlab.data.group_split import GroupSplit, check_sizes, split_by_group
from shortcutlab.data.loading import split_source_spec
from shortcutlab.data.reading import detect_format, read_file, read_hf
from shortcutlab.data.writing import atomic_output_dir, check_output_dir, write_json, write_table
from shortcutlab.errors import LISTED_NAMES, DataError, InputFileError, listed

RECORD = "split.json"
#: The format each input format is written in (a saved HF dataset folder becomes Parquet).
WRITTEN_FORMAT = {
    "csv": "csv",
    "tsv": "tsv",
    "jsonl": "jsonl",
    "parquet": "parquet",
    "hf": "parquet",
}


@dataclass(frozen=True)
class SplitFiles:
    """What :func:`write_group_split` wrote: each side's file, rows and groups."""

    source: str
    column: str
    rows: int
    groups: int
    files: dict[str, Path]
    split: GroupSplit
    record: Path


def write_group_split(
    source: str | Path,
    out: str | Path,
    *,
    by: str,
    test_size: float = 0.3,
    dev_size: float | None = None,
    seed: int = 0,
    encoding: str = "utf-8",
    overwrite: bool = False,
) -> SplitFiles:
    """Split the table at ``source`` by the column ``by`` and write each side to ``out``.

    Args:
        source: a CSV, TSV, JSONL or Parquet file (optionally gzipped), or a saved Hugging Face
            dataset folder (``PATH::SPLIT`` picks a split of a DatasetDict).
        out: the folder to write (refused when it exists and is not empty, unless ``overwrite``).
        by: the column whose values are kept on one side (e.g. ``premise``).
        test_size, dev_size, seed: see :func:`~shortcutlab.data.group_split.split_by_group`.
        encoding: the encoding of a text input file.
    """
    out = Path(out)
    check_sizes(test_size, dev_size, flags=("--test-size", "--dev-size"))
    check_output_dir(out, overwrite=overwrite, inputs=[split_source_spec(source)[0]])
    table, fmt, digest = _read_source(source, encoding=encoding)
    if by not in table.column_names:
        raise DataError(
            f"'{source}' has no column {by!r} to split by (columns: "
            f"{listed(table.column_names, limit=LISTED_NAMES)}). Pass --by with one of them."
        )
    split = split_by_group(
        table.column(by), test_size=test_size, dev_size=dev_size, seed=seed, column=f"'{by}'"
    )
    written_format = WRITTEN_FORMAT[fmt]
    suffix = f".{written_format}"
    files = {side: out / f"{side}{suffix}" for side in split.rows}
    record: dict[str, Any] = {
        "source": {"path": str(source), "format": fmt, "sha256": digest, "rows": table.num_rows},
        "by": by,
        "test_size": test_size,
        "dev_size": dev_size,
        "seed": seed,
        "sides": {},
    }
    with atomic_output_dir(out, overwrite=overwrite, inputs=[split_source_spec(source)[0]]) as tmp:
        for side, rows in split.rows.items():
            part = table.take(int_array(rows))
            sha256 = _write_side(part, tmp / files[side].name, written_format)
            record["sides"][side] = {
                "file": files[side].name,
                "rows": len(rows),
                "groups": split.groups[side],
                "sha256": sha256,
            }
        write_json(tmp / RECORD, record)
    return SplitFiles(
        source=str(source),
        column=by,
        rows=table.num_rows,
        groups=sum(split.groups.values()),
        files=files,
        split=split,
        record=out / RECORD,
    )


def _read_source(source: str | Path, *, encoding: str) -> tuple[pa.Table, str, str]:
    """The table at ``source`` with every input column, its format and its sha256."""
    path, hf_split = split_source_spec(source)
    if not path.exists():
        raise InputFileError(f"The data file '{path}' does not exist. Check the path.")
    fmt = detect_format(path)
    if fmt == "hf":
        table, digest = read_hf(path, split=hf_split, role="data")
    else:
        table, digest = read_file(path, fmt, encoding=encoding)
    return table, fmt, digest


def _write_side(table: pa.Table, path: Path, fmt: str) -> str:
    """Write one side's rows; returns the file's sha256."""
    if fmt != "tsv":
        write_table(table, path, fmt)
        return hashlib.sha256(path.read_bytes()).hexdigest()
    # The table writer has no TSV encoder: Python's csv module writes what pandas' to_csv(sep="\t")
    # does, quoting only cells that hold a tab, a quote or a line break, as the readers expect.
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
    writer.writerow(table.column_names)
    columns = [column.to_pylist() for column in table.columns]
    writer.writerows(
        ["" if value is None else value for value in row] for row in zip(*columns, strict=True)
    )
    data = buffer.getvalue().encode("utf-8")
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()
