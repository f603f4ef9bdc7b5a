"""The build pipeline: one pass over each input table renders every split made from it.

Each batch of rows is cleaned once and handed to every split that holds some of its rows (train
and validation share the training table; test, anti-test and original test the test table).
Texts exist as Python strings one batch at a time, a streamed input is never held whole, and a
split can go straight into its output file. Every random decision is drawn for the whole split
before rendering (``Shortcut.draw``), so the output does not depend on the batch size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.data.columns import TextColumn, bool_array, empty_values, int_array, string_array
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import (
    CUE_SPANS,
    LABEL,
    ROW_ID,
    SHORTCUT,
    TEXT,
    TEXT_PAIR,
    LoadedTable,
)
from shortcutlab.errors import DataError, knob, warn
from shortcutlab.families.maze.cue_spans import span_column, span_column_of
from shortcutlab.families.maze.sinks import FileSink, MemorySink
from shortcutlab.shortcuts.base import (
    UNDECIDABLE,
    InsertingShortcut,
    RenderedColumns,
    RowDraws,
    Shortcut,
    SplitPlan,
    check_observed,
    rates_by_label,
)

BATCH_ROWS = 32_768


@dataclass
class InputTable:
    """An input table on its way through the build: label ranks, per-row counts of cue
    occurrences removed and of vocabulary left alone (filled while rendering), and whether its
    texts are already cleaned."""

    table: LoadedTable
    ranks: np.ndarray
    removed: np.ndarray
    kept: np.ndarray
    cleaned: bool = False
    record: dict[str, Any] | None = None
    #: Rows left with no text once the cue was removed (e.g. the text "Honestly" for the cue
    #: "honestly"), dropped before any split is carved, as --on-empty drops empty rows.
    dropped_empty_after_cleaning: int = 0
    #: Positions and cleaned texts of the rows a first pass changed (None: clean while rendering).
    cleaned_rows: tuple[np.ndarray, list[str]] | None = None

    def clean(self, injector: Shortcut, start: int, texts: list[str]) -> list[str]:
        """Clean the texts of rows ``start...``, counting what was removed and kept (a first
        pass did both already where it kept the changed texts)."""
        if self.cleaned_rows is not None:
            positions, changed = self.cleaned_rows
            first, last = np.searchsorted(positions, [start, start + len(texts)])
            for at in range(int(first), int(last)):
                texts[int(positions[at]) - start] = changed[at]
            return texts
        cleaning = injector.clean(texts)
        self.removed[start : start + len(texts)] = cleaning.removed
        self.kept[start : start + len(texts)] = cleaning.kept
        return cleaning.texts if isinstance(cleaning.texts, list) else list(cleaning.texts)

    def cleaned_column(self, injector: Shortcut, start: int, texts: pa.Array) -> pa.Array:
        """:meth:`clean` over an Arrow array: the changed texts a first pass kept go in place
        without turning the others into Python strings."""
        if self.cleaned:
            return texts
        if self.cleaned_rows is None:
            return string_array(self.clean(injector, start, texts.to_pylist()))
        positions, changed = self.cleaned_rows
        first, last = np.searchsorted(positions, [start, start + len(texts)])
        if first == last:
            return texts
        mask = np.zeros(len(texts), bool)
        mask[positions[first:last] - start] = True
        return pc.replace_with_mask(texts, bool_array(mask), string_array(changed[first:last]))

    def __len__(self) -> int:
        return len(self.ranks)


def input_table(
    injector: Shortcut, table: LoadedTable, labels: LabelSpace, role: str, on_empty: str = "drop"
) -> InputTable:
    """Rank the table's labels and drop the rows that removing the cue leaves empty; a shortcut
    that must see the whole table gets it cleaned now."""
    # The narrowest integer types: a million-row table's per-row arrays stay a few MiB each.
    ranks = labels.ranks(table.index.column(LABEL), where=f"The {role} table")
    ranks = ranks.astype(np.min_scalar_type(max(len(labels) - 1, 0)))
    source = InputTable(
        table, ranks, np.zeros(len(table), np.int32), np.zeros(len(table), np.int32)
    )
    if not injector.needs_preparation:
        if type(injector).clean is Shortcut.clean:  # removes nothing, so empties nothing
            return source
        return _cleaned_in_a_first_pass(injector, source, role, on_empty)
    texts: list[str] = []
    for start, batch in _batches(table):
        texts += source.clean(injector, start, batch.column(TEXT).to_pylist())
    cleaned_table = table.with_texts(texts)
    blank = np.asarray([not text.strip() for text in texts], bool)
    dropped = _empty_after_cleaning(blank, table, role, on_empty)
    preparation = injector.prepare(cleaned_table.select(~dropped), role=role)
    keep = ~dropped
    if preparation.keep is not None:
        keep[keep] = np.asarray(preparation.keep, bool)
    return InputTable(
        cleaned_table if keep.all() else cleaned_table.select(keep),
        ranks[keep],
        source.removed[keep],
        source.kept[keep],
        cleaned=True,
        record=preparation.record,
        dropped_empty_after_cleaning=int(dropped.sum()),
    )


#: Characters of changed texts a first cleaning pass keeps for rendering (beyond: cleaned again).
CHANGED_CHARS = 1 << 26


def _cleaned_in_a_first_pass(
    injector: Shortcut, source: InputTable, role: str, on_empty: str
) -> InputTable:
    """Clean the table once before carving splits, to find the rows cleaning leaves empty; the
    texts cleaning changed (usually few) are kept for rendering, which then need not clean."""
    table = source.table
    blank = np.zeros(len(table), bool)
    positions: list[int] = []
    changed: list[str] | None = []
    size = 0
    for start, batch in _batches(table):
        texts = _one_array(batch.column(TEXT))
        cleaning = injector.clean(TextColumn(texts))
        source.removed[start : start + len(texts)] = cleaning.removed
        source.kept[start : start + len(texts)] = cleaning.kept
        edits, cleaned = _edits(texts, cleaning.texts)
        blank[start : start + len(texts)] = empty_values(texts)
        blank[start + edits] = [not text.strip() for text in cleaned]
        if changed is not None:
            positions += (start + edits).tolist()
            changed += cleaned
            size += sum(map(len, cleaned))
            changed = changed if size <= CHANGED_CHARS else None  # memory stays bounded
    keep = ~_empty_after_cleaning(blank, table, role, on_empty)
    edits_kept = None
    if changed is not None:
        kept_at = np.cumsum(keep) - 1  # positions in the table without the dropped rows
        order = [k for k, p in enumerate(positions) if keep[p]]
        at = np.asarray([positions[k] for k in order], np.int64)
        edits_kept = (kept_at[at] if order else at, [changed[k] for k in order])
    return InputTable(
        table if keep.all() else table.select(keep), source.ranks[keep], source.removed[keep],
        source.kept[keep], dropped_empty_after_cleaning=int((~keep).sum()),
        cleaned_rows=edits_kept,
    )  # fmt: skip


def _edits(texts: pa.Array, cleaned: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """The rows cleaning changed, and their new texts."""
    if isinstance(cleaned, TextColumn):
        rows = sorted(r for r, text in cleaned.changes.items() if text != texts[r].as_py())
        return np.asarray(rows, np.int64), [cleaned.changes[r] for r in rows]
    before = texts.to_pylist()
    rows = [i for i, (a, b) in enumerate(zip(before, cleaned, strict=True)) if a != b]
    return np.asarray(rows, np.int64), [cleaned[i] for i in rows]


def _empty_after_cleaning(
    blank: np.ndarray, table: LoadedTable, role: str, on_empty: str
) -> np.ndarray:
    """The rows whose text was only the cue: refused (``on_empty="error"``) or, with a warning,
    to drop (an empty text would be a training row with nothing to learn from)."""
    if not blank.any():
        return blank
    name = f"'{table.source.path}'" if table.source.path else f"the {role} table"
    first = int(table.row_ids()[int(np.argmax(blank))])
    if on_empty == "error":
        raise DataError(
            f"{name} has {_rows(blank)} whose text is empty once the cue is removed "
            f"(first: row {first}). Remove them or use {knob('on_empty', 'drop', section='data')}."
        )
    warn(
        f"{name} has {_rows(blank)} whose text is empty once the cue is removed (first: "
        f"row {first}); dropped (counted as dropped_empty_after_cleaning in the "
        f"manifest's inputs)."
    )
    return blank


def _rows(mask: np.ndarray) -> str:
    count = int(mask.sum())
    return f"{count} row{'s' if count > 1 else ''}"


@dataclass
class SplitJob:
    """One output split: its rows (sorted positions in the input table) and how to inject the
    cue (no plan: the cleaned text as it is)."""

    name: str
    rows: np.ndarray
    plan: SplitPlan | None = None
    seed: np.random.SeedSequence | None = None
    draws: RowDraws | None = field(default=None, repr=False)
    observed: np.ndarray | None = field(default=None, repr=False)  # cue count per output text


def render_splits(
    injector: Shortcut,
    source: InputTable,
    jobs: Sequence[SplitJob],
    labels: LabelSpace,
    sink: MemorySink | FileSink,
) -> dict[str, dict[str, Any]]:
    """Render every split of one input table in a single pass; returns their manifest records."""
    # The injector itself says it (it may be a configured object with no registry line).
    inserts_cue = isinstance(injector, InsertingShortcut)  # else no spans to record
    for job in jobs:
        if job.plan is not None and job.seed is not None:
            job.draws = injector.draw(job.plan, job.seed)
            job.observed = np.zeros(len(job.rows), dtype=np.int32)
    written = {job.name: False for job in jobs}
    empty: pa.Table | None = None
    for start, batch in _batches(source.table):
        texts = source.cleaned_column(injector, start, _one_array(batch.column(TEXT)))
        for job in jobs:
            first, last = np.searchsorted(job.rows, [start, start + len(texts)])
            if first == last:
                continue
            local = job.rows[first:last] - start
            whole = len(local) == len(texts)
            job_texts = texts if whole else texts.take(int_array(local))
            rows = batch if whole else batch.take(int_array(local))
            rendered = _rendered(injector, job, slice(int(first), int(last)), job_texts, rows)
            sink.write(job.name, _chunk_table(rows, rendered, inserts_cue))
            written[job.name] = True
        empty = batch.slice(0, 0)
        pa.default_memory_pool().release_unused()  # the batch's buffers go back to the system
    for job in jobs:
        if not written[job.name] and empty is not None:  # an empty split still gets its file
            nothing = RenderedColumns(string_array([]), string_array([]), spans=[])
            sink.write(job.name, _chunk_table(empty, nothing, inserts_cue))
    return {job.name: _record(injector, source, job, labels) for job in jobs}


def _batches(table: LoadedTable) -> Any:
    """(first row position, batch) pairs over the table's canonical columns."""
    start = 0
    for batch in table.batches(BATCH_ROWS):
        yield start, batch
        start += batch.num_rows


