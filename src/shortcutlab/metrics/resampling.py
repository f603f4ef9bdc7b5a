"""The one resampling engine behind every bootstrap of the package, and what summarises a bootstrap.

:func:`resample` draws the resamples: each draws rows with replacement (one draw shared by every
fit, or one per fit when the fits were tested on different rows) and, for a two-level bootstrap,
also the fits (multinomial weights, so the interval includes the variance between fits); a
statistic turns each chunk of draws into values. The paired Δ of a Maze group, a mitigation
against erm, the MPS gaps, the audit's means and the explained rows' means are all such
statistics, so they share one seeding and one draw order.

Draws come in chunks that hold at most :data:`MAX_DRAWN` row indices at once. The draw order
within a chunk (rows, then fit weights) and the chunk sizes are part of the result: a seed gives
the same intervals only if both stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

#: Row indices held in memory at once: resamples are drawn in chunks of at most this many.
MAX_DRAWN = 2_000_000


@dataclass(frozen=True)
class Draw:
    """One chunk of resamples: per fit, the drawn row indices (resamples, rows of that fit), and
    the weight of each fit in each resample (resamples, fits; every row sums to 1)."""

    rows: Sequence[np.ndarray]
    weights: np.ndarray

    @property
    def size(self) -> int:
        """How many resamples the chunk holds."""
        return len(self.weights)


Statistic = Callable[[Draw], dict[str, np.ndarray]]


def resample(
    statistic: Statistic,
    *,
    row_counts: Sequence[int],
    n_resamples: int,
    seed: int | np.random.SeedSequence | np.random.Generator = 0,
    shared_rows: bool = True,
    resample_fits: bool = False,
    cost: int | None = None,
) -> dict[str, np.ndarray]:
    """Bootstrap distributions of each value ``statistic`` returns, ``n_resamples`` per name.

    ``row_counts`` holds one count per fit (the rows it was tested on). With ``shared_rows`` every
    fit has the same rows, so one row draw serves them all; otherwise each fit's rows are drawn in
    turn. ``resample_fits`` also draws the fits with replacement; without it every fit weighs
    ``1 / fits``. ``cost`` is the number of row indices one resample holds (default: the most
    rows of a fit), which sizes the chunks; ``cost=0`` draws every resample in one go.

    Examples:
        The mean of three values over five resamples:

        >>> values = np.array([1.0, 2.0, 3.0])
        >>> means = resample(lambda draw: {"mean": values[draw.rows[0]].mean(axis=1)},
        ...                  row_counts=[3], n_resamples=5, seed=0)
        >>> means["mean"].shape
        (5,)
    """
    rng = np.random.default_rng(seed)
    n_fits = len(row_counts)
    per_resample = max(row_counts, default=0) if cost is None else cost
    chunk = max(1, min(n_resamples, MAX_DRAWN // per_resample)) if per_resample else n_resamples
    parts: dict[str, list[np.ndarray]] = {}
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        if shared_rows:
            rows = [rng.integers(row_counts[0], size=(size, row_counts[0]))] * n_fits
        else:
            rows = [rng.integers(count, size=(size, count)) for count in row_counts]
        if resample_fits:
            weights = rng.multinomial(n_fits, np.full(n_fits, 1.0 / n_fits), size=size) / n_fits
        else:
            weights = np.full((size, n_fits), 1.0 / n_fits)
        for name, values in statistic(Draw(rows, weights)).items():
            parts.setdefault(name, []).append(values)
        done += size
    return {name: np.concatenate(values) for name, values in parts.items()}


def resampled_means(
    values: np.ndarray,
    *,
    n_resamples: int,
    seed: int | np.random.SeedSequence | np.random.Generator = 0,
    cost: int | None = None,
) -> np.ndarray:
    """Bootstrap distribution of the mean of ``values`` (rows drawn with replacement; ``cost`` as
    in :func:`resample`).

    Examples:
        >>> resampled_means(np.array([2.0, 2.0]), n_resamples=3).tolist()
        [2.0, 2.0, 2.0]
    """
    values = np.asarray(values, dtype=np.float64)
    means = resample(
        lambda draw: {"mean": values[draw.rows[0]].mean(axis=1)},
        row_counts=[len(values)],
        n_resamples=n_resamples,
        seed=seed,
        cost=cost,
    )
    return means["mean"]


def confusion_stack(truth: np.ndarray, predicted: np.ndarray, n_classes: int) -> np.ndarray:
    """(resamples, K, K + 1) confusion matrices of drawn rows: ``truth`` and ``predicted`` are
    (resamples, rows) label ranks; a prediction below 0 (no valid answer) counts in the last
    column, as in :func:`~shortcutlab.metrics.classification.confusion`.

    Examples:
        >>> confusion_stack(np.array([[0, 1, 1]]), np.array([[0, -1, 0]]), 2).tolist()
        [[[1, 0, 0], [1, 0, 1]]]
    """
    size = len(truth)
    width = n_classes + 1
    offset = np.arange(size)[:, None] * n_classes * width
    codes = offset + truth * width + np.where(predicted < 0, n_classes, predicted)
    counts = np.bincount(codes.ravel(), minlength=size * n_classes * width)
    return counts.reshape(size, n_classes, width)


def percentile_interval(samples: np.ndarray, confidence: float = 0.95) -> list[float]:
    """The percentile bootstrap interval of ``samples``.

    Examples:
        >>> [round(bound, 6) for bound in percentile_interval(np.arange(101.0))]
        [2.5, 97.5]
    """
    tail = (1 - confidence) / 2 * 100
    return [float(np.percentile(samples, tail)), float(np.percentile(samples, 100 - tail))]


def bootstrap_p_value(samples: np.ndarray, estimate: float) -> float:
    """Two-sided p-value of "delta = 0" from the bootstrap standard error: a normal approximation,
    z = estimate / SE, not an exact test.

    A percentile p-value cannot go below 2/(B+1), which a Holm correction over a grid then pushes
    above any alpha; the standard-error z-test has no such floor.

    Examples:
        >>> round(bootstrap_p_value(np.array([0.1, 0.2, 0.3]), 0.2), 4)
        0.0455
    """
    from scipy.stats import norm  # scipy.stats costs ~0.4 s to import: a stored report needs none

    se = float(np.std(samples, ddof=1))
    if se == 0.0:
        return 1.0 if estimate == 0 else 0.0
    return float(2 * norm.sf(abs(estimate) / se))
