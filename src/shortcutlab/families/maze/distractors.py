"""Distractor reviews for the concept shortcuts, from table columns or files."""

from __future__ import annotations

import warnings
from pathlib import Path

import pyarrow as pa

from shortcutlab.data.columns import bool_array, empty_values
from shortcutlab.data.labels import normalize_label_array
from shortcutlab.data.loading import LABEL, TEXT, LoadedTable, load_table
from shortcutlab.errors import CLI, GRID, ShortcutlabWarning, callers_terms, knob
from shortcutlab.shortcuts.concept import Distractor, DistractorPool

TEXT_SUFFIX, LABEL_SUFFIX = "_text", "_label"


def aspect_columns(table: LoadedTable) -> list[str]:
    """Aspect names with both ``NAME_text`` and ``NAME_label`` columns, in column order."""
    columns = table.column_names()
    return [
        c[: -len(TEXT_SUFFIX)]
        for c in columns
        if c.endswith(TEXT_SUFFIX) and c[: -len(TEXT_SUFFIX)] + LABEL_SUFFIX in columns
    ]


def _pools_from_columns(
    table: LoadedTable, aspects: list[str], role: str
) -> dict[str, DistractorPool]:
    """Every aspect's pool of a table, its columns read in one pass."""
    names = [name for aspect in aspects for name in (aspect + TEXT_SUFFIX, aspect + LABEL_SUFFIX)]
    columns = table.columns(names)
    return {aspect: _pool(table, columns, aspect, role) for aspect in aspects}


def _pool(table: LoadedTable, columns: pa.Table, aspect: str, role: str) -> DistractorPool:
    texts, labels = columns.column(aspect + TEXT_SUFFIX), columns.column(aspect + LABEL_SUFFIX)
    keep = ~(empty_values(texts) | empty_values(labels))
    where = table.source.path or f"the {role} table"
    return DistractorPool(
        texts=tuple(str(t) for t in texts.filter(bool_array(keep)).to_pylist()),
        labels=tuple(normalize_label_array(labels.filter(bool_array(keep))).to_pylist()),
        source=f"column {aspect}{TEXT_SUFFIX} of {where}",
    )


def distractors_from_columns(train: LoadedTable, test: LoadedTable) -> dict[str, Distractor]:
    """Aspects present as ``NAME_text``/``NAME_label`` columns in both tables."""
    test_aspects = set(aspect_columns(test))
    aspects = [aspect for aspect in aspect_columns(train) if aspect in test_aspects]
    if not aspects:
        return {}
    train_pools = _pools_from_columns(train, aspects, "train")
    test_pools = _pools_from_columns(test, aspects, "test")
    return {a: Distractor(a, train_pools[a], test_pools[a]) for a in aspects}


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
            tuple(table.texts()), tuple(table.index.column(LABEL).to_pylist()), source=str(path)
        )

    train_pool = pool(train_path)
    if test_path is None:
        warnings.warn(
            f"No test file for distractor '{name}': test splits draw from the training pool "
            f"'{train_path}'. Pass {_test_file(name)} to keep them disjoint.",
            ShortcutlabWarning,
            stacklevel=2,
        )
        return Distractor(name, train_pool, train_pool)
    return Distractor(name, train_pool, pool(test_path))


def _test_file(name: str) -> str:
    """The test file of the distractor ``name`` as the caller gives it."""
    terms = callers_terms()
    if terms == CLI:
        return f"--test-distractor {name}=PATH"
    if terms == GRID:
        return f"distractors: {{{name}: {{test: PATH}}}}"
    return knob("test_path")
