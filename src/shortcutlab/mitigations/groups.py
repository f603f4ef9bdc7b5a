"""Where groups come from: ``(label, shortcut value)`` for Maze builds, ``(label, attribute value)``
for MPS builds (their ``group`` column), or ``(label, value)`` of a column the user names.

Group codes are numbered over the sorted names of every group seen in the given splits, so the same
splits always give the same codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.errors import LISTED_NAMES, ConfigError, listed
from shortcutlab.params import quoted

AUTO = "auto"
MPS_GROUP = "group"  # an MPS build's "label|value" column (families/mps/rows.py)
MAZE_SHORTCUT = "shortcut"  # a Maze build's inserted cue value per row ("" when none)
NO_CUE = "none"
#: Where group labels are available: every training row, or the validation rows only (the
#: realistic setting of DFR and of model selection in SubpopBench).
GROUP_LABELS = ("train", "validation")


def resolve_group_column(frame: pd.DataFrame, source: str = AUTO) -> str | None:
    """The column groups are read from, or None when ``source`` is ``auto`` and none is there."""
    if source != AUTO:
        if source not in frame.columns:
            raise ConfigError(
                f"The group column {quoted(source)} is not in the data; its columns are "
                f"{listed(frame.columns, limit=LISTED_NAMES)}. Name one of them, or use groups: auto."
            )
        return source
    for column in (MPS_GROUP, MAZE_SHORTCUT):
        if column in frame.columns:
            return column
    return None


def group_candidates(frame: pd.DataFrame) -> list[str]:
    """Columns that could name groups (for the error when none is found)."""
    skip = {ROW_ID, TEXT, TEXT_PAIR, LABEL}
    return [str(c) for c in frame.columns if c not in skip]


def group_names_of(frame: pd.DataFrame, column: str) -> np.ndarray:
    """``"label|value"`` per row (a Maze row without a cue gets the value ``none``)."""
    if column == MPS_GROUP:
        return frame[column].astype(str).to_numpy()
    values = frame[column].fillna("").astype(str).replace("", NO_CUE)
    return (frame[LABEL].astype(str) + "|" + values).to_numpy()


def group_codes(
    frames: Mapping[str, pd.DataFrame], column: str
) -> tuple[dict[str, np.ndarray], tuple[str, ...]]:
    """Integer group codes per split and the name of each code."""
    names = {split: group_names_of(frame, column) for split, frame in frames.items()}
    ordered = tuple(sorted(set().union(*(set(n.tolist()) for n in names.values()))))
    index = {name: code for code, name in enumerate(ordered)}
    codes = {
        split: np.array([index[n] for n in values], dtype=np.int64)
        for split, values in names.items()
    }
    return codes, ordered


def group_counts(codes: np.ndarray, names: Sequence[str]) -> str:
    """``0|none: 120, 0|honestly: 14, ...``: the counts quoted in errors about too few rows."""
    counts = np.bincount(codes[codes >= 0], minlength=len(names))
    return listed(f"{name}: {int(n)}" for name, n in zip(names, counts, strict=True))
