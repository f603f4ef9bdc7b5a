"""The audit's scan on planted and null texts: the G-test of :mod:`shortcutlab.metrics.association`
finds a planted cue with its label and lift, and gives nothing after Benjamini–Hochberg where the
labels are independent of the text."""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.families.audit.scan.features import FeatureConfig, fit_features
from shortcutlab.metrics import adjust_p
from shortcutlab.metrics.association import count_association
from tests.families.audit.tables import random_sentences, table

SCAN = FeatureConfig(min_support=10, attributes=("negation", "question"), packaged_lexicons=False)


def _scan(texts, labels):
    train = table(texts, labels)
    _, features = fit_features(train, SCAN)
    counted = features.counts
    result = count_association(counted.counts, counted.support, np.bincount(train.ranks))
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
