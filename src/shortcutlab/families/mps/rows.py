"""Rows of an MPS build: attribute groups, duplicate texts, seeded draws and the output tables.

The counting lives in :mod:`shortcutlab.families.mps.redistribute`; this module turns counts per
(group, label) cell into rows of the input tables and back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes import Annotation, Attribute
from shortcutlab.data.columns import int_array, numpy_of, string_array, text_scalar
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR, LoadedTable
from shortcutlab.errors import ConfigError, ended, knob
from shortcutlab.families.mps.redistribute import capped_proportional

GROUP = "group"


@dataclass
class GroupedTable:
    """An input table with its label rank, its attribute group (index into the kept values, -1:
    no kept value) and its normalised-text key per row."""

    table: LoadedTable
    ranks: np.ndarray
    values: np.ndarray  # the annotator's value per row (str or None)
    groups: np.ndarray
    keys: np.ndarray

    def __len__(self) -> int:
        return len(self.ranks)

    def cell_counts(self, rows: np.ndarray, n_groups: int, n_labels: int) -> np.ndarray:
        """Rows per (group, label) among ``rows`` (a boolean mask), as groups x labels."""
        cells = self.groups[rows] * n_labels + self.ranks[rows]
        return np.bincount(cells, minlength=n_groups * n_labels).reshape(n_groups, n_labels)

    def first_of_each_text(self, rows: np.ndarray) -> np.ndarray:
        """Of the rows in the mask ``rows``, the first row of each distinct text (as a mask)."""
        positions = np.flatnonzero(rows)
        _, first = np.unique(self.keys[positions], return_index=True)
        mask = np.zeros(len(self), dtype=bool)
        mask[positions[first]] = True
        return mask


def annotated_texts(table: LoadedTable, on: str = TEXT) -> list[str]:
    """The texts an annotator reads: the text, or the second text of a pair (an NLI hypothesis,
    where negation is the known artifact)."""
    if on == TEXT:
        return table.texts()
    if TEXT_PAIR not in table.table.column_names:
        raise ConfigError(
            f"{knob('annotate_on', 'text_pair')} needs paired inputs: name the second text with "
            f"{ended(knob('text_pair_col'))}"
        )
    return [text or "" for text in table.table.column(TEXT_PAIR).to_pylist()]


def annotate(attribute: Attribute, table: LoadedTable, texts: list[str]) -> Annotation:
    """The attribute's values for every row of ``table`` (``texts``: what it reads, from
    :func:`annotated_texts`); an annotator that reads other columns gets every column of the
    input (it names the missing one itself)."""
    columns = None
    if attribute.needs_columns:
        full = table.table
        columns = {name: full.column(name).to_pylist() for name in full.column_names}
    return attribute.annotate(texts, columns)


def group_codes(values: np.ndarray, kept: Sequence[str]) -> np.ndarray:
    """Index of each row's value in ``kept`` (-1 for no value or a value not kept)."""
    array = pa.array(values.tolist(), pa.string())
    found = pc.index_in(array, value_set=string_array(list(kept)))
    return numpy_of(found.fill_null(-1)).astype(np.int64)


def text_keys(tables: Sequence[LoadedTable]) -> list[np.ndarray]:
    """One integer per row, equal for rows whose texts (and text pairs) are equal once lower-cased,
    trimmed and with runs of ASCII white space made one space; shared across the tables (the
    test file and the pool)."""
    parts = []
    for table in tables:
        full = table.table
        text = full.column(TEXT)
        if TEXT_PAIR in full.column_names:
            text = pc.binary_join_element_wise(text, full.column(TEXT_PAIR), text_scalar("\x1f"))
        parts.extend(text.chunks)
    combined = pa.chunked_array(parts, pa.string())
    # Only runs of white space, tabs and line breaks are replaced: "\s+" would rewrite every
    # single space too, about ten times slower on 100k rows.
    spaced = pc.replace_substring_regex(pc.utf8_lower(combined), r"\s\s+|[\t\n\r\f\v]", " ")
    normal = pc.utf8_trim_whitespace(spaced)
    codes = numpy_of(pc.dictionary_encode(normal).combine_chunks().indices).astype(np.int64)
    ends = np.cumsum([len(t) for t in tables])[:-1]
    return np.split(codes, ends)


def subset_rng(seed: int, subset: str) -> np.random.Generator:
    """The generator of one subset: seeded from (seed, subset name), stable across runs and
    platforms (a digest of the name, not Python's salted ``hash``)."""
    name_key = int.from_bytes(hashlib.sha256(subset.encode("utf-8")).digest()[:8], "big")
    return np.random.default_rng(np.random.SeedSequence([int(seed), name_key]))


def label_balanced_plan(per_label: int, candidates: np.ndarray) -> np.ndarray:
    """Rows per (group, label) of a label-balanced held-out set (A.5.1): ``per_label`` rows of
    every label, spread over the groups in proportion to the groups' sizes (capped by what each
    cell has), so attribute and label stay close to independent."""
    weights = candidates.sum(axis=1)
    plan = np.zeros_like(candidates)
    for label in range(candidates.shape[1]):
        plan[:, label] = capped_proportional(per_label, weights, candidates[:, label])
    return plan


def draw_rows(
    source: GroupedTable, rows: np.ndarray, plan: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Positions (sorted: input order) of ``plan[g, y]`` rows drawn without replacement from the
    rows of each (group, label) cell in the mask ``rows``."""
    n_labels = plan.shape[1]
    positions = np.flatnonzero(rows)
    cells = source.groups[positions] * n_labels + source.ranks[positions]
    order = np.argsort(cells, kind="stable")
    bounds = np.searchsorted(cells[order], np.arange(plan.size + 1))
    chosen = []
    for cell, count in enumerate(plan.ravel().tolist()):
        if count:
            members = positions[order[bounds[cell] : bounds[cell + 1]]]
            chosen.append(rng.choice(members, size=count, replace=False))
    return np.sort(np.concatenate(chosen)) if chosen else np.zeros(0, dtype=np.int64)


def split_table(source: GroupedTable, rows: np.ndarray, column: str) -> pa.Table:
    """The output rows: ``row_id, text, [text_pair], label, <column>, group``."""
    taken = source.table.table.take(int_array(rows.astype(np.int64)))
    values = pa.array(source.values[rows].tolist(), pa.string())
    columns: dict[str, Any] = {ROW_ID: taken.column(ROW_ID), TEXT: taken.column(TEXT)}
    if TEXT_PAIR in taken.column_names:
        columns[TEXT_PAIR] = taken.column(TEXT_PAIR)
    columns[LABEL] = taken.column(LABEL)
    columns[column] = values
    # The traditional (label, value) group of GroupDRO / DFR and the worst-group accuracy (A.5.1).
    columns[GROUP] = pc.binary_join_element_wise(
        python_text(taken.column(LABEL)), values, text_scalar("|")
    )
    return pa.table(columns)


def python_text(column: pa.ChunkedArray) -> pa.Array:
    """Each value as Python's ``str`` gives it (``1.0`` stays "1.0", as the files write it),
    through the column's few distinct values."""
    encoded = pc.dictionary_encode(column.combine_chunks())
    names = string_array([str(v) for v in encoded.dictionary.to_pylist()])
    return names.take(encoded.indices)
