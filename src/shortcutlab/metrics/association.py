"""Association of indicators and columns with the labels: the G-test of each indicator (is the
label mix of its rows that of the other rows?), a column's chi-squared test, Cramér's V and mutual
information, and the drift of an association between two splits (the audit's test statistics).

For indicator ``f`` on ``n`` of ``N`` rows, the 2×K table of (rows with ``f``, rows without) ×
label gets the likelihood-ratio (G) test of independence, chi-squared with K - 1 degrees of
freedom, and ``-log10 p`` (from the log survival function, finite where ``p`` underflows to 0)
ranks candidates by the strength of the evidence. The effect size is reported for the label the
indicator raises most: with ``k`` of its rows carrying a label of prior share ``π`` (over all
rows), lift ``k / (n π)`` and PMI ``log2`` lift, as Gururangan et al. (2018, section 3) rank
hypothesis words by PMI with each label.

Every function works on whole arrays: one sparse product counts all F×K (feature, label) pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

# scipy.special's survival functions are what scipy.stats' chi2.sf and norm.sf evaluate;
# importing scipy.stats itself costs half a second of every audit's start.
from scipy.special import chdtr, chdtrc, gammaincinv, gammaln, ndtr

_LN10 = np.log(10.0)


def feature_association(
    matrix: sp.spmatrix, ranks: np.ndarray, n_classes: int
) -> dict[str, np.ndarray]:
    """One entry per feature: does the label distribution of its rows differ from the other rows'?

    Gardner et al. (2021, section 3) test one feature's p(y | x) against what an uninformative
    feature would give; here as the likelihood-ratio (G) test of independence on the 2×K table
    (rows with the feature × label, rows without × label), chi-squared with K - 1 degrees of
    freedom. Against the rows without the feature, not the prior of all rows: the prior holds the
    feature's own rows, which shrinks G by about (1 - n/N) (a feature on 90 % of the rows could
    never reject). A cue injected with graded rates across labels (0.2 / 0.4 / 0.6 / 0.8) departs
    in every label at once; one test over the whole distribution counts all of it.

    ``label`` is the label the feature raises most (largest lift; the lowest rank on ties), and
    ``label_count``, ``p_label``, ``prior``, ``lift`` and ``pmi`` are that label's, measured
    against the label shares of ALL rows (``lift = p_label / prior``). ``main_label`` is the label
    whose column adds most to G and ``main_lift`` its lift: a feature that mostly lowers a label
    has ``main_lift`` < 1. ``evidence`` is -log10 p, finite where p underflows. ``counts`` is
    (F, K).

    Examples:
        >>> m = sp.csr_matrix(np.array([[1]] * 30 + [[0]] * 30))
        >>> ranks = np.array([1] * 25 + [0] * 5 + [0] * 25 + [1] * 5)
        >>> result = feature_association(m, ranks, 2)
        >>> int(result["label"][0]), round(float(result["lift"][0]), 2)
        (1, 1.67)
        >>> round(float(result["statistic"][0]), 1)  # 2 (50 ln(25/15) + 10 ln(5/15)), E = 15 per cell
        29.1
    """
    ranks = np.asarray(ranks, dtype=np.int64)
    counts, support = label_counts(matrix, ranks, n_classes)
    return count_association(counts, support, np.bincount(ranks, minlength=n_classes))


def count_association(
    counts: np.ndarray, support: np.ndarray, totals: np.ndarray
) -> dict[str, np.ndarray]:
    """:func:`feature_association` from the counts alone: ``counts`` (F, K) rows with each
    feature and each label, ``support`` (F,) rows with each feature, ``totals`` (K,) rows of each
    label (a scan that counted its rows a slice at a time holds no matrix).

    Examples:
        >>> result = count_association(np.array([[5, 25]]), np.array([30]), np.array([30, 30]))
        >>> int(result["label"][0]), round(float(result["lift"][0]), 2)
        (1, 1.67)
    """
    counts = np.asarray(counts, dtype=np.int64)
    support = np.asarray(support, dtype=np.int64)
    n_classes = len(totals)
    n_rows = int(np.sum(totals))
    totals = np.asarray(totals).astype(np.float64)
    shares = totals / max(n_rows, 1)
    without = totals[None, :] - counts
    # Expected counts under independence: each row's size times the label shares of all rows.
    expected_with = support[:, None] * shares[None, :]
    expected_without = (n_rows - support)[:, None] * shares[None, :]
    # Per label, its column's part of G: 2 * sum O ln(O / E) over its two cells (>= 0, a
    # Kullback-Leibler divergence of the column's split times its size).
    by_label = 2 * (
        _o_log_o_over_e(counts, expected_with) + _o_log_o_over_e(without, expected_without)
    )
    statistic = np.maximum(by_label.sum(axis=1), 0.0)
    degrees = max(n_classes - 1, 1)
    tested = (support > 0) & (support < n_rows)
    p_value = np.where(tested, chdtrc(degrees, statistic), 1.0)
    evidence = np.where(tested, chi2_evidence(statistic, degrees), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lift = np.where(expected_with > 0, counts / expected_with, np.nan)
    rows = np.arange(len(counts))
    label = np.argmax(np.nan_to_num(lift, nan=-1.0), axis=1) if len(counts) else np.zeros(0, int)
    main_label = np.argmax(by_label, axis=1) if len(counts) else np.zeros(0, int)
    chosen_lift = lift[rows, label]
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log2(chosen_lift)
    return {
        "feature": rows,
        "support": support,
        "label": label,
        "label_count": counts[rows, label],
        "p_label": np.where(support > 0, counts[rows, label] / np.maximum(support, 1), np.nan),
        "prior": shares[label],
        "lift": chosen_lift,
        "pmi": pmi,
        "main_label": main_label,
        "main_lift": lift[rows, main_label],
        "statistic": statistic,
        "p_value": np.minimum(p_value, 1.0),
        "evidence": np.maximum(evidence, 0.0) + 0.0,
        "counts": counts,
    }


def label_counts(
    matrix: sp.spmatrix, ranks: np.ndarray, n_classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """(F, K) rows with each feature and each label, and (F,) rows with each feature: one sparse
    product over all pairs (a stored zero counts as present, as every indicator stores ones).

    Examples:
        >>> m = sp.csr_matrix(np.array([[1, 0], [1, 1], [0, 1]]))
        >>> counts, support = label_counts(m, np.array([0, 1, 1]), 2)
        >>> counts.tolist(), support.tolist()
        ([[1, 1], [0, 2]], [2, 2])
    """
    ranks = np.asarray(ranks, dtype=np.int64)
    n_rows = len(ranks)
    # int32 throughout: a count is at most the number of rows (half the memory of float64).
    structure = matrix if sp.issparse(matrix) and matrix.format == "csr" else sp.csr_matrix(matrix)
    # Ones on the matrix's own rows and columns (its index arrays shared, not copied).
    indicators = sp.csr_matrix(
        (np.ones(structure.nnz, dtype=np.int32), structure.indices, structure.indptr),
        shape=structure.shape,
    )
    # (labels x rows) @ (rows x features): one pass over the entries, no transposed copy.
    by_label = sp.csr_matrix(
        (np.ones(n_rows, dtype=np.int32), (ranks, np.arange(n_rows))),
        shape=(n_classes, n_rows),
        dtype=np.int32,
    )
    counts = np.ascontiguousarray(np.asarray((by_label @ indicators).todense(), dtype=np.int64).T)
    support = np.bincount(indicators.indices, minlength=indicators.shape[1]).astype(np.int64)
    return counts, support


def _o_log_o_over_e(observed: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """O ln(O / E) per cell, 0 where O is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(observed > 0, observed * np.log(observed / expected), 0.0)


