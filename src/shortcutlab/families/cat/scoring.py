"""Score several input sets with one batched ``predict_proba`` call over their unique inputs.

CAT scores k counterfactual sets of the same rows (paper 003 section 3.3); donors repeat across
sets and x2 repeats across rows, so identical (x1', x2) inputs are scored once and their
probabilities scattered back. One call also lets a model batch across sets (a transformer fills
its batches, an LLM client caches).

Examples:
    >>> class Lengths:
    ...     calls = 0
    ...     def predict_proba(self, inputs):
    ...         self.calls += 1
    ...         return np.array([[len(a) % 2, 1 - len(a) % 2] for a, _ in inputs], dtype=float)
    >>> model = Lengths()
    >>> found, unique = predict_sets(model, [[("ab", "x"), ("a", "x")], [("ab", "x")]])
    >>> [p.argmax(axis=1).tolist() for p in found], unique, model.calls
    ([[1, 0], [1]], 2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.errors import DataError


def predict_sets(model: Any, sets: Sequence[Sequence[TextInput]]) -> tuple[list[np.ndarray], int]:
    """Probabilities for every set (rows in set order) and the number of unique inputs scored."""
    positions: dict[TextInput, int] = {}
    index = [
        np.array([positions.setdefault(item, len(positions)) for item in s], dtype=np.int64)
        for s in sets
    ]
    unique = list(positions)
    if not unique:
        return [np.zeros((0, 0)) for _ in sets], 0
    probabilities = np.asarray(model.predict_proba(unique))
    if probabilities.ndim != 2 or len(probabilities) != len(unique):
        raise DataError(
            f"The model returned probabilities of shape {probabilities.shape} for "
            f"{len(unique)} inputs; expected ({len(unique)}, classes)."
        )
    return [probabilities[rows] for rows in index], len(unique)
