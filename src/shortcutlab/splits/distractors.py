"""Distractor reviews for the concept shortcuts, from table columns or files."""

from __future__ import annotations

import warnings
from pathlib import Path

from shortcutlab.data.labels import normalize_label_values
from shortcutlab.data.loading import LABEL, TEXT, LoadedTable, load_table
from shortcutlab.errors import ShortcutlabWarning
from shortcutlab.shortcuts.concept import Distractor, DistractorPool

TEXT_SUFFIX, LABEL_SUFFIX = "_text", "_label"


def aspect_columns(table: LoadedTable) -> list[str]:
    """Aspect names with both ``NAME_text`` and ``NAME_label`` columns, in column order."""
    columns = list(table.frame.columns)
    return [
        c[: -len(TEXT_SUFFIX)]
        for c in columns
        if c.endswith(TEXT_SUFFIX) and c[: -len(TEXT_SUFFIX)] + LABEL_SUFFIX in columns
    ]


def _pool_from_column(table: LoadedTable, aspect: str, role: str) -> DistractorPool:
    frame = table.frame[[aspect + TEXT_SUFFIX, aspect + LABEL_SUFFIX]].dropna()
    frame = frame[frame[aspect + TEXT_SUFFIX].astype(str).str.strip() != ""]
    labels = normalize_label_values(frame[aspect + LABEL_SUFFIX])
    where = table.source.path or f"the {role} table"
    return DistractorPool(
        texts=tuple(frame[aspect + TEXT_SUFFIX].astype(str)),
        labels=tuple(labels.tolist()),
        source=f"column {aspect}{TEXT_SUFFIX} of {where}",
    )


def distractors_from_columns(train: LoadedTable, test: LoadedTable) -> dict[str, Distractor]:
    """Aspects present as ``NAME_text``/``NAME_label`` columns in both tables."""
    test_aspects = set(aspect_columns(test))
    return {
        aspect: Distractor(
            aspect,
            _pool_from_column(train, aspect, "train"),
            _pool_from_column(test, aspect, "test"),
        )
        for aspect in aspect_columns(train)
        if aspect in test_aspects
    }


def distractor_from_files(
    name: str,
    train_path: str | Path,
    test_path: str | Path | None = None,
    *,
    text_col: str = TEXT,
    label_col: str = LABEL,
    encoding: str = "utf-8",
) -> Distractor:
    """A distractor aspect read from files of reviews rated on the task's label scale."""

    def pool(path: str | Path) -> DistractorPool:
        table = load_table(
            path,
            text_col=text_col,
            label_col=label_col,
            encoding=encoding,
            role=f"distractor '{name}'",
        )
        return DistractorPool(
            tuple(table.frame[TEXT]), tuple(table.frame[LABEL].tolist()), source=str(path)
        )

    train_pool = pool(train_path)
    if test_path is None:
        warnings.warn(
            f"No test file for distractor '{name}': test splits draw from the training pool "
            f"'{train_path}'. Pass --test-distractor {name}=PATH to keep them disjoint.",
            ShortcutlabWarning,
            stacklevel=2,
        )
        return Distractor(name, train_pool, train_pool)
    return Distractor(name, train_pool, pool(test_path))
