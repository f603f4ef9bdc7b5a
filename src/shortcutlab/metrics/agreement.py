"""Chance-corrected agreement between annotators: Cohen's κ (two) and Fleiss' κ (two or more).

Both treat the categories as nominal (a 4 against a 5 on a 1-5 scale is as much a disagreement as
a 1 against a 5). κ = (p_o − p_e) / (1 − p_e); when the expected agreement p_e is 1 (every rating
is the same category) κ is undefined and returned as NaN: nothing varied.

Examples:
    >>> round(cohen_kappa(rater_a=["y", "y", "n", "n"], rater_b=["y", "n", "n", "n"]), 4)
    0.5
    >>> round(fleiss_kappa(counts=np.array([[3, 0], [0, 3], [2, 1]])), 4)
    0.55
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.metrics import cohen_kappa_score

from shortcutlab.errors import DataError


def cohen_kappa(*, rater_a: Sequence[Any], rater_b: Sequence[Any]) -> float:
    """Cohen's κ (Cohen 1960) of two raters over the same items, in the same order.

    p_o is the share of items both rated alike; p_e = Σ_k p_a(k) p_b(k) from each rater's own
    category shares (scikit-learn's ``cohen_kappa_score``).
    """
    a = np.asarray([str(v) for v in rater_a], dtype=object)
    b = np.asarray([str(v) for v in rater_b], dtype=object)
    if len(a) != len(b):
        raise DataError(
            f"Cohen's kappa needs the two raters' answers to the same items; got {len(a)} and "
            f"{len(b)} answers."
        )
    if len(a) == 0:
        raise DataError("Cohen's kappa needs at least one item rated by both raters.")
    categories = sorted(set(a) | set(b))
    if len(categories) == 1:  # p_e = 1: every rating is the same category
        return float("nan")
    return float(cohen_kappa_score(a, b, labels=categories))


def fleiss_kappa(*, counts: np.ndarray) -> float:
    """Fleiss' κ (Fleiss 1971) from an (items × categories) table of how many raters chose each
    category; every item must have the same number n ≥ 2 of raters (the raters may differ).

    P_i = (Σ_j n_ij² − n) / (n (n − 1)), p_o = mean P_i, p_j = Σ_i n_ij / (N n), p_e = Σ_j p_j².
    """
    table = np.asarray(counts, dtype=float)
    if table.ndim != 2 or table.shape[0] == 0:
        raise DataError("Fleiss' kappa needs an (items x categories) table with at least one item.")
    raters = table.sum(axis=1)
    if not np.all(raters == raters[0]) or raters[0] < 2:
        raise DataError(
            "Fleiss' kappa needs the same number (at least 2) of raters for every item; got "
            f"{sorted(set(raters.astype(int).tolist()))}. Drop the items rated by fewer."
        )
    n = raters[0]
    per_item = (np.sum(table * table, axis=1) - n) / (n * (n - 1))
    observed = float(per_item.mean())
    shares = table.sum(axis=0) / table.sum()
    expected = float(np.sum(shares * shares))
    return _kappa(observed, expected)


def category_counts(ratings: Sequence[Sequence[Any]]) -> tuple[np.ndarray, list[str]]:
    """The (items × categories) count table of ``ratings`` (one list of answers per item) and
    the categories (sorted), as :func:`fleiss_kappa` takes it.

    Examples:
        >>> counts, names = category_counts([["a", "a", "b"], ["b", "b", "b"]])
        >>> counts.tolist(), names
        ([[2, 1], [0, 3]], ['a', 'b'])
    """
    names = sorted({str(v) for item in ratings for v in item})
    column = {name: i for i, name in enumerate(names)}
    table = np.zeros((len(ratings), len(names)), dtype=np.int64)
    for row, item in enumerate(ratings):
        for value in item:
            table[row, column[str(value)]] += 1
    return table, names


def observed_agreement(ratings: Sequence[Sequence[Any]]) -> float:
    """The mean share of agreeing rater pairs per item (Fleiss' p_o; for two raters, the share of
    items rated alike)."""
    table, _ = category_counts(ratings)
    n = table.sum(axis=1)
    return float(np.mean((np.sum(table * table, axis=1) - n) / (n * (n - 1))))


def _kappa(observed: float, expected: float) -> float:
    if np.isclose(expected, 1.0):
        return float("nan")
    return (observed - expected) / (1.0 - expected)


__all__ = ["category_counts", "cohen_kappa", "fleiss_kappa", "observed_agreement"]
