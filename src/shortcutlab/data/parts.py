"""A cue on the second text of a pair: the builders' pipeline reads and writes ``text``, so a build
that injects on ``text_pair`` swaps the two columns on the way in and back on the way out."""

from __future__ import annotations

from typing import Protocol

import pyarrow as pa

from shortcutlab.data.loading import TEXT, TEXT_PAIR, LoadedTable
from shortcutlab.errors import LISTED_NAMES, DataError, ended, knob, listed

INJECT_ON = (TEXT, TEXT_PAIR)


class Sink(Protocol):
    def write(self, split: str, chunk: pa.Table) -> None: ...


def require_text_pair(table: LoadedTable, what: str) -> None:
    """A one-line DataError when ``table`` has no second text column."""
    if TEXT_PAIR not in table.column_names():
        name = f"'{table.source.path}'" if table.source.path else "the table"
        raise DataError(
            f"{what} needs paired inputs but {name} has one text per row (columns: "
            f"{listed(table.column_names(), limit=LISTED_NAMES)}). Name the second text with {ended(knob('text_pair_col'))}"
        )


def swapped_parts(table: LoadedTable) -> LoadedTable:
    """The same rows with ``text`` and ``text_pair`` exchanged (held in memory)."""
    require_text_pair(table, knob("inject_on", TEXT_PAIR))
    names = [
        {TEXT: TEXT_PAIR, TEXT_PAIR: TEXT}.get(name, name) for name in table.table.column_names
    ]
    return LoadedTable(table.table.rename_columns(names), table.source)


class PartsSwappedBack:
    """A sink wrapper that swaps ``text`` and ``text_pair`` back before the real sink writes."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink

    def write(self, split: str, chunk: pa.Table) -> None:
        names = [{TEXT: TEXT_PAIR, TEXT_PAIR: TEXT}.get(n, n) for n in chunk.column_names]
        # The columns keep their order: row_id, text, text_pair, label, shortcut.
        self.sink.write(split, chunk.rename_columns(names).select(chunk.column_names))
