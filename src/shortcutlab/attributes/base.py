"""Attributes: one value per row (a topic, a negation, a frequent word), or none.

MPS (paper 002, section 2.2) redistributes labels around an attribute the texts already have.
An :class:`Attribute` annotates texts with string values; ``None`` means the row has no value
and is left out of the build (a WFS row with none of the frequent words, an embedding answer
under the margin, an LLM answer outside the category list).

Data-dependent attributes (the frequent words of a data set) are *fitted* on the training pool
first, so a separate test file is annotated with the pool's words; ``config()`` then records what
was fitted, and the manifest keeps it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Annotation:
    """Per-row values (``object`` array of ``str`` or ``None``) and what the annotator reports."""

    values: np.ndarray
    details: dict[str, Any] = field(default_factory=dict)  # e.g. {"invalid": 3} for LLM answers

    def counts(self) -> dict[str, int]:
        """Rows per value, most frequent first (ties by name); rows without a value are left out."""
        present = [v for v in self.values.tolist() if v is not None]
        names, counts = np.unique(np.asarray(present, dtype=object).astype(str), return_counts=True)
        order = sorted(
            zip(names.tolist(), counts.tolist(), strict=True), key=lambda p: (-p[1], p[0])
        )
        return {name: int(count) for name, count in order}


class Attribute(ABC):
    """An annotator of one attribute. Subclasses set ``name`` (the registry name)."""

    name: str = ""
    #: Columns of the input table the annotator reads besides the text (the ``column`` attribute).
    needs_columns: tuple[str, ...] = ()

    @property
    def column(self) -> str:
        """The output column holding the values: the registry name with underscores."""
        return self.name.replace("-", "_")

    def fitted(self, texts: Sequence[str]) -> Attribute:
        """The annotator with its data-dependent choices fixed on ``texts`` (the training pool)."""
        return self

    @abstractmethod
    def annotate(
        self, texts: Sequence[str], columns: Mapping[str, Sequence[Any]] | None = None
    ) -> Annotation:
        """One value (or ``None``) per text."""

    @abstractmethod
    def config(self) -> dict[str, Any]:
        """What determines the values, as plain JSON (the cache key and the manifest entry)."""

    def possible_values(self) -> list[str] | None:
        """The values this annotator can give, when known before annotating (else ``None``)."""
        return None
