"""The rows an audit reads: texts (and second texts of pairs), label ranks and metadata columns.

The texts are held as given: Python lists (a caller's own rows) or Arrow arrays (a loaded file:
compact, one buffer of characters, never one Python string per row). The scan reads them a
slice at a time (:meth:`AuditInputs.text_slices`); a Python list of a part is made only when a
reader asks for one (a model, the partial-input baselines).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.lexical import normalised, text_array
from shortcutlab.attributes.words import spaced_normalised
from shortcutlab.data.column_names import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.pairs import TextInput, join_inputs
from shortcutlab.errors import LISTED_NAMES, DataError, ended, knob, listed
from shortcutlab.families.audit.scan.memory import release_freed_memory

#: The parts of a row an audit scans: ``text`` and, for paired data, ``text_pair``.
PARTS = ("text", "text_pair")
#: Texts: a list of strings, or an Arrow string array (chunked or not).
Texts = Sequence[str] | pa.Array | pa.ChunkedArray


class AuditInputs:
    """One table of an audit (the training rows or the test rows), in the label space's ranks.

    ``columns`` holds the metadata columns the user named (raw entries, one per row).
    """

    def __init__(
        self,
        row_ids: np.ndarray,
        texts: Texts,
        ranks: np.ndarray,
        labels: LabelSpace,
        text_pairs: Texts | None = None,
        columns: dict[str, list[Any]] | None = None,
    ) -> None:
        self.row_ids = row_ids
        self.ranks = ranks
        self.labels = labels
        self.columns = dict(columns or {})
        self._given: dict[str, Texts] = {"text": texts}
        if text_pairs is not None:
            self._given["text_pair"] = text_pairs
        self._lists: dict[str, list[str]] = {}
        self._arrays: dict[str, pa.Array] = {}
        self._spaced: dict[str, pa.Array] = {}
        self._normalised: dict[str, pa.Array] = {}

    def __len__(self) -> int:
        return len(self._given["text"])

    def __repr__(self) -> str:
        return f"AuditInputs({len(self)} rows, parts={list(self.parts())}, labels={self.labels})"

    @property
    def paired(self) -> bool:
        return "text_pair" in self._given

    @property
    def texts(self) -> list[str]:
        return self.part("text")

    @property
    def text_pairs(self) -> list[str] | None:
        return self.part("text_pair") if self.paired else None

    def part(self, name: str) -> list[str]:
        """The texts of one part (``text`` or ``text_pair``) as a list, made once per table."""
        if name not in self._given:
            raise ValueError(f"this table has no {name} column")
        given = self._given[name]
        if isinstance(given, list):
            return given
        if name not in self._lists:
            self._lists[name] = (
                given.to_pylist() if isinstance(given, pa.Array | pa.ChunkedArray) else list(given)
            )
        return self._lists[name]

    def head(self, name: str, rows: int) -> list[str]:
        """The first ``rows`` texts of one part as a list (a sample: no list of all is made)."""
        given = self._given[name]
        if isinstance(given, pa.Array | pa.ChunkedArray):
            return given.slice(0, rows).to_pylist()
        return list(given[:rows])

    def text(self, name: str, row: int) -> str:
        """One text of one part (read from the Arrow array, when the table holds one)."""
        given = self._given[name]
        if isinstance(given, pa.Array | pa.ChunkedArray):
            return given[row].as_py()
        return given[row]

    def array(self, name: str) -> pa.Array:
        """The texts of one part as one Arrow array, made once per table (the surface measures,
        the duplicate search and the lower-cased forms below all read it)."""
        if name not in self._arrays:
            self._arrays[name] = _whole(self._given[name])
        return self._arrays[name]

    def text_slices(self, name: str, rows: int) -> Iterator[tuple[int, pa.Array]]:
        """(first row, texts) of one part, ``rows`` texts at a time, as large-string arrays (an
        Arrow table's texts are sliced where they lie: no copy of all of them is made)."""
        given = self._given[name]
        if name in self._arrays:
            given = self._arrays[name]
        for start in range(0, len(self), rows):
            if isinstance(given, pa.Array | pa.ChunkedArray):
                piece = _whole(given.slice(start, rows))
            else:
                piece = text_array(given[start : start + rows])
            yield start, piece

    def normalised(self, name: str) -> pa.Array:
        """The texts of one part as :func:`~shortcutlab.attributes.lexical.normalised` gives them,
        computed once per table (the tokens and the spaced words both start from them)."""
        if name not in self._normalised:
            self._normalised[name] = normalised(self.array(name))
            release_freed_memory()  # the kernels' intermediate arrays (memory.py)
        return self._normalised[name]

    def spaced(self, name: str) -> pa.Array:
        """The texts of one part as :func:`~shortcutlab.attributes.words.spaced_words` gives them,
        computed once per table (the word-presence and word-list indicators both read them)."""
        if name not in self._spaced:
            self._spaced[name] = spaced_normalised(self.normalised(name))
            release_freed_memory()
        return self._spaced[name]

    def release_word_views(self) -> None:
        """Let the lower-cased and spaced texts go (they are computed again if read again)."""
        self._normalised.clear()
        self._spaced.clear()

    def parts(self) -> tuple[str, ...]:
        return PARTS if self.paired else PARTS[:1]

    def model_inputs(self) -> list[TextInput]:
        """What a model reads: the texts, or (text, text_pair) tuples for paired data."""
        return join_inputs(self.texts, self.text_pairs)

    def rows(self, start: int, stop: int) -> AuditInputs:
        """Rows ``start`` to ``stop`` (Arrow texts sliced where they lie: no copy)."""
        stop = min(stop, len(self))

        def cut(given: Texts) -> Texts:
            if isinstance(given, pa.Array | pa.ChunkedArray):
                return given.slice(start, stop - start)
            return given[start:stop]

        return AuditInputs(
            row_ids=self.row_ids[start:stop],
            texts=cut(self._given["text"]),
            ranks=self.ranks[start:stop],
            labels=self.labels,
            text_pairs=cut(self._given["text_pair"]) if self.paired else None,
            columns={name: values[start:stop] for name, values in self.columns.items()},
        )

    def select(self, rows: Sequence[int] | np.ndarray) -> AuditInputs:
        """The rows at positions ``rows``, in that order."""
        index = np.asarray(rows, dtype=np.int64)

        def pick(given: Texts) -> Texts:
            if isinstance(given, pa.Array | pa.ChunkedArray):
                return given.take(pa.array(index, pa.int64()))
            return [given[i] for i in index]

        return AuditInputs(
            row_ids=self.row_ids[index],
            texts=pick(self._given["text"]),
            ranks=self.ranks[index],
            labels=self.labels,
            text_pairs=pick(self._given["text_pair"]) if self.paired else None,
            columns={name: [values[i] for i in index] for name, values in self.columns.items()},
        )


def _whole(texts: Texts) -> pa.Array:
    """``texts`` as one large-string Arrow array (an array of that type is taken as it is)."""
    if isinstance(texts, pa.ChunkedArray):
        texts = texts.cast(pa.large_string()).combine_chunks()
        return texts if isinstance(texts, pa.Array) else pa.concat_arrays(texts.chunks)
    if isinstance(texts, pa.Array):
        return texts if texts.type == pa.large_string() else texts.cast(pa.large_string())
    return text_array(texts)


def inputs_from_table(
    table: pa.Table,
    *,
    role: str,
    labels: LabelSpace | None = None,
    given_labels: Sequence[Any] | None = None,
    metadata: Sequence[str] = (),
) -> AuditInputs:
    """The audit's inputs of a loaded table (canonical columns): its texts stay Arrow arrays;
    ``labels`` (the training table's) ranks its labels, else they are inferred here."""
    missing = [name for name in metadata if name not in table.column_names]
    if missing:
        there = [c for c in table.column_names if c not in (ROW_ID, TEXT, TEXT_PAIR, LABEL)]
        fix = (
            f"Its other columns: {listed(there, limit=LISTED_NAMES)}. Name one of them with "
            f"{ended(_metadata())}"
            if there
            else f"It has no column besides the text and the label; leave out {ended(_metadata())}"
        )
        raise DataError(
            f"The {role} table has no metadata column {listed(missing, show=repr)}. {fix}"
        )
    label_column = table.column(LABEL)
    if labels is None:
        seen = pc.unique(label_column).to_pylist()
        if not given_labels and all(isinstance(v, str) for v in seen):
            # The audit names labels by value, so their order only sets the order of the label
            # counts; sorted, it does not depend on which row comes first (and needs no warning).
            given_labels = sorted(seen)
        labels = LabelSpace.infer(label_column, given=given_labels, source=f"the {role} table")
    return AuditInputs(
        row_ids=np.asarray(table.column(ROW_ID).to_numpy(), dtype=np.int64),
        texts=_text_column(table.column(TEXT)),
        ranks=labels.ranks(label_column, where=f"the {role} table"),
        labels=labels,
        text_pairs=_text_column(table.column(TEXT_PAIR))
        if TEXT_PAIR in table.column_names
        else None,
        # As pandas reads them (a whole float is its integer, a missing entry NaN): the values'
        # names are the candidates' names.
        columns={name: table.column(name).to_pandas().tolist() for name in metadata},
    )


def _text_column(column: pa.ChunkedArray) -> Texts:
    """A text column as the audit reads it: the Arrow strings (a missing entry, which only a
    table loaded with on_empty="keep" holds, reads as pandas writes it)."""
    if (
        column.null_count
        or not pa.types.is_string(column.type)
        and not pa.types.is_large_string(column.type)
    ):
        return column.to_pandas().astype(str).tolist()
    return column


def _metadata() -> str:
    """The audit's metadata columns as the caller names them (one ``--meta-col`` per column)."""
    return knob("metadata", flag="--meta-col")
