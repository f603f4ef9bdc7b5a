"""The scan's indicators of one part, fitted on the training rows a slice at a time.

A fitter counts what it needs as the slices pass (``add``: the attribute values, the surface
measures; the word fitters are in :mod:`~shortcutlab.families.audit.scan.word_fitters`), then fixes
its indicators' names and their counts (``finish``). Each gives the plan a :class:`Block`: how to
build its indicators for any other table, and how to read chosen ones of the training rows again
(the examples of the top candidates, a model's measurement) without having held them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import scipy.sparse as sp

from shortcutlab.attributes import Attribute
from shortcutlab.families.audit.scan.indicator_counts import IndicatorCounts, row_weights
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.surface import (
    PRESENCE,
    fit_surface,
    presence_indicators,
    surface_measures,
)
from shortcutlab.families.audit.scan.syllables import SyllableCounter
from shortcutlab.families.audit.scan.text_slices import SLICE_ROWS, TextSlice

#: Annotators that read the texts as one Arrow array, and whose value of a row depends on that
#: row alone: annotated a slice at a time.
ARROW_ATTRIBUTES = ("negation", "question")


@dataclass
class Block:
    """Indicators of one family for one part: names as fitted, and the columns kept.

    ``build`` gives any table's indicators (rows × names); ``read`` a slice of the training
    rows' columns at the given name indices (slice rows × chosen), from what the fit kept or the
    slice's texts."""

    kind: str
    part: str
    group: Callable[[str], str] | str
    names: list[str]
    build: Callable[[AuditInputs], sp.csr_matrix | np.ndarray]
    phrases: bool = False
    kept: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    read: Callable[[TextSlice, list[int]], np.ndarray] | None = field(default=None, repr=False)


def dense_counts(
    matrix: np.ndarray, ranks: np.ndarray, n_classes: int, rows: int = SLICE_ROWS
) -> IndicatorCounts:
    """The counts of a whole table's (rows × F) boolean indicators, a slice of rows at a time."""
    counts = IndicatorCounts.empty(n_classes, matrix.shape[1])
    for start in range(0, len(matrix), rows):
        stop = min(start + rows, len(matrix))
        counts.add_dense(matrix[start:stop], ranks[start:stop], row_weights(start, stop))
    return counts.take(np.arange(matrix.shape[1]))


class AttributeFitter:
    """One indicator per value of a registered annotator ("negation = with_negation").

    :data:`ARROW_ATTRIBUTES` are annotated a slice at a time; any other is fitted on and
    annotated over the part's whole column, as it may depend on all rows (a concept's clusters).
    """

    def __init__(self, part: str, attribute: Attribute, train: AuditInputs) -> None:
        self.part, self.attribute, self.train = part, attribute, train
        self.streamed = attribute.name in ARROW_ATTRIBUTES
        self.coded: list[np.ndarray] = []
        self.values: dict[str, int] = {}

    def add(self, piece: TextSlice) -> None:
        if self.streamed:
            self.coded.append(self._codes(annotated(self.attribute, piece.texts, piece.columns)))

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        attribute, part, train = self.attribute, self.part, self.train
        if not self.streamed:
            texts = train.part(part)
            attribute = attribute.fitted(texts)
            self.coded = [self._codes(annotated(attribute, texts, train.columns))]
        details.setdefault("attributes", {})[attribute.name] = attribute.config()
        codes = np.concatenate(self.coded) if self.coded else np.zeros(0, dtype=np.int32)
        self.coded = []
        found = list(self.values)
        values = attribute.possible_values()
        if values is None:
            values = sorted(found)
        if len(values) == 2 and not (codes < 0).any():
            # A two-valued attribute every row has (with / without negation): the second value is
            # the first's complement, the same 2×K table and test, so it is one candidate, not two.
            values = values[:1]
        position = {value: i for i, value in enumerate(values)}
        renumber = np.array([position.get(value, -1) for value in found] + [-1], dtype=np.int32)
        codes = renumber[codes]  # a value outside ``values`` (and None, -1) is no indicator
        columns = np.array(values, dtype=object)[None, :]

        def build(inputs: AuditInputs) -> np.ndarray:
            read = inputs.array(part) if attribute.name in ARROW_ATTRIBUTES else inputs.part(part)
            return annotated(attribute, read, inputs.columns)[:, None] == columns

        def read(piece: TextSlice, chosen: list[int]) -> np.ndarray:
            here = codes[piece.start : piece.stop]
            return here[:, None] == np.asarray(chosen, dtype=np.int32)[None, :]

        every = codes[:, None] == np.arange(len(values), dtype=np.int32)[None, :]
        counts = dense_counts(every, train.ranks, len(train.labels))
        names = [f"{attribute.name} = {value}" for value in values]
        return Block("attribute", part, attribute.name, names, build, read=read), counts

    def _codes(self, values: np.ndarray) -> np.ndarray:
        """Each row's value as a number (-1: no value), values numbered as first seen."""
        local, distinct = pd.factorize(values, use_na_sentinel=True)
        known = np.array(
            [self.values.setdefault(value, len(self.values)) for value in distinct.tolist()] + [-1],
            dtype=np.int32,
        )
        return known[local]  # -1 (no value) reads the last entry, -1


