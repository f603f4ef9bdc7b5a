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
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from shortcutlab.data.csv_text import csv_header, csv_rows, csv_table
from shortcutlab.data.partials import PARTIAL_SUFFIX, partial_prefix, remove_stale_partials
from shortcutlab.data.reading import sha256_file, table_from_frame
from shortcutlab.errors import ConfigError, OutputExistsError, ended, knob, naming_path
from shortcutlab.params import check_choice

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("csv", "jsonl", "parquet")
SUFFIX = {"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}
PARQUET_ROW_GROUP = 65_536
__all__ = ["FORMATS", "TableWriter", "sha256_file", "write_json", "write_table"]


def write_table(
    frame: pd.DataFrame | pa.Table,
    path: Path,
    fmt: str = "csv",
    *,
    float_format: str | None = None,
    for_people: bool = False,
) -> Path:
    """Write a table as CSV, JSONL or Parquet; identical tables give identical bytes.

    A DataFrame's CSV file holds what ``frame.to_csv(path, index=False, lineterminator="\\n",
    float_format=float_format)`` writes (see :mod:`shortcutlab.data.csv_text`); ``for_people``
    marks a file people open in a spreadsheet (a report, not a model input): its cells are
    neutralised against formula injection.
    """
    writer = TableWriter(path, fmt, float_format=float_format, for_people=for_people)
    if isinstance(frame, pa.Table):
        writer.write(frame)
    else:
        writer.write(csv_table(frame) if fmt == "csv" else table_from_frame(frame))
    writer.close()
    return path


class TableWriter:
    """Write a table in pieces; the bytes are the same however its rows are split into pieces.

    CSV cells are encoded by :mod:`shortcutlab.data.csv_text` (what pandas' ``to_csv`` writes;
    ``float_format`` such as ``"%.6f"`` formats float columns), JSONL holds one object per row,
    Parquet whole row groups.
    """

    def __init__(
        self,
        path: Path,
        fmt: str = "csv",
        *,
        float_format: str | None = None,
        for_people: bool = False,
    ) -> None:
        check_choice("format", fmt, FORMATS)
        if float_format is not None and fmt != "csv":
            raise ConfigError(
                f"The 'float_format' parameter applies to CSV files only. Got format {fmt!r}."
            )
        self.path, self.fmt, self.float_format = Path(path), fmt, float_format
        self.for_people = for_people
        self.rows = 0
        self._digest = hashlib.sha256()
        # Hashing runs beside the caller's work (hashlib releases the GIL); one worker keeps order.
        self._hasher = ThreadPoolExecutor(max_workers=1)
        self._hashed: Future[None] | None = None
        self._handle: Any = open(self.path, "wb") if fmt != "parquet" else None  # noqa: SIM115
        self._parquet: Any = None
        self._pending: list[pa.Table] = []
        self._header_done = False

    def write(self, table: pa.Table) -> None:
        if self.fmt == "parquet":
            self._write_parquet(table)
        elif self.fmt == "csv":
            if not self._header_done:
                self._emit(csv_header(table.column_names, for_people=self.for_people))
                self._header_done = True
            if table.num_rows:
                self._emit(
                    csv_rows(table, float_format=self.float_format, for_people=self.for_people)
                )
        else:
            lines = (
                json.dumps(r, ensure_ascii=False, default=_json_default) + "\n"
                for r in table.to_pylist()
            )
            self._emit("".join(lines).encode("utf-8"))
        self.rows += table.num_rows

    def close(self) -> str:
        """Finish the file; returns its sha256."""
        if self.fmt == "parquet":
            self._hasher.shutdown()
            self._write_parquet(None)
            return sha256_file(self.path)
        self._handle.close()
        self._hasher.shutdown(wait=True)
        if self._hashed is not None:
            self._hashed.result()
        return self._digest.hexdigest()

    def _emit(self, data: bytes) -> None:
        self._handle.write(data)
        self._hashed = self._hasher.submit(self._digest.update, data)

    def _write_parquet(self, table: pa.Table | None) -> None:
        """Buffer rows and write whole row groups, so the file does not depend on how the rows
        arrived; ``None`` flushes the rest and closes the file."""
        import pyarrow.parquet as pq

        if table is not None:
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self.path, table.schema, compression="zstd")
            self._pending.append(table)
        if self._parquet is None:
            raise ConfigError(f"No table was given to write to '{self.path}'.")
        pending = pa.concat_tables(self._pending)
        ready = (
            pending.num_rows
            if table is None
            else pending.num_rows // PARQUET_ROW_GROUP * PARQUET_ROW_GROUP
        )
        for start in range(0, ready, PARQUET_ROW_GROUP):
            self._parquet.write_table(pending.slice(start, PARQUET_ROW_GROUP))
        self._pending = [pending.slice(ready)]
        if table is None:
            self._parquet.close()


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def write_json(path: Path, payload: Any) -> Path:
    """Stable JSON: fixed indentation, keys in insertion order, a final newline."""
    text = json.dumps(payload, indent=2, ensure_ascii=False, default=_json_default, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def write_text_atomically(path: str | Path, text: str, *, option: str = "out") -> Path:
    """Write ``text`` to the file ``path`` through a temporary file beside it and one rename, so
    the file is whole or untouched; ``option`` names the setting that chose the path."""
    path = Path(path)
    check_no_file_above(path)
    if path.is_dir():
        raise OutputExistsError(
            f"'{path}' is a folder; {knob(option, run=True)} names a file. Choose a file path."
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=PARTIAL_SUFFIX, dir=path.parent
        )
    except OSError as error:
        raise OutputExistsError(
            f"Cannot write '{path}': {error.strerror}. Choose a writable "
            f"{ended(knob(option, run=True))}"
        ) from None
    try:
        with naming_path(path), os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        follow_umask(Path(temporary))  # shared like any written file, not private like mkstemp's
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def check_output_dir(out: Path, *, overwrite: bool, inputs: Iterable[str | Path] = ()) -> None:
    """Refuse a destination that is an existing file or a non-empty folder (unless overwriting),
    the working folder or one above it (a folder in use cannot be replaced), and, when
    overwriting, a folder that is or holds one of ``inputs`` (replacing it would delete them)."""
    check_folder_path(out)
    if not out.is_dir():
        return
    target = Path(os.path.realpath(out))
    if target == Path.cwd().resolve() or target in Path.cwd().resolve().parents:
        raise OutputExistsError(
            f"The output folder '{out}' is the working folder or holds it, and a folder in use "
            f"cannot be replaced. Choose a new folder, e.g. {knob('out', './results', run=True)}."
        )
    if any(out.iterdir()) and not overwrite:
        raise OutputExistsError(
            f"The output folder '{out}' exists and is not empty. Choose another "
            f"{knob('out', run=True)} or pass {knob('overwrite', True, run=True)}."
        )
    if overwrite:
        check_holds_no_input(out, inputs)


def check_folder_path(out: str | Path) -> None:
    """Refuse an output folder path that is a file, or lies below one (:func:`check_no_file_above`)."""
    if os.path.exists(out) and not os.path.isdir(out):  # a link to nothing is written through
        raise OutputExistsError(
            f"The output path '{out}' is a file. Choose a folder path with {ended(knob('out', run=True))}"
        )
    check_no_file_above(out)


def check_no_file_above(path: str | Path) -> None:
    """Refuse an output path below something that is not a folder (``--out afile/sub``): no
    folder can be made there, and ``mkdir`` would end in a bare FileExistsError."""
    for above in Path(path).parents:
        if above.is_dir():  # the nearest existing folder: the rest can be made below it
            return
        if os.path.lexists(above):  # a file, or a link to nothing
            raise OutputExistsError(
                f"The output path '{path}' lies under '{above}', which is a file, not a folder. "
                "Choose an output path outside it."
            )


def check_holds_no_input(out: Path, inputs: Iterable[str | Path]) -> None:
    """Refuse replacing ``out`` when it is, or holds, one of ``inputs`` (links followed)."""
    target = Path(os.path.realpath(out))
    for given in inputs:
        source = Path(os.path.realpath(given))
        if source == target or target in source.parents:
            raise OutputExistsError(
                f"The output folder '{out}' is or holds the input '{given}', which "
                f"{knob('overwrite', True, run=True)} would delete. Choose another {ended(knob('out', run=True))}"
            )


@contextlib.contextmanager
def atomic_output_dir(
    out: str | Path, *, overwrite: bool = False, inputs: Iterable[str | Path] = ()
) -> Iterator[Path]:
    """Yield a temporary folder that replaces ``out`` only if the block finishes without error
    (``inputs``: files the block reads, which an ``out`` to overwrite may not hold).

    Examples:
        >>> import tempfile, pathlib
        >>> root = pathlib.Path(tempfile.mkdtemp())
        >>> with atomic_output_dir(root / "result") as tmp:
        ...     _ = (tmp / "a.txt").write_text("done")
        >>> sorted(p.name for p in (root / "result").iterdir())
        ['a.txt']
    """
    out = Path(out)
    check_output_dir(out, overwrite=overwrite, inputs=inputs)
    # A linked --out is written where it points: the link stays, no renamed link is left behind.
    out = Path(os.path.realpath(out)) if out.is_symlink() else Path(os.path.abspath(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_partials(out.parent, out.name)  # left by builds of this folder that were killed
    tmp = Path(
        tempfile.mkdtemp(prefix=partial_prefix(out.name), suffix=PARTIAL_SUFFIX, dir=out.parent)
    )
    try:
        follow_umask(tmp)
        with naming_path(out):  # a full disk names the output, not a bare "No space left"
            yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    check_output_dir(out, overwrite=overwrite)  # something may have appeared meanwhile
    _replace_dir(tmp, out)


def follow_umask(path: Path) -> None:
    """Give ``path`` the mode ``mkdir`` or ``open`` would have: ``mkdtemp`` and ``mkstemp`` make
    private 0700 folders and 0600 files whatever the umask says. The umask is read from a probe
    folder, as ``os.umask`` can only be read by changing it for every thread."""
    probe = path.with_name(f"{path.name}.mode")
    probe.mkdir(mode=0o777)
    try:
        allowed = probe.stat().st_mode & 0o777
    finally:
        probe.rmdir()
    path.chmod(allowed if path.is_dir() else allowed & 0o666)


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