def _one_array(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        return values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    return values


def _rendered(
    injector: Shortcut, job: SplitJob, part: slice, texts: pa.Array, rows: pa.Table
) -> RenderedColumns:
    """The rows ``part`` of ``job`` with their cue, checked against the text as written (no
    plan: the cleaned texts as they are)."""
    if job.draws is None or job.plan is None or job.observed is None:
        blank = string_array([""] * len(texts))
        return RenderedColumns(texts, blank, spans=[[] for _ in range(len(texts))])
    plan, draws = job.plan.take(part), job.draws.take(part)
    rendered = injector.render_columns(texts, draws, plan)
    # Measured on the written text, and checked against the shortcut column.
    observed = injector.observe_rendered(texts, rendered, draws, plan)
    recorded = injector.recorded_cue_of(rendered.values, plan)
    row_ids = _Values(_one_array(rows.column(ROW_ID)))  # read only to name a row in an error
    check_observed(observed, recorded, row_ids, shortcut=injector.name, split=job.name)
    job.observed[part] = observed
    return rendered


class _Values(Sequence[Any]):
    """An Arrow array's values as Python objects, made one at a time as they are indexed."""

    def __init__(self, array: pa.Array) -> None:
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, row: Any) -> Any:
        return self.array[row].as_py()


def _chunk_table(rows: pa.Table, rendered: RenderedColumns, inserts_cue: bool) -> pa.Table:
    """The written columns; ``cue_spans`` only for a shortcut that inserts its cue (a style
    rewrite has no span to record, and "[]" would claim the row has no cue)."""
    columns: dict[str, Any] = {ROW_ID: rows.column(ROW_ID), TEXT: rendered.texts}
    if TEXT_PAIR in rows.column_names:
        columns[TEXT_PAIR] = rows.column(TEXT_PAIR)
    columns[LABEL] = rows.column(LABEL)
    columns[SHORTCUT] = rendered.values
    if inserts_cue:
        if rendered.span_start is not None and rendered.span_end is not None:
            columns[CUE_SPANS] = span_column_of(rendered.span_start, rendered.span_end)
        else:
            columns[CUE_SPANS] = span_column(rendered.spans or [])
    return pa.table(columns)


