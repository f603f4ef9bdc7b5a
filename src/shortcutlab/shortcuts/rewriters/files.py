"""The ``file`` rewriter: rewrites supplied by the user, such as the Shortcut Maze release's style files.

Options: ``rewrites = {style: {train: PATH, test: PATH}}`` (or one PATH for both splits, or a
release folder holding ``train.csv`` and ``test.csv``) and ``encoding`` (default strict UTF-8: a
file that is not valid UTF-8 is refused, naming the byte; the release's GoEmotions ``formal/``
files need latin-1, its Yelp rewrites are UTF-8). The ``original`` style needs no file. A file is CSV or TSV (optionally gzipped) with a ``text`` column and optionally ``label``,
``rewritten`` and ``row_id``, in one of two layouts:

- release layout, ``label,text,rewritten`` with ``rewritten`` a True/False flag: ``text`` holds the
  rewrite (the paper's release; an empty text or a False flag is a failed rewrite);
- paired layout, ``text`` the original and ``rewritten`` the rewrite.

Rows are matched to the data by ``row_id`` when the file has one, else by order (row k belongs to the
data row with id k, the data file's k-th row). Alignment is checked against the data's labels and,
in the paired layout, its texts (whitespace-normalised).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.compute as pc

from shortcutlab.data.columns import int_array, numpy_of, string_array
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, LoadedTable
from shortcutlab.data.reading import read_file
from shortcutlab.errors import (
    CLI,
    GRID,
    LISTED_NAMES,
    ConfigError,
    DataError,
    EncodingError,
    InputFileError,
    callers_terms,
    knob,
    listed,
)
from shortcutlab.params import check_choice, quoted
from shortcutlab.shortcuts.rewriters.base import ORIGINAL, STYLES, Rewriter

REWRITTEN = "rewritten"
ROLES = ("train", "test")
_FLAGS_TRUE, _FLAGS_FALSE = {"true", "1", "yes"}, {"false", "0", "no"}
_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t"}


@dataclass(frozen=True)
class RewriteFile:
    """One style's rewrites for one split, as read from its file."""

    path: Path
    sha256: str
    layout: str
    rewrites: list[str | None]
    originals: list[str] | None
    labels: list[str] | None
    row_ids: list[int] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "sha256": self.sha256,
            "rows": len(self.rewrites),
            "layout": self.layout,
            "aligned_by": "row_id" if self.row_ids is not None else "row order",
        }


@dataclass(frozen=True)
class _DataRows:
    row_ids: list[int]
    texts: list[str]
    labels: list[Any]
    rows_read: int


class FileRewriter(Rewriter):
    """Look rewrites up in files, one per style and split (see the module docstring)."""

    name = "file"

    def __init__(self, rewrites: Mapping[str, Any] | None = None, encoding: str = "utf-8") -> None:
        self.rewrites = rewrites
        self.encoding = encoding
        self._files: dict[Path, RewriteFile] = {}
        self._data: dict[str, _DataRows] = {}
        self._positions: dict[tuple[str, str], dict[int, int]] = {}

    def supported_styles(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*style_paths(self.rewrites), ORIGINAL]))

    def unsupported_hint(self, style: str) -> str:
        return f' Give its files with -o "rewrites={{{style}: {{train: PATH, test: PATH}}}}".'

    def attach(self, table: LoadedTable, *, role: str) -> None:
        frame = table.frame
        self._data[role] = _DataRows(
            row_ids=[int(r) for r in frame[ROW_ID].tolist()],
            texts=frame[TEXT].tolist(),
            labels=frame[LABEL].tolist(),
            rows_read=table.source.rows_read,
        )
        self._positions = {key: v for key, v in self._positions.items() if key[1] != role}

    def rewrite(
        self, texts: Sequence[str], style: str, *, role: str, row_ids: Sequence[int] | np.ndarray
    ) -> list[str | None]:
        self.check_supports(style)
        paths = style_paths(self.rewrites)
        if style not in paths:  # the original style without a file of its own
            return list(texts)
        rewrite_file = self._file(paths[style][check_role(role)])
        positions = self._aligned(rewrite_file, style, role)
        out: list[str | None] = []
        for row_id in np.asarray(row_ids).tolist():
            position = positions.get(int(row_id))
            if position is None:
                raise DataError(
                    f"The {style} rewrite file '{rewrite_file.path}' has no row for row {row_id} of "
                    f"the {role} data. Rewrite the whole data file, in order or with a row_id column."
                )
            out.append(rewrite_file.rewrites[position])
        return out

    def provenance(self, style: str, role: str) -> dict[str, Any] | None:
        paths = style_paths(self.rewrites)
        if style not in paths:
            return None
        return self._file(paths[style][check_role(role)]).to_json()

    def _file(self, path: Path) -> RewriteFile:
        if path not in self._files:
            self._files[path] = read_rewrite_file(path, encoding=self.encoding)
        return self._files[path]

    def _aligned(self, rewrite_file: RewriteFile, style: str, role: str) -> dict[int, int]:
        key = (style, role)
        if key not in self._positions:
            ids = rewrite_file.row_ids or range(len(rewrite_file.rewrites))
            positions = {row_id: i for i, row_id in enumerate(ids)}
            if role in self._data:
                _check_alignment(rewrite_file, positions, self._data[role], style, role)
            self._positions[key] = positions
        return self._positions[key]


