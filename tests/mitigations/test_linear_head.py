"""The torch softmax-linear head: scikit-learn's solution at the same C, sparse = dense, labels
without rows left out, objectives called, standardisation folded into the head."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.last_layer import (
    feature_standardisation,
    head_logits,
    softmax,
    standardised_head,
)
from shortcutlab.mitigations.linear_head import HeadTraining, decay_for_c, train_head

FULL = HeadTraining(epochs=500, batch_size=None)


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(0)
    features = rng.normal(size=(300, 6))
    labels = (features @ rng.normal(size=(3, 6)).T + rng.normal(size=(300, 3))).argmax(axis=1)
    return features, labels


def test_full_batch_head_is_scikit_learns_logistic_regression(blobs):
    from sklearn.linear_model import LogisticRegression

    features, labels = blobs
    reference = LogisticRegression(C=0.5, max_iter=5000, tol=1e-10).fit(features, labels)
    weights, bias = train_head(
        features, labels, 3, training=FULL, seed=0, decay=decay_for_c(0.5, len(labels))
    )
    assert weights == pytest.approx(reference.coef_, abs=1e-4)
    # softmax is shift-invariant: compare the biases up to a constant
    assert bias - bias.mean() == pytest.approx(
        reference.intercept_ - reference.intercept_.mean(), abs=1e-4
    )


def test_sparse_features_give_the_dense_head(blobs):
    features, labels = blobs
    training = HeadTraining(epochs=3, lr=0.05, batch_size=32)
    dense = train_head(features, labels, 3, training=training, seed=1)
    sparse = train_head(sp.csr_matrix(features), labels, 3, training=training, seed=1)
    assert sparse[0] == pytest.approx(dense[0], abs=1e-12)
    assert sparse[1] == pytest.approx(dense[1], abs=1e-12)


def test_a_label_without_rows_gets_probability_zero(blobs):
    features, labels = blobs
    head = train_head(features, labels, 4, training=FULL, seed=0, decay=0.01)
    assert head[1][3] == -np.inf
    probabilities = softmax(head_logits(features, head))
    assert (probabilities[:, 3] == 0).all()
    assert probabilities.sum(axis=1) == pytest.approx(np.ones(len(labels)))


def test_the_pull_keeps_the_head_near_its_anchor(blobs):
    features, labels = blobs
    anchor = (np.zeros((3, 6)), np.zeros(3))
    loose = train_head(features, labels, 3, training=FULL, seed=0, anchor=anchor, pull=1e-4)
    tight = train_head(features, labels, 3, training=FULL, seed=0, anchor=anchor, pull=10.0)
    assert np.abs(tight[0]).max() < 0.1 < np.abs(loose[0]).max()


class _CountingObjective:
    """Mean loss; records how it was called."""

    needs_hidden_states = False

    def __init__(self):
        self.started, self.rows_seen = None, 0

    def start(self, model, n_rows):
        self.started = n_rows

    def loss(self, losses, index, *, model, inputs, outputs):
        self.rows_seen += len(index)
        return losses.mean()


def test_an_objective_is_started_once_and_sees_every_row_each_epoch(blobs):
    features, labels = blobs
    objective = _CountingObjective()
    train_head(
        features,
        labels,
        3,
        training=HeadTraining(epochs=2, batch_size=50),
        seed=0,
        objective=objective,
    )
    assert objective.started == 300
    assert objective.rows_seen == 600


def test_an_objective_needs_minibatches(blobs):
    features, labels = blobs
    with pytest.raises(ConfigError, match="train the head with minibatches"):
        train_head(features, labels, 3, training=FULL, seed=0, objective=_CountingObjective())


@pytest.mark.parametrize("sparse", [False, True])
def test_standardisation_folds_into_the_head(blobs, sparse):
    features, _ = blobs
    features = np.abs(features) if sparse else features
    given = sp.csr_matrix(features) if sparse else features
    mean, scale = feature_standardisation(given)
    head = (np.arange(18.0).reshape(3, 6), np.array([1.0, -1.0, 0.5]))
    expected = ((features - mean) / scale) @ head[0].T + head[1]
    assert head_logits(given, standardised_head(head, mean, scale)) == pytest.approx(expected)
    if sparse:
        assert (mean == 0).all()
