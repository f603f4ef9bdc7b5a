"""Parts of a grid's file dataset entry: its default name, a split of its train file by group,
its column names and its label list.

A name labels the dataset in every table and becomes part of folder names, so it must be a safe
name (:mod:`shortcutlab.names`). The default is the train file's stem (``reviews`` for
``data/reviews.csv``) without a split word after a ``-``, ``_`` or ``.`` (``yelp`` for
``yelp_train.csv``), except where the stem only names a split (``train.csv``, ``dev.tsv``) or
the file sits in a benchmark folder (one holding ``manifest.json``, as ``build`` writes): then the
folder's own name (``mnli`` for ``mnli/train.tsv``). A saved Hugging Face dataset folder is named
by itself. Characters a safe name cannot hold become ``-``.

``split_by: COLUMN`` (with ``test_size``, the test share, default 0.3) stands for a ``test`` file:
the train file is split so that every value of the column is on one side
(:func:`~shortcutlab.data.group_split.split_by_group`, seed 0 for every seed of the grid).

Examples:
    >>> default_dataset_name("data/reviews.csv")
    'reviews'
    >>> default_dataset_name("data/yelp_train.csv")
    'yelp'
    >>> default_dataset_name("mnli/train.tsv.gz")
    'mnli'
    >>> default_dataset_name("hf/my dataset::train")
    'my-dataset'
    >>> default_dataset_name("train.csv")
    'data'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.names import MAX_NAME, check_name, spec_name
from shortcutlab.params import (
    as_list,
    is_finite_number,
    non_empty_string,
    refuse,
    spec_key,
    unique,
)

#: Stems that name a split rather than the data (the folder names the data then).
SPLIT_STEMS = frozenset(
    {"train", "training", "dev", "valid", "validation", "val", "test", "testing", "data", "all"}
)
#: The test share of a dataset split by group when its entry gives no ``test_size``.
DEFAULT_TEST_SHARE = 0.3
#: A benchmark folder's record: such a folder is named as a whole.
MANIFEST = "manifest.json"
#: The name when neither the file nor its folder gives one (a file at the spec's root).
FALLBACK = "data"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SPLIT_SUFFIX = re.compile(
    rf"(.+?)[-_. ](?:{'|'.join(sorted(SPLIT_STEMS - {'data', 'all'}))})", re.IGNORECASE
)


def default_dataset_name(train: str, base: Path | None = None) -> str:
    """The default name of a dataset whose train data is ``train`` (as written in the spec;
    ``base`` is the spec's folder, where a relative path's folder is looked for a manifest)."""
    path = Path(train.partition("::")[0])
    located = path if base is None or path.is_absolute() else base / path
    if located.is_dir():
        return safe_name(path.name)
    stem = path.name.split(".")[0]
    if stem.lower() in SPLIT_STEMS or (located.parent / MANIFEST).is_file():
        return safe_name(path.parent.name)
    named = _SPLIT_SUFFIX.fullmatch(stem)  # yelp_train.csv names the data yelp
    return safe_name(named.group(1) if named else stem)


def safe_name(text: str) -> str:
    """``text`` made a safe name: unsafe characters become ``-`` (``data`` when nothing is left)."""
    name = _UNSAFE.sub("-", text).lstrip(".-")[:MAX_NAME] or FALLBACK
    return check_name(name, "The dataset name")


def column_name(value: Any, where: str) -> str:
    """A column name: text (a number such as 0 names a headerless file's column)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return non_empty_string(value, where)


def file_dataset_name(entry: Mapping[str, Any], where: str, base: Path) -> str:
    """The entry's ``name``, or else the train file's stem (its folder's name where the stem only
    names a split: :func:`default_dataset_name`)."""
    if "name" in entry:
        return spec_name(entry["name"], f"{where}: name")
    return default_dataset_name(str(entry["train"]), base)


def group_split(entry: Mapping[str, Any], where: str) -> tuple[str | None, float | None]:
    """The entry's ``split_by`` column and ``test_size`` share (a split of its train file)."""
    if "split_by" not in entry:
        if "test_size" in entry:
            raise ConfigError(
                f"{where}: test_size is the test share of a split by group; give split_by: COLUMN "
                "with it, or drop it."
            )
        return None, None
    if "test" in entry:
        raise ConfigError(
            f"{where} has both 'test' and 'split_by'. Give a test file, or split_by: COLUMN to "
            "split the train file by group, not both."
        )
    column = column_name(entry["split_by"], f"{where}: split_by")
    size = entry.get("test_size", DEFAULT_TEST_SHARE)
    if isinstance(size, bool) or not (is_finite_number(size) and 0 < size < 1):
        raise refuse(spec_key(f"{where}: test_size"), "a share of the rows in (0, 1)", size)
    return column, size


def dataset_labels(value: Any, where: str) -> tuple[Any, ...] | None:
    """A dataset's ``labels``: absent, or a list of distinct names or numbers."""
    if value is None or value == []:
        return None
    labels = as_list(value, where)
    for label in labels:
        if not isinstance(label, str | int | float):
            raise refuse(spec_key(where), "a list of label names or numbers", value)
    unique(labels, where, "label")
    return tuple(labels)
