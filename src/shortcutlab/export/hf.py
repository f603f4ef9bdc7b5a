"""Export a benchmark as a Hugging Face dataset: one folder that both ``datasets.load_from_disk``
and ``load_dataset("parquet", data_files=...)`` read.

The folder holds the ``save_to_disk`` files (``dataset_dict.json`` and one folder per split) and
the Hub's repository layout next to them (``README.md``, the dataset card, and
``data/SPLIT-00000-of-00001.parquet``). ``label`` is a ``ClassLabel`` named after the benchmark's
labels; ``cue_spans`` is a list of ``[start, end)`` character offsets; ``row_id`` an integer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.export.card import card_text
from shortcutlab.export.source import BenchmarkFolder

if TYPE_CHECKING:
    import datasets

LABEL, CUE_SPANS = "label", "cue_spans"
DATA = "data"
CARD = "README.md"


def split_name(name: str) -> str:
    """A split name ``datasets`` accepts (``\\w+``): a Suite set's ``-`` becomes ``_``.

    Examples:
        >>> split_name("lexical-overlap"), split_name("anti_test")
        ('lexical_overlap', 'anti_test')
    """
    return re.sub(r"\W", "_", name)


def parquet_name(split: str) -> str:
    """The Hub's file name for a split held in one Parquet shard."""
    return f"{DATA}/{split}-00000-of-00001.parquet"


def write_hf(benchmark: BenchmarkFolder, folder: Path, *, license: str) -> None:
    """Write ``benchmark`` into the empty ``folder``: save_to_disk files, data/*.parquet, card."""
    from datasets import utils as progress

    dataset = to_dataset_dict(benchmark)
    quiet = progress.are_progress_bars_disabled()
    progress.disable_progress_bars()  # the command prints its own one-line summary
    try:
        dataset.save_to_disk(str(folder))
        (folder / DATA).mkdir()
        for split, part in dataset.items():
            part.to_parquet(str(folder / parquet_name(split)))
    finally:
        if not quiet:
            progress.enable_progress_bars()
    kinds = {repr(part.features) for part in dataset.values()}
    first = next(iter(dataset.values()))
    card = card_text(
        manifest=benchmark.manifest,
        # One features list per config: Suite sets with their own columns list none.
        features_yaml=first.features._to_yaml_list() if len(kinds) == 1 else None,
        split_rows={split: part.num_rows for split, part in dataset.items()},
        split_names={name: split_name(name) for name in benchmark.splits},
        license=license,
        data_files={split: parquet_name(split) for split in dataset},
    )
    (folder / CARD).write_text(card, encoding="utf-8")


def to_dataset_dict(benchmark: BenchmarkFolder) -> datasets.DatasetDict:
    """Every split as a typed ``datasets.Dataset`` (label names from the benchmark's order)."""
    datasets = _datasets()
    names = [str(value) for value in benchmark.labels.values]
    parts = {}
    for name, frame in benchmark.splits.items():
        typed = frame.copy()
        typed[LABEL] = benchmark.labels.ranks(frame[LABEL], where=f"The {name} split")
        if CUE_SPANS in typed:
            typed[CUE_SPANS] = [_spans(value) for value in typed[CUE_SPANS]]
        features = {column: _feature(typed[column], column, names) for column in typed.columns}
        for column, feature in features.items():
            if feature == datasets.Value("string"):
                typed[column] = [None if pd.isna(v) else str(v) for v in typed[column]]
        parts[split_name(name)] = datasets.Dataset.from_pandas(
            typed, features=datasets.Features(features), preserve_index=False
        )
    return datasets.DatasetDict(parts)


def _feature(values: pd.Series, column: str, label_names: list[str]) -> Any:
    datasets = _datasets()
    if column == LABEL:
        return datasets.ClassLabel(names=label_names)
    if column == CUE_SPANS:
        return datasets.Sequence(datasets.Sequence(datasets.Value("int64")))
    if pd.api.types.is_bool_dtype(values):
        return datasets.Value("bool")
    if pd.api.types.is_integer_dtype(values):
        return datasets.Value("int64")
    if pd.api.types.is_float_dtype(values):
        return datasets.Value("float64")
    return datasets.Value("string")


def _spans(value: Any) -> list[list[int]]:
    """A ``cue_spans`` cell (JSON text in CSV files, a list in Parquet/JSONL) as a list of pairs."""
    try:
        if isinstance(value, str):
            value = json.loads(value) if value.strip() else []
        if value is None or (isinstance(value, float) and pd.isna(value)):
            return []
        return [[int(start), int(end)] for start, end in value]
    except (ValueError, TypeError) as exc:
        raise DataError(
            f"A cue_spans cell is not a list of [start, end] pairs ({str(value)[:60]!r}); "
            "rebuild the benchmark."
        ) from exc


def _datasets() -> Any:
    try:
        import datasets
    except ImportError as exc:
        raise ConfigError(
            "Exporting to Hugging Face datasets needs the 'datasets' package. Install it with: "
            "pip install 'shortcutlab[hf]'."
        ) from exc
    return datasets
