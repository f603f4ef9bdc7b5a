"""The rows an audit reads: texts (and second texts of pairs), label ranks and metadata columns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from shortcutlab.attributes.lexical import normalised, text_array
from shortcutlab.attributes.words import spaced_normalised
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.pairs import TextInput, join_inputs
from shortcutlab.families.audit.memory import release_freed_memory

#: The parts of a row an audit scans: ``text`` and, for paired data, ``text_pair``.
PARTS = ("text", "text_pair")


@dataclass
class AuditInputs:
    """One table of an audit (the training rows or the test rows), in the label space's ranks.

    ``columns`` holds the metadata columns the user named (raw entries, one per row).
    """

    row_ids: np.ndarray
    texts: list[str]
    ranks: np.ndarray
    labels: LabelSpace
    text_pairs: list[str] | None = None
    columns: dict[str, list[Any]] = field(default_factory=dict)
    _spaced: dict[str, pa.Array] = field(default_factory=dict, repr=False, compare=False)
    _arrays: dict[str, pa.Array] = field(default_factory=dict, repr=False, compare=False)
    _normalised: dict[str, pa.Array] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.texts)

    @property
    def paired(self) -> bool:
        return self.text_pairs is not None

    def part(self, name: str) -> list[str]:
        """The texts of one part: ``text`` or ``text_pair``."""
        if name == "text_pair":
            if self.text_pairs is None:
                raise ValueError("this table has no text_pair column")
            return self.text_pairs
        return self.texts

    def array(self, name: str) -> pa.Array:
        """The texts of one part as one Arrow array, made once per table (the surface measures,
        the duplicate search and the lower-cased forms below all read it)."""
        if name not in self._arrays:
            self._arrays[name] = text_array(self.part(name))
        return self._arrays[name]

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

    def keep_spaced(self, name: str, spaced: pa.Array) -> None:
        """:meth:`spaced` of one part, made by a reader that had it on the way (the token scan,
        which was also the last reader of the lower-cased texts: they are let go, and made again
        if read again)."""
        self._spaced[name] = spaced
        self._normalised.pop(name, None)

    def release_word_views(self) -> None:
        """Let the lower-cased and spaced texts go (they are computed again if read again): the
        indicators that read them are built, and the matrices built next need the memory."""
        self._normalised.clear()
        self._spaced.clear()

    def parts(self) -> tuple[str, ...]:
        return PARTS if self.paired else PARTS[:1]

    def model_inputs(self) -> list[TextInput]:
        """What a model reads: the texts, or (text, text_pair) tuples for paired data."""
        return join_inputs(self.texts, self.text_pairs)

    def select(self, rows: Sequence[int] | np.ndarray) -> AuditInputs:
        """The rows at positions ``rows``, in that order."""
        index = np.asarray(rows, dtype=np.int64)
        return AuditInputs(
            row_ids=self.row_ids[index],
            texts=[self.texts[i] for i in index],
            ranks=self.ranks[index],
            labels=self.labels,
            text_pairs=None if self.text_pairs is None else [self.text_pairs[i] for i in index],
            columns={name: [values[i] for i in index] for name, values in self.columns.items()},
        )
