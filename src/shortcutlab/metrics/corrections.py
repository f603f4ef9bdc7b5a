"""Corrections of many p-values at once: Holm–Bonferroni (family-wise error) for the grids' drops,
Benjamini–Hochberg (false discovery rate, scipy's ``false_discovery_control``) for the audit's
many candidates.
"""

from __future__ import annotations

import numpy as np

from shortcutlab.params import check_choice

#: Correction methods over many tests: Benjamini–Hochberg (false discovery rate), Holm (family-wise).
CORRECTIONS = ("bh", "holm")


def holm(p_values: np.ndarray | list[float]) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (family-wise error control across a grid).

    Examples:
        >>> holm([0.01, 0.04, 0.03]).round(2).tolist()
        [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped) if m else stepped
    return adjusted


def adjust_p(p_values: np.ndarray, method: str = "bh") -> np.ndarray:
    """Adjusted p-values: ``"bh"`` (Benjamini-Hochberg, FDR) or ``"holm"`` (family-wise).

    NaN entries (tests that could not be run) stay NaN and do not count among the tests.

    Examples:
        >>> adjust_p(np.array([0.01, np.nan, 0.04]), "holm").round(2).tolist()
        [0.02, nan, 0.04]
        >>> adjust_p(np.array([0.01, 0.04, 0.03, 0.005]), "bh").round(3).tolist()
        [0.02, 0.04, 0.04, 0.02]
    """
    from scipy.stats import false_discovery_control  # ~0.4 s to import: Holm alone needs none

    check_choice("correction", method, CORRECTIONS)
    p = np.asarray(p_values, dtype=np.float64)
    adjusted = np.full(len(p), np.nan)
    present = ~np.isnan(p)
    adjust = false_discovery_control if method == "bh" else holm
    adjusted[present] = adjust(p[present])
    return adjusted