def _chi2_logsf(statistic: np.ndarray, degrees: int) -> np.ndarray:
    """``scipy.stats.chi2.logsf``, as it computes it: log of the survival function above the
    median, log1p of minus the distribution function below it."""
    median = 2 * gammaincinv(degrees / 2, 0.5)
    with np.errstate(divide="ignore"):
        return np.where(
            statistic > median,
            np.log(chdtrc(degrees, statistic)),
            np.log1p(-chdtr(degrees, statistic)),
        )


def chi2_evidence(statistic: np.ndarray, degrees: int) -> np.ndarray:
    """-log10 of the chi-squared survival function, finite where it underflows.

    Where ``logsf`` gives -inf (above ~1,400 at 3 degrees of freedom), the leading term of the upper
    incomplete gamma function's expansion, log Γ(s, z) ≈ (s - 1) log z - z with s = df/2 and
    z = x/2, stands in; it keeps large statistics ordered (at df = 3, x = 1,400 it agrees with
    logsf to 3e-4 of a decade).

    Examples:
        >>> chi2_evidence(np.array([10.0, 2000.0, 1e6]), 3).round(1).tolist()
        [1.7, 432.7, 217144.3]
    """
    statistic = np.asarray(statistic, dtype=np.float64)
    logs = _chi2_logsf(statistic, degrees)
    lost = ~np.isfinite(logs)
    if lost.any():
        s, z = degrees / 2, statistic[lost] / 2
        logs[lost] = (s - 1) * np.log(z) - z - gammaln(s)
    return -np.minimum(logs, 0.0) / _LN10 + 0.0


