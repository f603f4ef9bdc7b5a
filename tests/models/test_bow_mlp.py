"""bow-mlp: vocabulary from the training split, learning, validation-loss selection."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import make_model
from shortcutlab.models.bow_mlp import build_vocabulary, tokenize

WORDS = ["alpha", "bravo", "charlie"]


def toy(n, seed):
    """Three labels, each marked by one word among shared filler words."""
    labels = np.random.default_rng(seed).integers(0, 3, n)
    return [f"the item {WORDS[label]} was number {i % 7}" for i, label in enumerate(labels)], labels


def test_vocabulary_counts_training_tokens_only():
    documents = [tokenize("A b a", bigrams=True), tokenize("a c", bigrams=True)]
    assert build_vocabulary(documents, min_count=2, max_size=10) == {"a": 0}
    assert list(build_vocabulary(documents, min_count=1, max_size=3)) == ["a", "a b", "a c"]
    model = make_model("bow-mlp", {"epochs": 1, "min_count": 1, "bigrams": False})
    model.fit(["good thing"], np.array([0]), n_classes=2, validation=(["unseen"], np.array([1])))
    assert set(model.vocabulary_) == {"good", "thing"}


def test_learns_a_separable_task():
    texts, labels = toy(300, seed=0)
    test_texts, test_labels = toy(100, seed=1)
    model = make_model("bow-mlp", {"epochs": 15, "lr": 1e-2, "min_count": 1}, seed=0)
    model.fit(texts, labels, n_classes=3)
    assert (model.predict(test_texts) == test_labels).mean() > 0.9
    assert len(model.history_) == 15 and model.best_epoch_ == 15


def test_keeps_the_best_validation_epoch_and_stops_early():
    texts, labels = toy(200, seed=0)
    flipped = (labels + 1) % 3  # the better it learns the training labels, the worse this gets
    model = make_model("bow-mlp", {"epochs": 30, "lr": 1e-2, "patience": 2, "min_count": 1})
    model.fit(texts, labels, n_classes=3, validation=(texts, flipped))
    losses = [record["val_loss"] for record in model.history_]
    assert len(losses) < 30  # stopped early
    assert model.best_epoch_ == int(np.argmin(losses)) + 1
    assert len(losses) == model.best_epoch_ + 2  # two epochs without improvement
    proba = model.predict_proba(texts)
    kept_loss = -np.log(proba[np.arange(len(texts)), flipped]).mean()
    assert kept_loss == pytest.approx(min(losses), rel=1e-4)


def test_other_seeds_give_other_models():
    texts, labels = toy(60, seed=0)
    params = {"epochs": 2, "min_count": 1}
    first = make_model("bow-mlp", params, seed=0).fit(texts, labels, n_classes=3)
    second = make_model("bow-mlp", params, seed=1).fit(texts, labels, n_classes=3)
    assert not np.array_equal(first.predict_proba(texts), second.predict_proba(texts))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"lr": -1}, "The 'lr' parameter of bow-mlp must be a positive float. Got -1 instead."),
        ({"epochs": 0}, "The 'epochs' parameter of bow-mlp must be a positive integer. Got 0"),
        ({"bigrams": "yes"}, "The 'bigrams' parameter of bow-mlp must be true or false"),
        ({"device": "gpu"}, "The 'device' parameter of bow-mlp must be 'auto', 'cpu', 'cuda'"),
    ],
)
def test_bad_parameters_are_config_errors(params, message):
    with pytest.raises(ConfigError, match=message):
        make_model("bow-mlp", params).fit(["a b"], np.array([0]), n_classes=2)
