"""Small audit tables built inside the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.audit.inputs import AuditInputs
from shortcutlab.data.labels import LabelSpace


def table(
    texts: Sequence[str],
    labels: Sequence[Any],
    *,
    pairs: Sequence[str] | None = None,
    columns: dict[str, list[Any]] | None = None,
    space: Sequence[Any] | None = None,
) -> AuditInputs:
    """An AuditInputs over ``texts`` with label values ``labels`` (ranks in ``space`` order)."""
    label_space = LabelSpace(tuple(space if space is not None else sorted(set(labels))))
    return AuditInputs(
        row_ids=np.arange(len(texts)),
        texts=list(texts),
        ranks=label_space.ranks(list(labels)),
        labels=label_space,
        text_pairs=None if pairs is None else list(pairs),
        columns=columns or {},
    )


def random_sentences(rows: int, seed: int, words: int = 200, length: int = 8) -> list[str]:
    """Sentences of ``length`` words drawn uniformly from ``w0 .. w{words-1}``."""
    rng = np.random.default_rng(seed)
    drawn = rng.integers(words, size=(rows, length))
    return [" ".join(f"w{i}" for i in row) for row in drawn]
