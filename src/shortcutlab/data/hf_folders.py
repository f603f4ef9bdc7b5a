"""Hugging Face dataset folders beyond ``save_to_disk``: a dataset *repository layout* (a card
``README.md`` and ``data/*.parquet``, as on the Hub), and ``ClassLabel`` columns read as names.

A repository's splits are named by their files: ``data/train.parquet`` or the Hub's shards
``data/train-00000-of-00002.parquet``, ``data/train-00001-of-00002.parquet`` (read in order).
A ``ClassLabel`` column holds indices; shortcutlab reads its label names instead, so a benchmark
exported with ``shortcutlab export --to hf`` reads back with the labels it was built with.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow as pa

from shortcutlab.errors import DataError, listed

DATA = "data"
_SPLIT_FILE = re.compile(r"^(?P<split>\w+?)(?:-\d{5}-of-\d{5})?$")


def is_repository_layout(path: Path) -> bool:
    """Whether ``path`` is a folder with Parquet files under ``data/``."""
    return (path / DATA).is_dir() and any((path / DATA).glob("*.parquet"))


def repository_splits(path: Path) -> dict[str, list[Path]]:
    """Split name -> its Parquet files in shard order, from the names of ``path/data/*.parquet``.

    Examples:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> (root / "data").mkdir()
        >>> for name in ("anti_test-00000-of-00001", "train", "test"):
        ...     _ = (root / "data" / f"{name}.parquet").write_bytes(b"")
        >>> list(repository_splits(root))
        ['anti_test', 'test', 'train']
    """
    splits: dict[str, list[Path]] = {}
    for file in sorted((path / DATA).glob("*.parquet")):
        match = _SPLIT_FILE.match(file.name[: -len(".parquet")])
        if match is None:
            raise DataError(
                f"'{file}' does not name a split (expected data/SPLIT.parquet or "
                "data/SPLIT-00000-of-00001.parquet). Rename it."
            )
        splits.setdefault(match["split"], []).append(file)
    return splits


def chosen_split(path: Path, names: Sequence[str], split: str | None, role: str) -> str:
    """The split to read: ``split`` when given, else the one named like the table's ``role``."""
    chosen = split or (role if role in names else None)
    if chosen is None and len(names) == 1:
        chosen = names[0]  # a repository with one split (most Hub repositories: train only)
    if chosen not in names:
        missing = f"split {chosen!r} does not exist" if chosen else "no split was chosen"
        raise DataError(
            f"'{path}' holds the splits {listed(names)}; {missing}. Pick one with '{path}::SPLIT'."
        )
    return chosen


def read_repository(path: Path, *, split: str | None, role: str) -> tuple[pa.Table, str]:
    """One split of a repository layout (``PATH::SPLIT`` picks it) and the sha256 of its files."""
    import pyarrow.parquet as pq

    splits = repository_splits(path)
    files = splits[chosen_split(path, list(splits), split, role)]
    digest = hashlib.sha256()
    tables = []
    for file in files:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
        try:
            tables.append(pq.read_table(file))
        except (pa.ArrowException, OSError) as exc:
            reason = " ".join(str(exc).split())[:200]
            raise DataError(f"'{file}' is not a readable Parquet file ({reason}).") from exc
    try:
        table = pa.concat_tables(tables)
    except pa.ArrowInvalid as exc:
        raise DataError(f"The shards of split {files[0]} have different columns ({exc}).") from exc
    return decode_class_labels(table, class_label_names(tables[0].schema)), digest.hexdigest()


def damaged_folder(folder: Path, error: Exception) -> DataError:
    """The refusal of a ``save_to_disk`` folder that ``datasets`` could not read (``error``): it
    names the first damaged file (JSON that does not parse, an Arrow file cut short or with
    overwritten bytes), else the folder with ``error``'s reason."""
    for file in sorted(f for f in folder.rglob("*") if f.suffix in (".json", ".arrow")):
        problem = _damage(file)
        if problem is not None:
            return DataError(
                f"'{file}' is damaged ({problem}), so the Hugging Face dataset folder '{folder}' "
                "cannot be read. Save the dataset again (save_to_disk), or restore the folder."
            )
    reason = " ".join(str(error).split())[:160] or type(error).__name__
    return DataError(
        f"The Hugging Face dataset folder '{folder}' is damaged ({reason}). Save the dataset "
        "again (save_to_disk), or restore the folder."
    )


def _damage(file: Path) -> str | None:
    """What is wrong with one file of a ``save_to_disk`` folder, or None when it reads whole."""
    try:
        if file.suffix == ".json":
            json.loads(file.read_bytes())
        else:  # the Arrow IPC stream datasets writes; full validation checks the UTF-8 of texts
            with pa.memory_map(str(file)) as source:
                pa.ipc.open_stream(source).read_all().validate(full=True)
    except (OSError, ValueError, pa.ArrowException) as exc:
        return " ".join(str(exc).split())[:160] or type(exc).__name__
    return None


def class_label_names(schema: pa.Schema) -> dict[str, list[str]]:
    """``ClassLabel`` columns -> their names, from the features ``datasets`` stores in a file's
    schema metadata (``huggingface``); empty for a file ``datasets`` did not write."""
    raw = (schema.metadata or {}).get(b"huggingface")
    try:
        features = json.loads(raw)["info"]["features"] if raw else {}
    except (ValueError, KeyError, TypeError):
        return {}
    return {
        column: list(feature["names"])
        for column, feature in features.items()
        if isinstance(feature, dict) and feature.get("_type") == "ClassLabel"
    }


def decode_class_labels(table: pa.Table, names: Mapping[str, list[str]]) -> pa.Table:
    """``table`` with each ``ClassLabel`` column's indices replaced by their names (-1: missing)."""
    for column, labels in names.items():
        if column not in table.column_names:
            continue
        # None or NaN (pandas turns an integer column with gaps into floats): missing.
        indices = [
            None if i is None or i != i else int(i) for i in table.column(column).to_pylist()
        ]
        if any(i is not None and not -1 <= i < len(labels) for i in indices):
            raise DataError(
                f"The ClassLabel column '{column}' holds an index outside its {len(labels)} names."
            )
        decoded = pa.array(
            [None if i is None or i < 0 else labels[i] for i in indices], pa.string()
        )
        table = table.set_column(table.column_names.index(column), column, decoded)
    return table
