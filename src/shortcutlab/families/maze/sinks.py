"""Where a build's rendered splits go: Arrow tables held in memory, or files streamed to disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from shortcutlab.data.writing import TableWriter, split_file


class MemorySink:
    """Collect every split as an Arrow table (for :class:`Benchmark` objects held in memory)."""

    def __init__(self) -> None:
        self.parts: dict[str, list[pa.Table]] = {}

    def write(self, split: str, chunk: pa.Table) -> None:
        self.parts.setdefault(split, []).append(chunk)

    def finish(self) -> dict[str, Any]:
        return {name: pa.concat_tables(parts).to_pandas() for name, parts in self.parts.items()}


class FileSink:
    """Stream every split into its file in ``folder``; records each file's name and sha256."""

    def __init__(self, folder: Path, fmt: str) -> None:
        self.folder, self.fmt = folder, fmt
        self.writers: dict[str, TableWriter] = {}

    def write(self, split: str, chunk: pa.Table) -> None:
        if split not in self.writers:
            self.writers[split] = TableWriter(split_file(self.folder, split, self.fmt), self.fmt)
        self.writers[split].write(chunk)

    def finish(self) -> dict[str, dict[str, str]]:
        return {
            name: {"file": writer.path.name, "sha256": writer.close()}
            for name, writer in self.writers.items()
        }
