"""Read the text columns of a delimited file in batches, without holding the whole file.

A build needs what every split needs up front (labels, row ids, which rows are empty) before it
renders the texts batch by batch. A file up to :data:`HOLD_BYTES` keeps its texts from that
first reading, so it is read once; a larger one keeps only those small columns and is read again
block by block.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from shortcutlab.data.columns import bool_array, without_nul
from shortcutlab.errors import DataError

BLOCK_BYTES = 1 << 20
#: Files up to this size keep their texts from the first reading, so the build parses each input
#: once. Held texts add about 0.8x the file's size to the peak RSS (the texts, and the allocator's
#: pages around them): small next to the ~140 MiB the interpreter and its libraries take up to
#: here, but past it a 100 MiB input peaked at 3.3x its size instead of 2.5x streamed.
HOLD_BYTES = 1 << 25


def held_texts(
    blocks: list[tuple[pa.Array, pa.Array | None]], keep: np.ndarray
) -> tuple[tuple[pa.Array, pa.Array | None], ...]:
    """The kept rows of each block of (texts, text pairs)."""
    kept = []
    position = 0
    for texts, pairs in blocks:
        kept_here = keep[position : position + len(texts)]
        position += len(texts)
        if kept_here.all():  # the usual block: nothing to copy
            kept.append((texts, pairs))
            continue
        mask = bool_array(kept_here)
        kept.append((texts.filter(mask), None if pairs is None else pairs.filter(mask)))
    return tuple(kept)


@dataclass(frozen=True)
class DelimitedFile:
    """How to read a CSV/TSV file with Arrow: its column names, delimiter and codec."""

    path: Path
    names: tuple[str, ...]
    sep: str
    codec: str

    def batches(self, columns: list[str]) -> Iterator[pa.RecordBatch]:
        """The file's rows in order, ``columns`` only, every value as text."""
        import pyarrow.csv as pacsv

        # One thread and small blocks: as fast here as Arrow's read-ahead, a fraction of the memory.
        reader = pacsv.open_csv(
            self.path,
            read_options=pacsv.ReadOptions(
                encoding=self.codec, block_size=BLOCK_BYTES, use_threads=False
            ),
            parse_options=pacsv.ParseOptions(delimiter=self.sep, newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types={name: pa.string() for name in self.names},
                include_columns=columns,
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
        try:
            yield from reader
        finally:
            reader.close()
            pa.default_memory_pool().release_unused()  # hand the blocks' memory back now

    def signature(self) -> tuple[int, int]:
        stat = os.stat(self.path)
        return stat.st_size, stat.st_mtime_ns


@dataclass(frozen=True)
class TextStream:
    """The text (and text pair) of the kept rows of a delimited file, re-read on demand."""

    file: DelimitedFile
    text_col: str
    text_pair_col: str | None
    keep: np.ndarray  # over the file's rows: those a loaded table kept
    signature: tuple[int, int]
    #: The kept rows' (texts, text pairs) block by block, when the first reading held them.
    held: tuple[tuple[pa.Array, pa.Array | None], ...] | None = None

    def batches(self) -> Iterator[tuple[pa.Array, pa.Array | None]]:
        """(texts, text pairs) of the kept rows, in order, one file block at a time."""
        if self.held is not None:
            yield from self.held
            return
        columns = [self.text_col] + ([self.text_pair_col] if self.text_pair_col else [])
        for batch in self._kept(columns):
            pairs = without_nul(batch.column(self.text_pair_col))[0] if self.text_pair_col else None
            yield without_nul(batch.column(self.text_col))[0], pairs

    def columns(self, names: list[str]) -> pa.Table:
        """Other columns of the file, for the kept rows, read in one more pass."""
        return pa.Table.from_batches(list(self._kept(names))).select(names)

    def _kept(self, columns: list[str]) -> Iterator[pa.RecordBatch]:
        """The kept rows of ``columns``, block by block; a file that changed is refused."""
        if self.file.signature() != self.signature:
            raise DataError(
                f"'{self.file.path}' changed while it was being read. Build again from a file "
                f"that nothing else writes to."
            )
        position = 0
        for batch in self.file.batches(columns):
            keep = bool_array(self.keep[position : position + batch.num_rows])
            position += batch.num_rows
            yield batch.filter(keep)
        if position != len(self.keep):
            raise DataError(f"'{self.file.path}' changed while it was being read.")
