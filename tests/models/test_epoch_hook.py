"""The end-of-epoch hook behind MPS's average_last_epochs: predictions with each epoch's weights,
without disturbing training; models without epochs refuse it."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import MODELS, make_model
from tests.models.test_transformer import FAST, toy
from tests.models.toy_model import with_toy


def _fit_watching(name, params, texts, labels, test_texts):
    model = make_model(name, params, seed=0)
    seen = {}
    model.on_epoch_end(lambda epoch: seen.update({epoch: model.predict_proba(test_texts)}))
    model.fit(texts, labels, n_classes=3)
    return model, seen


EPOCH_MODELS = ["bow-mlp", "transformer"]


@pytest.mark.parametrize("name", EPOCH_MODELS)
def test_each_epoch_predicts_with_its_weights_and_training_is_unchanged(name, tiny_bert):
    texts, labels = toy(120, seed=0)
    test_texts, _ = toy(30, seed=1)
    params = (
        {"epochs": 4, "min_count": 1}
        if name == "bow-mlp"
        else {"path": str(tiny_bert), **FAST, "select_by": "last"}
    )
    watched, seen = _fit_watching(name, params, texts, labels, test_texts)
    assert sorted(seen) == [1, 2, 3, 4]
    plain = make_model(name, params, seed=0).fit(texts, labels, n_classes=3)
    final = plain.predict_proba(test_texts)
    assert np.array_equal(watched.predict_proba(test_texts), final)  # the hook changed nothing
    assert np.allclose(seen[4], final)  # the last epoch's predictions are the kept weights'
    assert not np.allclose(seen[1], seen[4])  # and earlier epochs differ


def test_the_epoch_test_covers_every_model_declared_with_epochs():
    assert MODELS.having("epochs") == EPOCH_MODELS


@pytest.mark.parametrize("name", with_toy(lambda: MODELS.having("epochs", False)))
def test_models_declared_without_epochs_refuse_the_hook(name, small_params):
    model = make_model(name, small_params.get(name, {}))
    with pytest.raises(ConfigError, match=f"The {name} model is not trained in epochs"):
        model.on_epoch_end(lambda epoch: None)
