"""One perturbation class's figures on its changed rows, each paired to its source row.

- accuracy on the original and on the perturbed rows, and the drop (original − perturbed) with a
  95 % paired percentile bootstrap interval (the rows' per-row drops resampled together) and an
  exact McNemar p on the paired correctness; Holm-adjusted over the build's classes. Where no
  pair is discordant (right on one side, wrong on the other) every resample's drop is 0 and the
  bootstrap's [0, 0] would claim a certainty the rows do not give; the interval is then ± the
  exact 95 % upper bound on the share of discordant pairs (|drop| never exceeds that share), and
  ``drop_interval`` says so;
- the flip rate: the share of rows whose prediction changed, with an exact 95 %
  (Clopper–Pearson) interval (``shortcutlab check`` judges an INV class's pass rate, the share
  kept, as 1 − flip rate);
- for a DIR class, CheckList's directional expectation (Ribeiro et al. 2020, section 2): the
  probability of the expected label should go up. Of the rows where that probability changed,
  the share where it went up, with an exact 95 % (Clopper–Pearson) interval and an exact
  two-sided sign test against 0.5, Holm-adjusted over the DIR classes. Two-sided, because a
  perturbation that moves the model the wrong way reliably (an added "not" raising the positive
  probability) is a finding as well, which a one-sided test would report as p = 1. Secondary:
  of the rows not already predicted as the expected label, the share whose predicted label
  switched to it (a model that is robust rarely switches labels on one inserted word, so this
  share has no chance level to test against).

Examples:
    >>> figures = class_statistics(
    ...     truth_original=np.array([0, 1, 1, 0]), truth_perturbed=np.array([0, 1, 1, 0]),
    ...     pred_original=np.array([0, 1, 1, 0]), pred_perturbed=np.array([0, 0, 1, 1]),
    ...     n_resamples=200, seed=0)
    >>> figures["accuracy_original"], figures["accuracy_perturbed"], figures["drop"], figures["flip_rate"]
    (1.0, 0.5, 0.5, 0.5)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.metrics import holm, mcnemar_exact
from shortcutlab.metrics.proportions import binomial_interval
from shortcutlab.metrics.resampling import percentile_interval, resampled_means

#: How the drop's interval was made (``drop_interval``), in the words the tidy table's
#: ``interval`` column gives.
BOOTSTRAP_DROP = "paired bootstrap over rows"
NO_DISCORDANT_DROP = (
    "no pair discordant: ± the exact (Clopper–Pearson) 95 % upper bound on the discordant share"
)


def class_statistics(
    *,
    truth_original: np.ndarray,
    truth_perturbed: np.ndarray,
    pred_original: np.ndarray,
    pred_perturbed: np.ndarray,
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """The figures of every class (see the module docstring): accuracies, the drop and flips."""
    right_original = np.asarray(pred_original) == np.asarray(truth_original)
    right_perturbed = np.asarray(pred_perturbed) == np.asarray(truth_perturbed)
    rows = len(right_original)
    figures: dict[str, Any] = {"rows": rows}
    if rows == 0:
        return figures
    per_row_drop = right_original.astype(float) - right_perturbed.astype(float)
    discordant = int(np.count_nonzero(per_row_drop))
    if discordant:
        samples = resampled_means(per_row_drop, n_resamples=n_resamples, seed=seed)
        low, high = percentile_interval(samples)
    else:  # the bootstrap has nothing to resample (module docstring)
        bound = binomial_interval(0, rows)[1]
        low, high = -bound, bound
    figures |= {
        "accuracy_original": float(right_original.mean()),
        "accuracy_perturbed": float(right_perturbed.mean()),
        "drop": float(per_row_drop.mean()),
        "drop_ci_low": low,
        "drop_ci_high": high,
        "drop_interval": BOOTSTRAP_DROP if discordant else NO_DISCORDANT_DROP,
        "discordant": discordant,
        "p_mcnemar": mcnemar_exact(correct_a=right_original, correct_b=right_perturbed)["p_value"],
        "flips": int((np.asarray(pred_original) != np.asarray(pred_perturbed)).sum()),
    }
    figures["flip_rate"] = figures["flips"] / rows
    figures["flip_rate_ci_low"], figures["flip_rate_ci_high"] = binomial_interval(
        figures["flips"], rows
    )
    return figures


def paired_statistics(
    *,
    truth_original: np.ndarray,
    truth_perturbed: np.ndarray,
    proba_original: np.ndarray,
    proba_perturbed: np.ndarray,
    direction: bool,
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """A class's figures from the paired probabilities (rows × labels) of its changed rows:
    :func:`class_statistics` on the predicted labels and, for a DIR class (``direction``, whose
    ``truth_perturbed`` is the expected label), :func:`direction_statistics`."""
    from shortcutlab.engine.cell import predicted_labels

    figures = class_statistics(
        truth_original=truth_original,
        truth_perturbed=truth_perturbed,
        pred_original=predicted_labels(proba_original),
        pred_perturbed=predicted_labels(proba_perturbed),
        n_resamples=n_resamples,
        seed=seed,
    )
    if direction and len(truth_perturbed):
        figures |= direction_statistics(
            proba_original=proba_original, proba_perturbed=proba_perturbed, expected=truth_perturbed
        )
    return figures


def direction_statistics(
    *, proba_original: np.ndarray, proba_perturbed: np.ndarray, expected: np.ndarray
) -> dict[str, Any]:
    """A DIR class's figures (module docstring) from the paired probabilities (rows × labels)
    and the expected label ranks; rows where either side gave no valid answer (all-zero
    probabilities) are left out.

    Examples:
        >>> before = np.array([[0.6, 0.4], [0.7, 0.3], [0.2, 0.8], [0.5, 0.5]])
        >>> after = np.array([[0.4, 0.6], [0.6, 0.4], [0.3, 0.7], [0.5, 0.5]])
        >>> figures = direction_statistics(
        ...     proba_original=before, proba_perturbed=after, expected=np.array([1, 1, 1, 1]))
        >>> figures["direction_rows"], figures["toward_expected"], figures["moved_to_expected"]
        (3, 0.6666666666666666, 0.3333333333333333)
    """
    from scipy.stats import binomtest  # scipy.stats is slow to import: only a DIR class needs it

    before, after = np.asarray(proba_original), np.asarray(proba_perturbed)
    valid = (before.sum(axis=1) > 0) & (after.sum(axis=1) > 0)
    rows, expected = np.flatnonzero(valid), np.asarray(expected)[valid]
    gain = after[rows, expected].astype(float) - before[rows, expected].astype(float)
    up, moved = int((gain > 0).sum()), int((gain != 0).sum())
    figures: dict[str, Any] = {"direction_rows": moved}
    if moved:
        low, high = binomial_interval(up, moved)
        figures |= {
            "toward_expected": up / moved,
            "toward_expected_ci_low": low,
            "toward_expected_ci_high": high,
            "p_toward_expected": float(binomtest(up, moved, 0.5, alternative="two-sided").pvalue),
        }
    was, now = before[rows].argmax(axis=1), after[rows].argmax(axis=1)
    eligible = was != expected
    figures["expected_rows"] = int(eligible.sum())
    if eligible.any():
        figures["moved_to_expected"] = float((now[eligible] == expected[eligible]).mean())
    return figures


#: Each p-value a class may carry -> the key of its Holm adjustment over the classes carrying it.
ADJUSTED = {"p_mcnemar": "p_mcnemar_holm", "p_toward_expected": "p_toward_expected_holm"}


def with_holm(classes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The classes' figures with ``p_mcnemar_holm`` (McNemar's p adjusted over the classes
    measured; a class without changed rows has none) and, for DIR classes,
    ``p_toward_expected_holm`` (the sign test's p adjusted over the DIR classes)."""
    for key, adjusted_key in ADJUSTED.items():
        measured = [c for c in classes if c.get(key) is not None and not pd.isna(c[key])]
        adjusted = holm([c[key] for c in measured]) if measured else []
        for figures, p in zip(measured, adjusted, strict=True):
            figures[adjusted_key] = float(p)
    return classes