def check_role(role: str) -> str:
    check_choice("role", role, ROLES)
    return role


def style_paths(rewrites: Mapping[str, Any] | None) -> dict[str, dict[str, Path]]:
    """Validate the ``rewrites`` option into ``{style: {"train": Path, "test": Path}}``."""
    if rewrites is None:
        return {}
    if not isinstance(rewrites, Mapping):
        raise ConfigError(
            "The 'rewrites' option must map each style to {train: PATH, test: PATH} or to one "
            f"PATH for both splits. Got {quoted(rewrites)} instead."
        )
    resolved: dict[str, dict[str, Path]] = {}
    for style, entry in rewrites.items():
        name = str(style).strip().lower()
        check_choice("rewrites", name, STYLES)
        if isinstance(entry, str | Path) and Path(entry).is_dir():
            resolved[name] = _release_folder(name, Path(entry))
            continue
        if isinstance(entry, str | Path):
            resolved[name] = {role: Path(entry) for role in ROLES}
            continue
        if not isinstance(entry, Mapping) or set(map(str, entry)) - set(ROLES):
            raise ConfigError(
                f"The 'rewrites' entry of the style {quoted(name)} must be {{train: PATH, test: PATH}} "
                f"or one PATH. Got {quoted(entry)} instead."
            )
        for role in ROLES:
            if not isinstance(entry.get(role), str | Path) or not str(entry.get(role)).strip():
                raise ConfigError(
                    f"The 'rewrites' option gives no {role} file for the style {quoted(name)}. Add "
                    f"{role}: PATH (or give one PATH for both splits)."
                )
        resolved[name] = {role: Path(entry[role]) for role in ROLES}
    return resolved


def _release_folder(style: str, folder: Path) -> dict[str, Path]:
    """The release layout: a style's folder holds ``train.csv`` and ``test.csv`` (or .tsv)."""
    found: dict[str, Path] = {}
    for role in ROLES:
        candidates = [folder / f"{role}{suffix}" for suffix in (".csv", ".tsv", ".csv.gz")]
        existing = [path for path in candidates if path.is_file()]
        if not existing:
            present = listed(sorted(p.name for p in folder.iterdir())) or "nothing"
            raise InputFileError(
                f"The {style} rewrite folder '{folder}' has no {role}.csv (it holds {present}). "
                f"A release folder holds train.csv and test.csv; or give the files themselves."
            )
        found[role] = existing[0]
    return found


def read_rewrite_file(path: Path, *, encoding: str = "utf-8") -> RewriteFile:
    """Read a CSV/TSV rewrite file and decide its layout (see the module docstring)."""
    frame, digest = _read_table(path, encoding)
    columns = [str(c) for c in frame.columns]
    if TEXT not in columns:
        raise DataError(
            f"The rewrite file '{path}' has no 'text' column (columns found: {listed(columns, limit=LISTED_NAMES)}). "
            f"Use the Shortcut Maze layout label,text,rewritten."
        )
    texts = frame[TEXT].tolist()
    flags = frame[REWRITTEN].str.strip().str.lower() if REWRITTEN in columns else None
    if flags is not None and flags.isin(_FLAGS_TRUE | _FLAGS_FALSE | {""}).all():
        layout, originals = "release", None
        rewrites = [
            None if flag in _FLAGS_FALSE else t for t, flag in zip(texts, flags, strict=True)
        ]
    elif flags is not None:
        layout, originals, rewrites = "paired", texts, frame[REWRITTEN].tolist()
    else:
        layout, originals, rewrites = "rewrites only", None, texts
    return RewriteFile(
        path=path,
        sha256=digest,
        layout=layout,
        rewrites=[t.strip() if t is not None and t.strip() else None for t in rewrites],
        originals=originals,
        labels=frame[LABEL].tolist() if LABEL in columns else None,
        row_ids=_row_ids(frame, path) if ROW_ID in columns else None,
    )


def _read_table(path: Path, encoding: str) -> tuple[pd.DataFrame, str]:
    if not path.is_file():
        raise InputFileError(
            f"The rewrite file '{path}' does not exist. Check the paths in the 'rewrites' option."
        )
    suffixes = [s.lower() for s in path.suffixes]
    compressed = bool(suffixes) and suffixes[-1] == ".gz"
    suffix = (suffixes[:-1] if compressed else suffixes)[-1:] or [""]
    if suffix[0] not in _SEPARATORS:
        raise ConfigError(
            f"The rewrite file '{path}' must be CSV or TSV (optionally .gz), like the Shortcut "
            f"Maze release. Got '{''.join(path.suffixes) or '(no suffix)'}'."
        )
    fmt = "tsv" if _SEPARATORS[suffix[0]] == "\t" else "csv"
    try:
        table, digest = read_file(path, fmt, encoding=encoding)
    except EncodingError as exc:
        where = re.search(r"byte 0x\w\w at offset \d+ \(line \d+\)", str(exc))
        # Never a silent fallback: latin-1 reads any bytes, and reads UTF-8 text as mojibake.
        raise EncodingError(
            f"The rewrite file '{path}' is not valid {encoding}: {where.group() if where else exc}. "
            "If it is latin-1 (as the Shortcut Maze release's GoEmotions formal/ files are), pass "
            f"{_latin1()}."
        ) from exc
    except (DataError, InputFileError) as exc:
        raise DataError(f"The rewrite file '{path}' is not a well-formed table: {exc}") from exc
    frame = table.to_pandas().astype(object)
    if len(frame) == 0:
        raise InputFileError(f"The rewrite file '{path}' has no rows.")
    return frame, digest