def annotated(attribute: Attribute, texts: Any, columns: Mapping[str, Any]) -> np.ndarray:
    """The attribute's value of each text as a string (None: no value)."""
    values = attribute.annotate(texts, columns).values
    return np.array([None if v is None else str(v) for v in values.tolist()], dtype=object)


class SurfaceFitter:
    """Length, sentence and readability bins (quartiles of the training rows' measures, kept
    per row until the bins are fitted), and the presence properties, counted as they pass."""

    def __init__(self, part: str, train: AuditInputs) -> None:
        self.part, self.train = part, train
        self.syllables = SyllableCounter()
        self.measures: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.presence = IndicatorCounts.empty(len(train.labels))

    def add(self, piece: TextSlice) -> None:
        self.measures.append(surface_measures(piece.texts, self.syllables))
        self.presence.add_dense(presence_indicators(piece.texts), piece.ranks, piece.weights)

    def finish(self, details: dict[str, Any]) -> tuple[Block, IndicatorCounts]:
        part, train = self.part, self.train
        if not self.measures:
            self.measures.append(surface_measures(pa.array([], pa.large_string())))
        words, sentences, readability = (
            np.concatenate(v) for v in zip(*self.measures, strict=True)
        )
        measures = (words, sentences, readability)
        self.measures = []
        surface = fit_surface(measures)
        details["surface"] = surface.config()
        names, groups = surface.columns()
        bins = dense_counts(surface.bin_indicators(measures), train.ranks, len(train.labels))
        presence = self.presence.take(np.arange(len(PRESENCE)))
        counts = IndicatorCounts.joined([bins, presence], len(train.labels))
        group_of = dict(zip(names, groups, strict=True))

        def build(inputs: AuditInputs) -> np.ndarray:
            return surface.indicators(inputs.array(part))

        def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
            here = slice(piece.start, piece.stop)
            binned = surface.bin_indicators((words[here], sentences[here], readability[here]))
            out = np.zeros((len(piece.texts), len(columns)), dtype=bool)
            for i, column in enumerate(columns):
                if column < binned.shape[1]:
                    out[:, i] = binned[:, column]
                else:  # only the properties asked for are searched
                    out[:, i] = presence_indicators(piece.texts, [column - binned.shape[1]])[:, 0]
            return out

        block = Block("surface", part, group_of.__getitem__, names, build, read=read)
        return block, counts


def rows_reader(
    build: Callable[[AuditInputs], np.ndarray], train: AuditInputs
) -> Callable[[TextSlice, list[int]], np.ndarray]:
    """A block's ``read`` that builds the slice's rows again (metadata: the user's columns)."""

    def read(piece: TextSlice, columns: list[int]) -> np.ndarray:
        return np.asarray(build(train.rows(piece.start, piece.stop)), dtype=bool)[:, columns]

    return read