def _record(
    injector: Shortcut, source: InputTable, job: SplitJob, labels: LabelSpace
) -> dict[str, Any]:
    plan = job.plan
    counts = np.bincount(source.ranks[job.rows], minlength=len(labels))
    record: dict[str, Any] = {
        "rows": len(job.rows),
        "strength": plan.strength if plan else None,
        "schedule": ("reversed" if plan.anti else "label-rank") if plan else None,
        "label_counts": {
            str(label): int(c) for label, c in zip(labels.values, counts, strict=True)
        },
        "removed_occurrences": int(source.removed[job.rows].sum()),
        "kept_occurrences": int(source.kept[job.rows].sum()),
        "target_rate": None,
        "observed_rate": None,
        "undecidable_rows": None,
    }
    if job.draws is not None and plan is not None and job.observed is not None:
        decided = job.observed != UNDECIDABLE
        k = len(labels)
        observed = rates_by_label(job.observed > 0, plan.ranks, k, decided)
        # Rows whose text cannot tell the sides apart are left out; where they are most of a
        # label's rows, the rest is no measurement of that label: null, not a biased rate.
        observed[rates_by_label(decided, plan.ranks, k) < 0.5] = np.nan
        record["target_rate"] = by_label(injector.target_rate(plan), labels)
        record["observed_rate"] = by_label(observed, labels)
        record["undecidable_rows"] = int((~decided).sum())
        details = injector.details(job.draws, plan)
        if details is not None:
            record["details"] = details
    return record


def by_label(values: np.ndarray | None, labels: LabelSpace) -> dict[str, float | None] | None:
    if values is None:
        return None
    return {
        str(label): (None if np.isnan(v) else round(float(v), 6))
        for label, v in zip(labels.values, values, strict=True)
    }


def positions(mask: np.ndarray) -> np.ndarray:
    """Indices of the true entries, as the narrowest integer type that holds them."""
    return np.flatnonzero(mask).astype(np.min_scalar_type(max(len(mask) - 1, 0)))