def _row_ids(frame: pd.DataFrame, path: Path) -> list[int]:
    values = pd.to_numeric(frame[ROW_ID].str.strip(), errors="coerce")
    bad = values.isna() | (values % 1 != 0)
    if bad.any() or values.duplicated().any():
        first = int(np.flatnonzero(bad | values.duplicated())[0])
        raise DataError(
            f"The 'row_id' column of the rewrite file '{path}' must hold unique integer row ids of "
            f"the data; row {first} has {quoted(frame[ROW_ID].iloc[first])}."
        )
    return values.astype("int64").tolist()


def _check_alignment(
    rewrite_file: RewriteFile, positions: dict[int, int], data: _DataRows, style: str, role: str
) -> None:
    """Raise a DataError naming the first data row that the file does not match."""
    by_order = rewrite_file.row_ids is None
    name = f"The {style} rewrite file '{rewrite_file.path}'"
    fix = "regenerate it from the same data file" + (
        ", or add a row_id column" if by_order else ", keeping the data's row ids"
    )
    first: str | None = None
    for index in _suspects(rewrite_file, positions, data):
        row_id, text, label = data.row_ids[index], data.texts[index], data.labels[index]
        position = positions.get(row_id)
        if position is None:
            first = f"row {row_id} is missing"
        else:
            first = _mismatch(rewrite_file, position, text, label, row_id)
        if first is not None:
            break
    count = len(rewrite_file.rewrites)
    if by_order and count != data.rows_read:
        first = (
            first
            or f"row {min(count, data.rows_read)} is {'extra' if count > data.rows_read else 'missing'}"
        )
        raise DataError(
            f"{name} has {count} rows but the {role} data file has {data.rows_read}; first "
            f"mismatching row: {first}. Rows must follow the data file one to one: {fix}."
        )
    if first is not None:
        rule = "Rows must be in the data file's order" if by_order else "Row ids must be the data's"
        raise DataError(f"{name} does not match the {role} data: {first}. {rule}: {fix}.")


def _suspects(rewrite_file: RewriteFile, positions: dict[int, int], data: _DataRows) -> list[int]:
    """Data rows (indices, in order) that may not match their file row: all of them, unless Arrow
    finds every label and text equal at once (the usual case), when there are none."""
    index = [positions.get(row_id) for row_id in data.row_ids]
    if any(p is None for p in index):
        return list(range(len(data.row_ids)))
    take = int_array(np.asarray(index, dtype=np.int64))
    same = np.ones(len(index), dtype=bool)
    pairs = []
    if rewrite_file.labels is not None:
        pairs.append((rewrite_file.labels, [str(v) for v in data.labels]))
    if rewrite_file.originals is not None:
        pairs.append((rewrite_file.originals, [str(t) for t in data.texts]))
    for in_file, in_data in pairs:
        # Equal as they are, for nearly every row; white space is compared row by row after.
        same &= numpy_of(pc.equal(string_array(in_file).take(take), string_array(in_data)))
    return np.flatnonzero(~same).tolist()


def _mismatch(
    rewrite_file: RewriteFile, position: int, text: str, label: Any, row_id: int
) -> str | None:
    if rewrite_file.labels is not None and not _same_label(rewrite_file.labels[position], label):
        return f"row {row_id} has label {quoted(rewrite_file.labels[position])} where the data has {quoted(label)}"
    if rewrite_file.originals is not None:
        original = rewrite_file.originals[position]
        if " ".join(original.split()) != " ".join(str(text).split()):
            return f"row {row_id} has text {quoted(_excerpt(original))} where the data has {quoted(_excerpt(text))}"
    return None


def _same_label(file_label: str, data_label: Any) -> bool:
    try:
        return float(file_label) == float(data_label)
    except (TypeError, ValueError):
        return str(file_label).strip() == str(data_label).strip()


def _excerpt(text: str, width: int = 40) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "\u2026"


def _latin1() -> str:
    """The rewrite file's encoding set to latin-1, as the caller sets it."""
    terms = callers_terms()
    if terms == CLI:
        return "--rewrite-encoding latin-1 (-o encoding=latin-1)"
    if terms == GRID:
        return "encoding: latin-1 in the shortcut's entry"
    return knob("shortcut_options", {"encoding": "latin-1"})
