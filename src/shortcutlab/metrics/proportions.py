"""Unpaired comparison of two accuracies: the two-proportion z-test and a bootstrap of the
difference of two independent means.

Suite sets that are not derived row by row from ``standard`` (the HANS-style sets) share no rows
with it, so McNemar's paired test does not apply; their accuracy is compared as two independent
proportions (pooled-variance z-test, a normal approximation).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm


def two_proportion_z_test(*, correct_a: np.ndarray, correct_b: np.ndarray) -> dict[str, float]:
    """Two-sided z-test of "accuracy(A) = accuracy(B)" for independent samples.

    Examples:
        >>> result = two_proportion_z_test(correct_a=np.array([1] * 80 + [0] * 20),
        ...                                correct_b=np.array([1] * 50 + [0] * 50))
        >>> round(result["z"], 3), result["p_value"] < 0.001
        (4.447, True)
    """
    a = np.asarray(correct_a, dtype=np.float64)
    b = np.asarray(correct_b, dtype=np.float64)
    if len(a) == 0 or len(b) == 0:
        return {"z": float("nan"), "p_value": float("nan")}
    pooled = (a.sum() + b.sum()) / (len(a) + len(b))
    se = float(np.sqrt(pooled * (1 - pooled) * (1 / len(a) + 1 / len(b))))
    difference = float(a.mean() - b.mean())
    if se == 0.0:  # both all right or all wrong: no evidence of a difference
        return {"z": 0.0, "p_value": 1.0}
    z = difference / se
    return {"z": z, "p_value": float(2 * norm.sf(abs(z)))}


def bootstrap_means(
    values: np.ndarray, *, n_resamples: int = 1000, seed: int | np.random.SeedSequence = 0
) -> np.ndarray:
    """Bootstrap distribution of the mean of ``values`` (rows drawn with replacement).

    For 0/1 values (correctness) the resampled count of ones is exactly Binomial(n, mean), so it
    is drawn as such: the same distribution as resampling rows, at O(resamples) cost.

    Examples:
        >>> bootstrap_means(np.array([1, 1, 1]), n_resamples=3).tolist()
        [1.0, 1.0, 1.0]
        >>> bootstrap_means(np.array([0.5, 0.5]), n_resamples=2).tolist()
        [0.5, 0.5]
    """
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    rng = np.random.default_rng(seed)
    if n == 0:
        return np.full(n_resamples, np.nan)
    if np.isin(values, (0.0, 1.0)).all():
        return rng.binomial(n, values.mean(), size=n_resamples) / n
    means = []
    chunk = max(1, min(n_resamples, 2_000_000 // n))
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        means.append(values[rng.integers(n, size=(size, n))].mean(axis=1))
        done += size
    return np.concatenate(means)


def bootstrap_mean_difference(
    a: np.ndarray, b: np.ndarray, *, n_resamples: int = 1000, seed: int = 0
) -> np.ndarray:
    """Bootstrap distribution of mean(a) - mean(b) for independent samples: the rows of each are
    resampled separately (neither sample's size changes).

    Examples:
        >>> bootstrap_mean_difference(np.array([1, 1]), np.array([0, 0, 0]), n_resamples=2).tolist()
        [1.0, 1.0]
    """
    seed_a, seed_b = np.random.SeedSequence(seed).spawn(2)
    return bootstrap_means(a, n_resamples=n_resamples, seed=seed_a) - bootstrap_means(
        b, n_resamples=n_resamples, seed=seed_b
    )
