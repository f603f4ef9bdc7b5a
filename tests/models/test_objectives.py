"""The training-objective hook of the torch backends (models/objectives.py): what it is given, and
that the loss it returns is what training follows."""

import numpy as np
import pytest
import torch

from shortcutlab.errors import ConfigError
from shortcutlab.models import MODELS, make_model
from tests.models.test_sample_weight import AMBIGUOUS, LABELS, TEXTS
from tests.models.toy_model import with_toy

OBJECTIVE = with_toy(lambda: MODELS.having("objective"))


class PlainMean:
    """The unhooked loss, written as an objective; it records what each step hands it."""

    needs_hidden_states = False

    def __init__(self):
        self.started, self.indices, self.outputs = [], [], []

    def start(self, model, n_rows):
        self.started.append(n_rows)

    def loss(self, losses, index, *, model, inputs, outputs):
        self.indices.append(index.tolist())
        self.outputs.append(outputs)
        return losses.mean()


DOUBLE_LABEL_ONE = np.where(LABELS == 1, 2.0, 1.0)


class LabelOneRowsCountDouble:
    """Rows labelled 1 weigh double, looked up by their row index (weights at mean 1, as
    sample weights are scaled)."""

    needs_hidden_states = False

    def start(self, model, n_rows):
        weights = DOUBLE_LABEL_ONE / DOUBLE_LABEL_ONE.mean()
        self.weights = torch.as_tensor(weights, dtype=torch.float32)

    def loss(self, losses, index, **_):
        return (self.weights[index] * losses).mean()


@pytest.mark.parametrize("name", with_toy(lambda: MODELS.having("objective", False)))
def test_a_model_declared_without_an_objective_refuses_one(name, small_params):
    model = make_model(name, small_params.get(name, {}))
    with pytest.raises(ConfigError, match=f"^The {name} model is not trained by gradient steps"):
        model.set_objective(PlainMean())


def fitted(name, params, objective=None, **fit_options):
    model = make_model(name, params, seed=0)
    model.set_objective(objective)
    return model.fit(TEXTS, LABELS, n_classes=3, **fit_options)


@pytest.mark.parametrize("name", OBJECTIVE)
def test_an_objective_returning_the_plain_mean_reproduces_the_unhooked_model_exactly(
    name, small_params
):
    params = small_params.get(name, {})
    objective = PlainMean()
    validation = (TEXTS[:6], LABELS[:6])
    hooked = fitted(name, params, objective, validation=validation)
    plain = fitted(name, params, validation=validation)
    assert np.array_equal(hooked.predict_proba(TEXTS), plain.predict_proba(TEXTS))
    assert [r["val_loss"] for r in hooked.history_] == [r["val_loss"] for r in plain.history_]
    assert objective.started == [len(TEXTS)]
    epochs = len(hooked.history_)
    seen = sorted(i for batch in objective.indices for i in batch)
    assert seen == sorted(list(range(len(TEXTS))) * epochs)  # every row once per epoch


@pytest.mark.parametrize("name", OBJECTIVE)
def test_an_objective_weighting_rows_by_index_moves_predictions_like_sample_weights(
    name, small_params
):
    params = small_params.get(name, {})
    hooked = fitted(name, params, LabelOneRowsCountDouble()).predict_proba(TEXTS)
    weighted = fitted(name, params, sample_weight=DOUBLE_LABEL_ONE).predict_proba(TEXTS)
    plain = fitted(name, params).predict_proba(TEXTS)
    ambiguous = TEXTS.index(AMBIGUOUS)
    assert hooked[ambiguous, 1] > plain[ambiguous, 1]
    assert np.array_equal(hooked, weighted)


def test_bow_mlp_hands_the_objective_its_logits_and_bags():
    seen_inputs = []

    class Recording(PlainMean):
        def loss(self, losses, index, *, model, inputs, outputs):
            seen_inputs.append(sorted(inputs))
            assert outputs.shape == (len(index), 2)
            return super().loss(losses, index, model=model, inputs=inputs, outputs=outputs)

    objective = Recording()
    fitted("bow-mlp", {"epochs": 1, "min_count": 1}, objective)
    assert seen_inputs[0] == ["ids", "offsets"]


def test_an_objective_and_sample_weights_together_are_refused(small_params):
    model = make_model("bow-mlp", small_params["bow-mlp"])
    model.set_objective(PlainMean())
    with pytest.raises(ConfigError, match="both a training objective and sample weights"):
        model.fit(TEXTS, LABELS, n_classes=2, sample_weight=np.ones(len(TEXTS)))


def test_a_model_without_the_hook_and_a_malformed_objective_are_config_errors():
    with pytest.raises(ConfigError, match="Models that do: bow-mlp"):
        make_model("tfidf-logreg").set_objective(PlainMean())
    with pytest.raises(ConfigError, match="lacks start, loss, needs_hidden_states"):
        make_model("bow-mlp").set_objective(object())


def test_an_objective_returning_per_row_losses_is_refused_with_its_shape():
    class PerRow(PlainMean):
        def loss(self, losses, index, **_):
            return losses

    model = make_model("bow-mlp", {"epochs": 1, "min_count": 1})
    model.set_objective(PerRow())
    with pytest.raises(ConfigError, match=r"PerRow\.loss returned a tensor of shape \(\d+,\)"):
        model.fit(TEXTS, LABELS, n_classes=2)
