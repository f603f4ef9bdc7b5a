"""The audit's p-values, evidence and false-discovery adjustment, computed without importing
scipy.stats, are scipy.stats' own to the last bit."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import chi2, false_discovery_control

from shortcutlab.metrics.association import chi2_evidence, feature_association
from shortcutlab.metrics.corrections import adjust_p


@pytest.mark.parametrize("degrees", [1, 2, 3, 5, 27])
def test_the_evidence_is_scipys_logsf(degrees):
    rng = np.random.default_rng(degrees)
    statistic = np.concatenate([[0.0, 1e-300, 2000.0], rng.exponential(4 * degrees, 50_000)])
    logs = chi2.logsf(statistic, degrees)
    finite = np.isfinite(logs)
    expected = -np.minimum(logs[finite], 0.0) / np.log(10) + 0.0
    np.testing.assert_array_equal(chi2_evidence(statistic, degrees)[finite], expected)


@pytest.mark.parametrize("size", [0, 1, 2, 7, 20_000])
def test_benjamini_hochberg_is_scipys(size):
    rng = np.random.default_rng(size)
    p = rng.random(size) ** 8
    p[: size // 3] = p[size // 3 : 2 * (size // 3)]  # ties
    p[rng.random(size) < 0.1] = 0.0  # underflowed p-values
    np.testing.assert_array_equal(adjust_p(p, "bh"), false_discovery_control(p) if size else p)


def test_the_p_values_are_scipys_chi2_sf():
    rng = np.random.default_rng(0)
    matrix = sp.csr_matrix(rng.random((3_000, 40)) < rng.random(40) / 3)
    ranks = rng.integers(4, size=3_000)
    found = feature_association(matrix, ranks, 4)
    tested = (found["support"] > 0) & (found["support"] < 3_000)
    expected = np.where(tested, chi2.sf(found["statistic"], 3), 1.0)
    np.testing.assert_array_equal(found["p_value"], expected)
