"""Split rows so that every group (every premise, every author, ...) lands on one side only.

MultiNLI writes up to three hypotheses per premise, one per label: a split by row puts a test
premise's other labels into training, and a pair model learns them (CAT's hypothesis-only
baseline drops from 0.47 to 0.37 on dev-matched). Splitting by premise keeps them apart.

The groups, not the rows, are shuffled: the distinct values of the group column are sorted and
put in the order of a permutation drawn with the seed. In that order, a group goes to the test
side (then the dev side) when at least half of its rows still fit in that side's share of the
rows; every other group goes to training. So the split depends only on the values, their row
counts and the seed, never on the order of the rows, and a side's rows come within half a
group's rows of its share.

Examples:
    >>> split = split_by_group(["a", "a", "b", "c", "c", "d"], test_size=0.3, seed=0)
    >>> {side: rows.tolist() for side, rows in split.rows.items()}
    {'train': [0, 1, 2, 5], 'test': [3, 4]}
    >>> split.groups
    {'train': 3, 'test': 1}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from shortcutlab.data.canonical import as_text
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR, LoadedTable
from shortcutlab.errors import LISTED_NAMES, ConfigError, DataError, listed
from shortcutlab.params import is_finite_number, quoted

SIDES = ("train", "dev", "test")
#: What a missing group value is grouped as: all rows without a value form one group.
MISSING = ""


@dataclass(frozen=True)
class GroupSplit:
    """Row positions (ascending) and the number of groups of each side, in the order train, dev
    (when asked for), test."""

    rows: dict[str, np.ndarray]
    groups: dict[str, int]

    def sizes(self) -> dict[str, int]:
        return {side: len(rows) for side, rows in self.rows.items()}


def check_fraction(value: Any, name: str) -> float:
    """A side's share of the rows: a number strictly between 0 and 1."""
    if isinstance(value, bool) or not (is_finite_number(value) and 0 < value < 1):
        raise ConfigError(
            f"{name} must be a fraction of the rows strictly between 0 and 1, e.g. 0.3. Got "
            f"{quoted(value)} instead."
        )
    return float(value)


def check_sizes(test_size: Any, dev_size: Any, *, flags: tuple[str, str]) -> None:
    """Refuse shares outside (0, 1), or a test and dev share that leave no training rows."""
    check_fraction(test_size, flags[0])
    if dev_size is not None:
        check_fraction(dev_size, flags[1])
        if test_size + dev_size >= 1:
            raise ConfigError(
                f"{flags[0]} {test_size} and {flags[1]} {dev_size} add up to {test_size + dev_size:g}, "
                "which leaves no training rows. Give shares that add up to less than 1."
            )


def group_keys(values: Sequence[Any] | np.ndarray | pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The group of each row as text (numbers by their text, a missing value as ``""``)."""
    if isinstance(values, pa.Array):
        values = pa.chunked_array([values])
    if isinstance(values, pa.ChunkedArray):
        return np.asarray(as_text(values).fill_null(MISSING).to_pylist(), dtype=object)
    return np.asarray([MISSING if v is None else str(v) for v in values], dtype=object)


def split_by_group(
    groups: Sequence[Any] | np.ndarray | pa.Array | pa.ChunkedArray,
    *,
    test_size: float = 0.3,
    dev_size: float | None = None,
    seed: int = 0,
    column: str = "the group column",
) -> GroupSplit:
    """Split rows into train (and dev) and test so that no group is on two sides.

    Args:
        groups: each row's group (a premise, an author id, ...).
        test_size, dev_size: each side's share of the rows, in (0, 1); reached to within one
            group's rows (see the module docstring).
        seed: the seed of the permutation of the groups.
        column: how messages name the groups' column.
    """
    check_sizes(test_size, dev_size, flags=("test_size", "dev_size"))
    keys = group_keys(groups)
    if len(keys) == 0:
        raise DataError(f"There are no rows to split by {column}.")
    distinct, group_of_row, counts = np.unique(keys, return_inverse=True, return_counts=True)
    if len(distinct) < 2:
        raise DataError(
            f"Every row has the same value of {column} ({quoted(distinct[0])}), so a split by "
            "it cannot keep groups apart. Split by a column whose values vary."
        )
    order = np.random.default_rng(seed).permutation(len(distinct))
    targets = {"test": test_size * len(keys)}
    if dev_size is not None:
        targets["dev"] = dev_size * len(keys)
    side_of_group = np.full(len(distinct), "train", dtype=object)
    filled = dict.fromkeys(targets, 0)
    for group in order:
        # A group joins the first side that at least half of it fits in: each side ends within
        # half a group of its share (stopping at the first group past it could add a whole one).
        size = int(counts[group])
        side = next((s for s in targets if filled[s] + size / 2 <= targets[s]), "train")
        side_of_group[group] = side
        if side != "train":
            filled[side] += size
    side_of_row = side_of_group[group_of_row]
    split = GroupSplit(
        rows={s: np.flatnonzero(side_of_row == s) for s in SIDES if s in targets or s == "train"},
        groups={s: int((side_of_group == s).sum()) for s in SIDES if s in targets or s == "train"},
    )
    empty = [side for side, rows in split.rows.items() if len(rows) == 0]
    if empty:
        raise DataError(
            f"The {len(distinct)} groups of {column} are too few for these shares: the {empty[0]} "
            "side would be empty. Give a smaller test (or dev) share, or split by a column with "
            "more distinct values."
        )
    return split


def split_table_by_group(
    table: LoadedTable,
    by: str,
    *,
    columns: Mapping[str, str | None],
    test_size: float = 0.3,
    seed: int = 0,
) -> tuple[dict[str, LoadedTable], dict[str, Any]]:
    """A loaded table's train and test rows, every value of the input column ``by`` on one side,
    and the record of the split (column, share, seed, rows and groups per side).

    ``columns`` are the reading options ``text_col``, ``text_pair_col`` and ``label_col``: ``by``
    names an input column (``premise``), which loading may have renamed (to ``text``).
    """
    name = _loaded_column(table, by, columns)
    split = split_by_group(
        table.table.column(name), test_size=test_size, seed=seed, column=f"'{by}'"
    )
    sides = {side: table.select(rows) for side, rows in split.rows.items()}
    record = {
        "by": by,
        "test_size": test_size,
        "seed": seed,
        "rows": split.sizes(),
        "groups": split.groups,
    }
    return sides, record


def _loaded_column(table: LoadedTable, by: str, columns: Mapping[str, str | None]) -> str:
    """The loaded table's name of the input column ``by``."""
    renamed = {
        columns.get("text_col"): TEXT,
        columns.get("text_pair_col"): TEXT_PAIR,
        columns.get("label_col"): LABEL,
    }
    found = table.source.columns_found or {}
    renamed.update({given: canonical for canonical, given in found.items()})
    present = table.column_names()
    if renamed.get(by) in present:
        return str(renamed[by])
    if by in present:
        return by
    inputs = [
        next((g for g, c in renamed.items() if c == n and g), n) for n in present if n != ROW_ID
    ]
    raise DataError(
        f"The data has no column {by!r} to split by (columns: {listed(inputs, limit=LISTED_NAMES)}). Name one of them."
    )
