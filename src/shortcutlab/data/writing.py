"""Write tables and manifests; build output folders atomically.

A command that fails leaves nothing half-written: everything goes into a hidden temporary folder
next to the destination, which is renamed into place only when complete.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.errors import ConfigError, OutputExistsError
from shortcutlab.registry import check_choice

FORMATS = ("csv", "jsonl", "parquet")
SUFFIX = {"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}


def write_table(frame: pd.DataFrame, path: Path, fmt: str = "csv") -> Path:
    """Write ``frame`` as CSV, JSONL or Parquet; identical frames give identical bytes."""
    check_choice("format", fmt, FORMATS)
    if fmt == "csv":
        frame.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")
    elif fmt == "jsonl":
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            for record in frame.to_dict(orient="records"):
                handle.write(json.dumps(record, ensure_ascii=False, default=_json_default) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, path, compression="zstd")
    return path


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def write_json(path: Path, payload: Any) -> Path:
    """Stable JSON: fixed indentation, keys in insertion order, a final newline."""
    text = json.dumps(payload, indent=2, ensure_ascii=False, default=_json_default, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_output_dir(out: Path, *, overwrite: bool) -> None:
    """Refuse a destination that is an existing file or a non-empty folder (unless overwriting)."""
    if out.exists() and not out.is_dir():
        raise OutputExistsError(
            f"The output path '{out}' is a file. Choose a folder path with --out."
        )
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise OutputExistsError(
            f"The output folder '{out}' exists and is not empty. Choose another --out or pass --overwrite."
        )


@contextlib.contextmanager
def atomic_output_dir(out: str | Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield a temporary folder that replaces ``out`` only if the block finishes without error.

    Examples:
        >>> import tempfile, pathlib
        >>> root = pathlib.Path(tempfile.mkdtemp())
        >>> with atomic_output_dir(root / "result") as tmp:
        ...     _ = (tmp / "a.txt").write_text("done")
        >>> sorted(p.name for p in (root / "result").iterdir())
        ['a.txt']
    """
    out = Path(out)
    check_output_dir(out, overwrite=overwrite)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    check_output_dir(out, overwrite=overwrite)  # something may have appeared meanwhile
    _replace_dir(tmp, out)


def _replace_dir(new: Path, out: Path) -> None:
    if not out.exists():
        os.replace(new, out)
        return
    old = out.parent / f".{out.name}.replaced-{os.getpid()}"
    os.replace(out, old)  # two renames: the destination is never a mix of old and new files
    try:
        os.replace(new, out)
    except OSError:
        os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def split_file(folder: Path, split: str, fmt: str) -> Path:
    if fmt not in SUFFIX:
        raise ConfigError(f"Unknown table format {fmt!r} in '{folder}'.")
    return folder / f"{split}{SUFFIX[fmt]}"
