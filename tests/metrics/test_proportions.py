"""Cochran–Mantel–Haenszel: R's published value, the one-stratum identity with Pearson's
chi-squared, degenerate strata, and its level on strata with tiny, all-right cells."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from shortcutlab.errors import DataError
from shortcutlab.metrics import cochran_mantel_haenszel

# R's datasets::Rabbits (penicillin and streptococci, 5 strata): per stratum, rows are the
# treatments, columns cured / died.
RABBITS = np.array(
    [[[0, 6], [0, 5]], [[3, 3], [0, 6]], [[6, 0], [2, 4]], [[5, 1], [6, 0]], [[2, 0], [5, 0]]]
)


def test_rabbits_match_r_mantelhaen_test():
    result = cochran_mantel_haenszel(tables=RABBITS)
    # R: mantelhaen.test(Rabbits) gives X-squared = 3.9286 with its continuity correction.
    corrected = (abs(result["observed_minus_expected"]) - 0.5) ** 2 / result["variance"]
    assert corrected == pytest.approx(3.9286, abs=1e-4)
    assert result["observed_minus_expected"] == 3.0
    assert result["variance"] == pytest.approx(35 / 22)
    assert result["statistic"] == pytest.approx(198 / 35)  # uncorrected: 3² / (35/22)
    assert result["p_value"] == pytest.approx(0.017384, abs=1e-6)


def test_one_stratum_is_pearsons_chi_squared_times_n_minus_1_over_n():
    table = np.array([[30, 12], [18, 25]])
    pearson, p, _, _ = chi2_contingency(table, correction=False)
    result = cochran_mantel_haenszel(tables=table[None])
    assert result["statistic"] == pytest.approx(pearson * (table.sum() - 1) / table.sum())
    assert result["p_value"] > p  # the hypergeometric variance is the larger one


def test_strata_that_fix_their_table_add_nothing():
    informative = np.array([[[8, 2], [5, 5]]])
    degenerate = np.array(
        [
            [[10, 0], [4, 0]],  # everyone right
            [[0, 0], [3, 2]],  # one group empty
            [[1, 0], [0, 0]],  # one row
        ]
    )
    alone = cochran_mantel_haenszel(tables=informative)
    assert cochran_mantel_haenszel(tables=np.concatenate([informative, degenerate])) == alone
    assert cochran_mantel_haenszel(tables=degenerate) == {
        "statistic": 0.0,
        "p_value": 1.0,
        "observed_minus_expected": 0.0,
        "variance": 0.0,
    }


def test_the_level_holds_on_small_cells_that_are_often_all_right():
    """No difference in any stratum, accuracy 0.9, strata with 5-, 3- and 12-row groups next to
    large ones. 4,000 fixed draws: the rejection rate at 5 % stays within 0.03..0.07 (the
    binomial sd of 4,000 draws at 0.05 is 0.0034)."""
    rng = np.random.default_rng(7)
    sizes = np.array([[500, 500], [995, 5], [40, 3], [200, 12]])
    right = rng.binomial(sizes, 0.9, size=(4000, *sizes.shape))
    tables = np.stack([right, sizes - right], axis=-1)
    rate = np.mean([cochran_mantel_haenszel(tables=t)["p_value"] < 0.05 for t in tables])
    assert 0.03 < rate < 0.07


def test_a_wrong_shape_is_a_data_error():
    with pytest.raises(DataError, match=r"one 2×2 table per stratum.*got shape \(2, 2\)"):
        cochran_mantel_haenszel(tables=np.array([[1, 2], [3, 4]]))