def column_association(
    values: Sequence, ranks: np.ndarray, n_classes: int
) -> dict[str, float | None]:
    """How strongly a whole column (a metadata column, an attribute) goes with the label.

    Pearson's chi-squared test of independence on the values × labels table (no continuity
    correction), Cramér's V, and mutual information in bits. Rows whose value is None or NaN are
    left out. With fewer than two values or labels nothing can vary: the statistics are None.

    Examples:
        >>> result = column_association(["a", "a", "b", "b"], np.array([0, 0, 1, 1]), 2)
        >>> result["cramers_v"], result["mutual_information"]
        (1.0, 1.0)
    """
    ranks = np.asarray(ranks, dtype=np.int64)
    keep = np.array([not _missing(v) for v in values], dtype=bool)
    names = np.asarray([str(v) for v in values], dtype=object)[keep]
    kept_ranks = ranks[keep]
    codes, categories = _codes(names)
    table = np.zeros((len(categories), n_classes), dtype=np.int64)
    np.add.at(table, (codes, kept_ranks), 1)
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    result: dict[str, float | None] = {
        "rows": int(keep.sum()),
        "chi2": None,
        "dof": None,
        "p_value": None,
        "cramers_v": None,
        "mutual_information": None,
    }
    if min(table.shape) < 2:
        return result
    from scipy.stats import chi2_contingency

    chi2, p_value, dof, _ = chi2_contingency(table, correction=False)
    total = table.sum()
    result.update(
        chi2=float(chi2),
        dof=int(dof),
        p_value=float(p_value),
        cramers_v=float(np.sqrt(chi2 / (total * (min(table.shape) - 1)))),
        mutual_information=float(_mutual_information(codes, kept_ranks) / np.log(2)),
    )
    return result


def association_drift(train: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Two-sided test that an indicator-label association differs between train and test.

    Each argument is (n, 4): per candidate the 2×2 table ``[a, b, c, d]`` of a split, a = rows
    with the indicator and the label, b = with the indicator and another label, c = without the
    indicator with the label, d = the rest. The statistic compares the log odds ratios (Woolf's
    z-test of their difference, 0.5 added to every cell): an odds ratio does not move when only
    the label mix differs between the splits, so a test set with another label prior is not
    drift by itself. NaN where either split has no row with the indicator, or no row without it
    (an indicator on every row has no odds ratio; the smoothing would compare label mixes).

    Examples:
        >>> same = association_drift(np.array([[40, 60, 60, 840]]), np.array([[20, 30, 30, 420]]))
        >>> bool(same[0] > 0.5)
        True
        >>> moved = association_drift(np.array([[40, 60, 60, 840]]), np.array([[5, 45, 45, 405]]))
        >>> bool(moved[0] < 1e-3)
        True
    """
    train = np.asarray(train, dtype=np.float64) + 0.5
    test = np.asarray(test, dtype=np.float64) + 0.5
    p_value = np.full(len(train), np.nan)
    both = (
        (train[:, 0] + train[:, 1] > 1)
        & (test[:, 0] + test[:, 1] > 1)
        & (train[:, 2] + train[:, 3] > 1)
        & (test[:, 2] + test[:, 3] > 1)
    )

    def log_odds(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, b, c, d = table.T
        return np.log(a * d / (b * c)), 1 / a + 1 / b + 1 / c + 1 / d

    (first, var_first), (second, var_second) = log_odds(train[both]), log_odds(test[both])
    z = np.abs(first - second) / np.sqrt(var_first + var_second)
    p_value[both] = 2 * ndtr(-z)
    return p_value


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value))


def _codes(names: np.ndarray) -> tuple[np.ndarray, list[str]]:
    categories = sorted(set(names.tolist()))
    index = {name: i for i, name in enumerate(categories)}
    return np.array([index[name] for name in names.tolist()], dtype=np.int64), categories


def _mutual_information(codes: np.ndarray, ranks: np.ndarray) -> float:
    """scikit-learn's ``mutual_info_score`` (imported here: the audit's indicator tests, which
    import this module, need no scikit-learn)."""
    from sklearn.metrics import mutual_info_score

    return float(mutual_info_score(codes, ranks))
