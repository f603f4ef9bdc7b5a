"""features(x) and last_layer() of the backends that have a last layer: softmax(features @ W.T + b)
reproduces predict_proba, with labels the training split lacked at probability 0."""

import numpy as np
import pytest

from shortcutlab.models import MODELS, make_model
from shortcutlab.models.base import LastLayerModel
from tests.models.pair_data import entailed_words_pairs
from tests.models.test_common import LABELS, PROBES, TEXTS
from tests.models.toy_model import with_toy

LAST_LAYER = with_toy(lambda: MODELS.having("last_layer"))


def softmax_of_last_layer(model, inputs):
    weights, bias = model.last_layer()
    logits = np.asarray(model.features(inputs) @ weights.T) + bias
    logits -= logits.max(axis=1, keepdims=True)
    return np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)


@pytest.mark.parametrize("name", with_toy())
def test_a_model_has_a_last_layer_exactly_when_its_registry_line_says_so(name):
    has_one = issubclass(MODELS.get(name), LastLayerModel)  # features() and last_layer()
    assert has_one == MODELS.capabilities(name)["last_layer"]


@pytest.mark.parametrize("name", LAST_LAYER)
def test_softmax_of_the_last_layer_is_predict_proba_with_an_unseen_label(name, small_params):
    model = make_model(name, small_params.get(name, {}), seed=0)
    model.fit(TEXTS, LABELS, n_classes=4)  # label 3 unseen
    weights, bias = model.last_layer()
    features = model.features(PROBES)
    assert weights.shape == (4, features.shape[1]) and bias.shape == (4,)
    assert bias[3] == -np.inf and not weights[3].any()
    assert np.allclose(softmax_of_last_layer(model, PROBES), model.predict_proba(PROBES), atol=1e-5)


@pytest.mark.parametrize("name", LAST_LAYER)
def test_a_binary_model_gets_a_row_per_label(name, small_params):
    model = make_model(name, small_params.get(name, {}), seed=0)
    keep = LABELS != 1
    model.fit(
        [t for t, k in zip(TEXTS, keep, strict=True) if k],
        (LABELS[keep] == 2).astype(int),
        n_classes=2,
    )
    assert model.last_layer()[0].shape[0] == 2
    assert np.allclose(softmax_of_last_layer(model, PROBES), model.predict_proba(PROBES), atol=1e-5)


@pytest.mark.parametrize("name", LAST_LAYER)
def test_pair_features_feed_the_last_layer(name, small_params):
    inputs, labels = entailed_words_pairs(40, seed=0)
    model = make_model(name, small_params.get(name, {}), seed=0).fit(inputs, labels, n_classes=2)
    assert np.allclose(
        softmax_of_last_layer(model, inputs[:5]), model.predict_proba(inputs[:5]), atol=1e-5
    )


def test_tfidf_features_are_the_sparse_tfidf_vectors_and_a_one_label_fit_has_a_constant_layer():
    texts = ["aa bb", "bb cc", "cc dd"]
    model = make_model("tfidf-logreg").fit(texts, np.array([1, 1, 1]), n_classes=3)
    features = model.features(["aa bb", "zzz"])
    assert features.format == "csr" and features.shape == (2, 7)  # 4 words + 3 bigrams
    weights, bias = model.last_layer()
    assert not weights.any() and bias.tolist() == [-np.inf, 0.0, -np.inf]
    assert features[1].nnz == 0 and features[0].nnz == 3
    assert np.allclose(softmax_of_last_layer(model, ["aa bb"]), model.predict_proba(["aa bb"]))
