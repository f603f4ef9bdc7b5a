"""The repaired training sets of ``audit --fix``: per candidate, ``fix/<candidate>/train.csv`` (the
user's training table with its own column names, repaired as recommended) and ``manifest.json``
(what was done), inside the audit's atomically written folder."""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from shortcutlab.data.canonical import CUE_SPANS
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.data.pairs import split_inputs
from shortcutlab.data.writing import write_json, write_table
from shortcutlab.families.audit.repair.stage import RepairedTraining

FIX_FOLDER = "fix"
#: Columns the repaired table adds: the loss weight (a reweighting), the candidate group (for a
#: group-aware method: ``label|with`` or ``label|without``) and, for an added copy, the row it
#: was made from.
WEIGHT, GROUP = "sample_weight", "group"


def folder_name(candidate: str) -> str:
    """A file-system-safe folder for a candidate, unique by a checksum of its exact name.

    Examples:
        >>> folder_name("hypothesis: no")
        'hypothesis-no-f98bbfc1'
    """
    slug = re.sub(r"[^a-z0-9]+", "-", candidate.lower()).strip("-")[:40] or "candidate"
    return f"{slug}-{zlib.crc32(candidate.encode()):08x}"


def repaired_frame(
    training: pd.DataFrame, repaired: RepairedTraining, columns: Mapping[str, str]
) -> pd.DataFrame:
    """The training table (canonical columns plus the user's others) after the repair, its
    text, pair and label columns named as the user named them (``columns``)."""
    frame = training.reset_index(drop=True).copy()
    frame[GROUP] = repaired.groups
    change = repaired.change
    if change is not None and change.edited is not None:
        n = len(frame)
        firsts, seconds = split_inputs(change.rows.inputs)
        edited = frame[TEXT].to_numpy() != np.asarray(firsts[:n], dtype=object)
        frame[TEXT] = firsts[:n]
        if seconds is not None:
            edited |= frame[TEXT_PAIR].to_numpy() != np.asarray(seconds[:n], dtype=object)
            frame[TEXT_PAIR] = seconds[:n]
        if CUE_SPANS in frame.columns:  # offsets into the old text: wrong in an edited one
            frame[CUE_SPANS] = frame[CUE_SPANS].astype(object).where(~edited, None)
        if change.added:
            frame = pd.concat(
                [frame, _added_rows(frame, change, firsts, seconds)], ignore_index=True
            )
    elif change is not None and change.kept is not None:
        frame = frame.iloc[change.kept].reset_index(drop=True)
    elif change is not None and change.weights is not None:
        frame[WEIGHT] = change.weights
    renamed = {name: columns[name] for name in (TEXT, TEXT_PAIR, LABEL) if name in columns}
    return frame.rename(columns=renamed)


def _added_rows(
    frame: pd.DataFrame, change: object, firsts: Sequence[str], seconds: Sequence[str] | None
) -> pd.DataFrame:
    """The rows an augmentation added: new row ids, their texts and labels; other columns empty."""
    n = len(frame)
    rows = change.rows  # type: ignore[attr-defined]
    rank_to_value = dict(zip(rows.labels[:n].tolist(), frame[LABEL].tolist(), strict=True))
    start = int(frame[ROW_ID].max()) + 1 if n else 0
    added = {
        ROW_ID: np.arange(start, start + change.added),  # type: ignore[attr-defined]
        TEXT: list(firsts[n:]),
        LABEL: [rank_to_value[r] for r in rows.labels[n:].tolist()],
    }
    if seconds is not None:
        added[TEXT_PAIR] = list(seconds[n:])
    return pd.DataFrame(added)


def write_repairs(
    folder: Path,
    repairs: Sequence[RepairedTraining],
    training: pd.DataFrame,
    columns: Mapping[str, str],
) -> list[Path]:
    """Write each repaired set and its manifest under ``folder/fix``; the written CSV paths."""
    written = []
    for repaired in repairs:
        place = folder / FIX_FOLDER / folder_name(repaired.candidate)
        place.mkdir(parents=True, exist_ok=True)
        frame = repaired_frame(training, repaired, columns)
        write_table(frame, place / "train.csv")
        manifest = dict(repaired.manifest, rows_written=len(frame), columns=list(frame.columns))
        write_json(place / "manifest.json", manifest)
        written.append(place / "train.csv")
    return written


__all__ = ["FIX_FOLDER", "folder_name", "repaired_frame", "write_repairs"]
