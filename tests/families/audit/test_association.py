"""Indicator-label association: planted cues are found, null tables give nothing after correction,
and the statistics match hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from shortcutlab.errors import ConfigError
from shortcutlab.families.audit.association import (
    adjust_p,
    association_drift,
    column_association,
    feature_association,
)
from shortcutlab.families.audit.features import FeatureConfig, fit_features
from shortcutlab.metrics import benjamini_hochberg, holm
from tests.families.audit.tables import random_sentences, table

SCAN = FeatureConfig(min_support=10, attributes=("negation", "question"), packaged_lexicons=False)


def _scan(texts, labels):
    train = table(texts, labels)
    _, features = fit_features(train, SCAN)
    result = feature_association(features.matrix, train.ranks, len(train.labels))
    return features, result, adjust_p(result["p_value"], "bh")


def test_a_planted_token_is_found_with_its_label_and_lift():
    rng = np.random.default_rng(1)
    texts = random_sentences(3000, seed=2)
    labels = rng.integers(3, size=3000)
    planted = rng.choice(3000, size=120, replace=False)
    for i in planted[:108]:  # 90 % of the planted rows carry label 2
        labels[i] = 2
    for i in planted:
        texts[i] = texts[i] + " zebra"
    features, result, adjusted = _scan(texts, labels.tolist())
    significant = np.flatnonzero(adjusted < 0.05)
    best = significant[np.argmax(result["evidence"][significant])]
    assert features.names[result["feature"][best]] == "zebra" and result["label"][best] == 2
    # The lift from the written table itself: share of label 2 among "zebra" rows over its prior.
    with_zebra = np.array([t.endswith(" zebra") for t in texts])
    expected_lift = (labels[with_zebra] == 2).mean() / (labels == 2).mean()
    assert result["support"][best] == 120
    assert result["lift"][best] == pytest.approx(expected_lift)
    assert result["pmi"][best] == pytest.approx(np.log2(expected_lift))


def test_labels_independent_of_the_text_give_no_candidate_after_bh():
    texts = random_sentences(3000, seed=3, words=100)
    labels = np.random.default_rng(4).integers(3, size=3000).tolist()
    _, result, adjusted = _scan(texts, labels)
    assert len(result["p_value"]) > 100  # a hundred tests were run
    assert result["p_value"].min() < 0.05  # some raw p-values are small by chance...
    assert not (adjusted < 0.05).any()  # ...and none survives the correction


def _scipy_g_of_independence(with_feature: np.ndarray, ranks: np.ndarray, k: int) -> float:
    """G of the 2×K table (rows with the feature, rows without) × label, from scipy."""
    table = np.array(
        [
            np.bincount(ranks[with_feature], minlength=k),
            np.bincount(ranks[~with_feature], minlength=k),
        ]
    )
    return stats.chi2_contingency(table, correction=False, lambda_="log-likelihood")[0]


def test_g_is_the_test_of_independence_against_the_rows_without_the_feature():
    # The first feature is on 60 % of the rows: against the prior of all rows (its own rows
    # included) G would be 8.9 here, not 21.9.
    ranks = np.repeat([0, 1, 2], [300, 300, 400])
    with_feature = np.zeros(1000, bool)
    for label, count in enumerate([150, 180, 270]):
        with_feature[np.flatnonzero(ranks == label)[:count]] = True
    rng = np.random.default_rng(8)
    others = rng.random((1000, 3)) < [0.05, 0.3, 0.9]
    matrix = sp.csr_matrix(np.column_stack([with_feature, others]))
    result = feature_association(matrix, ranks, 3)
    expected = [_scipy_g_of_independence(column, ranks, 3) for column in matrix.toarray().T == 1]
    assert result["statistic"][0] == pytest.approx(21.86, abs=0.01)
    assert result["statistic"].tolist() == pytest.approx(expected, rel=1e-9)
    assert result["p_value"].tolist() == pytest.approx(stats.chi2.sf(expected, 2).tolist())
    # Lift stays against the prior of all rows: 270/600 of the feature's rows over 400/1000.
    assert int(result["label"][0]) == 2
    assert result["lift"][0] == pytest.approx((270 / 600) / 0.4)


def test_null_features_on_nine_rows_in_ten_reject_at_the_nominal_rate():
    # 2,000 features independent of the label: about 5 % reject at 0.05 (binomial sd 0.5 %).
    rng = np.random.default_rng(11)
    ranks = rng.integers(3, size=1000)
    result = feature_association(sp.csr_matrix(rng.random((1000, 2000)) < 0.9), ranks, 3)
    assert 0.03 < (result["p_value"] < 0.05).mean() < 0.07


def test_a_feature_on_every_row_or_none_is_not_evidence():
    ranks = np.array([0, 1, 2] * 10)
    matrix = sp.csr_matrix(np.column_stack([np.ones(30), np.zeros(30)]))
    result = feature_association(matrix, ranks, 3)
    assert result["p_value"].tolist() == [1.0, 1.0] and result["evidence"].tolist() == [0.0, 0.0]


def test_evidence_stays_finite_and_ordered_past_the_tail_underflow():
    ranks = np.repeat([0, 1, 2], 20000)
    strong = ranks == 0  # on every row of label 0 and no other
    stronger = (ranks == 0) | (np.arange(60000) % 3 == 0) & (ranks == 1)
    result = feature_association(sp.csr_matrix(np.column_stack([strong, stronger])), ranks, 3)
    assert result["p_value"].tolist() == [0.0, 0.0]
    assert np.isfinite(result["evidence"]).all() and result["evidence"][0] > 300


def test_a_feature_that_mainly_lowers_a_label_says_so():
    # Three labels of 300 rows; the feature is on 10 rows of label 0 and 95 of each other label.
    ranks = np.repeat([0, 1, 2], 300)
    present = np.zeros(900, bool)
    for label, count in enumerate([10, 95, 95]):
        present[np.flatnonzero(ranks == label)[:count]] = True
    result = feature_association(sp.csr_matrix(present[:, None]), ranks, 3)
    assert int(result["label"][0]) == 1  # largest lift, the lowest rank on the tie
    assert int(result["main_label"][0]) == 0
    assert result["main_lift"][0] == pytest.approx(10 / (200 / 3))


def test_bh_and_holm_against_hand_examples():
    p = [0.01, 0.02, 0.03, 0.04, 0.05]
    assert benjamini_hochberg(p).tolist() == pytest.approx([0.05] * 5)
    assert holm(p).tolist() == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    # BH: 0.001*4/1 = .004; .04*4/3 = .0533 is lifted by nothing and caps .03*4/2 = .06 down.
    assert benjamini_hochberg([0.03, 0.001, 0.04, 0.9]).tolist() == pytest.approx(
        [0.0533333, 0.004, 0.0533333, 0.9], rel=1e-5
    )
    adjusted = adjust_p(np.array([0.03, np.nan, 0.001, 0.04, 0.9]), "bh")
    assert np.isnan(adjusted[1]) and adjusted[[0, 2, 3, 4]].tolist() == pytest.approx(
        [0.0533333, 0.004, 0.0533333, 0.9], rel=1e-5
    )
    with pytest.raises(
        ConfigError, match="'correction' parameter must be one of bh, holm. Got 'fdr'"
    ):
        adjust_p(np.array([0.1]), "fdr")


def test_column_association_of_a_dependent_and_an_independent_column():
    ranks = np.array([0, 0, 1, 1] * 25)
    same = column_association(["a", "a", "b", "b"] * 25, ranks, 2)
    assert same["cramers_v"] == pytest.approx(1.0) and same["mutual_information"] == pytest.approx(
        1.0
    )
    assert same["dof"] == 1 and same["p_value"] < 1e-20
    crossed = column_association(["a", "b"] * 50, ranks, 2)
    assert crossed["cramers_v"] == pytest.approx(0.0) and crossed["p_value"] == pytest.approx(1.0)
    constant = column_association(["a"] * 100 + [None], np.append(ranks, 0), 2)
    assert constant["cramers_v"] is None and constant["rows"] == 100


def test_association_drift_against_a_hand_woolf_z_value():
    # train [40, 60, 60, 840], test [5, 45, 45, 405] (+0.5 each):
    # log OR 2.2348 and 0.0000 (5.5*405.5 / 45.5^2 = 1.0773 -> 0.0745), variances .0635 and .2310
    p = association_drift(
        np.array([[40, 60, 60, 840], [3, 0, 10, 10]]), np.array([[5, 45, 45, 405], [0, 0, 4, 4]])
    )
    z = abs(np.log(40.5 * 840.5 / (60.5 * 60.5)) - np.log(5.5 * 405.5 / (45.5 * 45.5)))
    z /= np.sqrt(sum(1 / x for x in (40.5, 60.5, 60.5, 840.5, 5.5, 45.5, 45.5, 405.5)))
    assert p[0] == pytest.approx(2 * stats.norm.sf(z), rel=1e-9)
    assert np.isnan(p[1])  # no test row has the indicator


def test_a_different_label_mix_alone_is_not_drift():
    # The same odds ratio (association) with a test set twice as rich in the label.
    p = association_drift(np.array([[40, 60, 60, 840]]), np.array([[80, 60, 120, 740]]))
    assert p[0] > 0.5


def test_feature_association_picks_the_label_a_graded_cue_raises_most():
    rng = np.random.default_rng(3)
    ranks = np.repeat(np.arange(4), 500)
    cue = rng.random(2000) < np.repeat([0.2, 0.4, 0.6, 0.8], 500)
    result = feature_association(sp.csr_matrix(cue[:, None]), ranks, 4)
    assert int(result["label"][0]) == 3
    assert result["p_value"][0] < 1e-30
    counts = [int((cue & (ranks == k)).sum()) for k in range(4)]
    assert result["counts"][0].tolist() == counts
    # Both rows of the 2×4 table: 500 rows per label, expected n/4 with the cue, (2000-n)/4 without.
    n = cue.sum()
    g = 2 * sum(
        c * np.log(c / (n / 4)) + (500 - c) * np.log((500 - c) / ((2000 - n) / 4)) for c in counts
    )
    assert result["statistic"][0] == pytest.approx(g)


def test_sparse_counts_equal_a_dense_count():
    rng = np.random.default_rng(5)
    dense = rng.random((200, 7)) < 0.3
    ranks = rng.integers(4, size=200)
    result = feature_association(sp.csr_matrix(dense), ranks, 4)
    counts = np.array(
        [[int((dense[:, f] & (ranks == k)).sum()) for k in range(4)] for f in range(7)]
    )
    assert result["counts"].tolist() == counts.tolist()
    assert result["support"].tolist() == dense.sum(axis=0).tolist()
    assert result["label_count"].tolist() == counts[np.arange(7), result["label"]].tolist()
