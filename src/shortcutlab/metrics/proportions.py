"""Unpaired comparison of two accuracies: the two-proportion z-test, the Cochran–Mantel–Haenszel
test over strata, and a bootstrap of the difference of two independent means.

Suite sets that are not derived row by row from ``standard`` (the HANS-style sets) share no rows
with it, so McNemar's paired test does not apply; their accuracy is compared as two independent
proportions (pooled-variance z-test, a normal approximation).
"""

from __future__ import annotations

import numpy as np
from scipy.special import chdtrc, ndtr  # what scipy.stats' chi2.sf and norm.sf evaluate

from shortcutlab.errors import DataError
from shortcutlab.metrics.resampling import resampled_means


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
    return {"z": z, "p_value": float(2 * ndtr(-abs(z)))}


def cochran_mantel_haenszel(*, tables: np.ndarray) -> dict[str, float]:
    """Cochran–Mantel–Haenszel test of "no association in any stratum" over ``tables`` of shape
    (strata, 2, 2): rows are the two groups, columns the two outcomes (e.g. right, wrong).

    Each stratum's top-left count ``a`` is compared with its expectation given the margins,
    ``E = n1 m1 / N``, under the hypergeometric variance ``n1 n2 m1 (N − m1) / (N² (N − 1))``;
    the statistic ``(Σ (a − E))² / Σ Var`` (no continuity correction) is chi-squared with 1 df.
    Exact margins make it valid for small strata, where a Wald variance p̂(1 − p̂)/n is 0.
    When no stratum has both groups and both outcomes, the margins fix every table: p = 1.

    Examples:
        R's ``mantelhaen.test(Rabbits)`` reports 3.9286 with its continuity correction,
        (|Σ (a − E)| − 0.5)² / Σ Var; without it:

        >>> rabbits = np.array([[[0, 6], [0, 5]], [[3, 3], [0, 6]], [[6, 0], [2, 4]],
        ...                     [[5, 1], [6, 0]], [[2, 0], [5, 0]]])
        >>> result = cochran_mantel_haenszel(tables=rabbits)
        >>> round(result["statistic"], 4), round(result["p_value"], 4)
        (5.6571, 0.0174)
        >>> round((abs(result["observed_minus_expected"]) - 0.5) ** 2 / result["variance"], 4)
        3.9286
    """
    counts = np.asarray(tables, dtype=np.float64)
    if counts.ndim != 3 or counts.shape[1:] != (2, 2):
        raise DataError(
            f"The Cochran–Mantel–Haenszel test needs one 2×2 table per stratum, an array of shape "
            f"(strata, 2, 2); got shape {counts.shape}."
        )
    n1, n2 = counts[:, 0].sum(axis=1), counts[:, 1].sum(axis=1)
    m1 = counts[:, :, 0].sum(axis=1)
    total = n1 + n2
    # A stratum of fewer than 2 rows fixes its table (and would divide by N − 1 = 0).
    used = total >= 2
    n1, n2, m1, total, a = n1[used], n2[used], m1[used], total[used], counts[used, 0, 0]
    difference = float(np.sum(a - n1 * m1 / total))
    variance = float(np.sum(n1 * n2 * m1 * (total - m1) / (total**2 * (total - 1))))
    if variance == 0.0:
        return {"statistic": 0.0, "p_value": 1.0, "observed_minus_expected": 0.0, "variance": 0.0}
    statistic = difference**2 / variance
    return {
        "statistic": statistic,
        "p_value": float(chdtrc(1, statistic)),
        "observed_minus_expected": difference,
        "variance": variance,
    }


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
    return resampled_means(values, n_resamples=n_resamples, seed=rng)


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


def binomial_interval(
    successes: int, trials: int, *, method: str = "exact", confidence: float = 0.95
) -> list[float]:
    """A share's interval as scipy's ``binomtest(...).proportion_ci`` gives it: ``exact``
    (Clopper–Pearson, matching the exact binomial test: a flip rate, a sign test's share) or
    ``wilson``.

    Examples:
        >>> [round(v, 4) for v in binomial_interval(3, 10)]
        [0.0667, 0.6525]
    """
    if trials <= 0:
        raise ValueError("binomial_interval needs at least one trial.")
    from scipy.stats import binomtest  # only here: importing scipy.stats costs 0.5 s

    interval = binomtest(successes, trials).proportion_ci(confidence, method=method)
    return [float(interval.low), float(interval.high)]
