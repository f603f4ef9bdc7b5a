"""fit(sample_weight=...) on every backend declared with ``sample_weight``: weights move predictions,
are scaled to mean 1, and bad weights are refused; the other backends refuse any."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.models import MODELS, make_model
from tests.models.toy_model import with_toy

# "plain words here" carries label 0 and label 1 equally often; the other texts are clear cases.
AMBIGUOUS = "plain words here"
TEXTS = [AMBIGUOUS] * 8 + ["great lovely fine"] * 6 + ["awful broken junk"] * 6
LABELS = np.array([0, 1] * 4 + [1] * 6 + [0] * 6)


def ambiguous_proba(name, params, weights):
    model = make_model(name, params, seed=0)
    model.fit(TEXTS, LABELS, n_classes=2, sample_weight=weights)
    return model.predict_proba([AMBIGUOUS])[0, 1]


WEIGHTED = with_toy(lambda: MODELS.having("sample_weight"))


# A fitted function is never fitted (tests/models/test_adapters.py).
@pytest.mark.parametrize(
    "name", with_toy(lambda: [n for n in MODELS.having("sample_weight", False) if n != "function"])
)
def test_a_model_declared_without_sample_weights_refuses_them(name, small_params):
    model = make_model(name, small_params.get(name, {}))
    with pytest.raises(ConfigError, match=f"^The {name} model takes no sample weights"):
        model.fit(TEXTS, LABELS, n_classes=2, sample_weight=np.ones(len(TEXTS)))


@pytest.mark.parametrize("name", WEIGHTED)
def test_weighting_the_rows_of_one_label_up_moves_predictions_towards_it(name, small_params):
    params = small_params.get(name, {})
    plain = ambiguous_proba(name, params, None)
    weights = np.where((np.array(TEXTS) == AMBIGUOUS) & (LABELS == 1), 5.0, 1.0)
    assert (
        ambiguous_proba(name, params, 1 / weights) < plain < ambiguous_proba(name, params, weights)
    )


@pytest.mark.parametrize("name", WEIGHTED)
def test_equal_weights_of_any_size_fit_the_unweighted_model(name, small_params):
    """Weights are scaled to mean 1, so C and learning rates keep their meaning."""
    params = small_params.get(name, {})
    plain = ambiguous_proba(name, params, None)
    assert ambiguous_proba(name, params, np.full(len(TEXTS), 7.0)) == pytest.approx(plain, abs=1e-5)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        (np.ones(3), r"got 20 rows but sample_weight has shape \(3,\); give one weight per row"),
        (np.r_[-1.0, np.ones(19)], "must be finite and non-negative"),
        (np.r_[np.nan, np.ones(19)], "must be finite and non-negative"),
        (np.zeros(20), "zero for every row; at least one row must count"),
        (["a"] * 20, "must be numbers"),
    ],
)
def test_bad_weights_are_data_errors_naming_the_problem(weights, message):
    with pytest.raises(DataError, match=message):
        make_model("tfidf-logreg").fit(TEXTS, LABELS, n_classes=2, sample_weight=weights)


def test_a_model_without_sample_weights_refuses_them_and_names_the_models_that_take_them(
    small_params,
):
    model = make_model("llm-prompt", small_params["llm-prompt"])
    with pytest.raises(
        ConfigError,
        match=r"^The llm-prompt model takes no sample weights\. Models that do: bow-mlp, majority, "
        r"sentence-encoder, tfidf-logreg, tfidf-svm, toy-centroid, transformer\.$",
    ):
        model.fit(TEXTS, LABELS, n_classes=2, sample_weight=np.ones(len(TEXTS)))


def test_zero_weight_rows_leave_the_loss_but_still_shape_the_tfidf_vocabulary():
    weights = np.where(np.array(TEXTS) == "awful broken junk", 0.0, 1.0)
    model = make_model("tfidf-logreg").fit(TEXTS, LABELS, n_classes=2, sample_weight=weights)
    assert "awful" in model.head_.estimator.steps[0][1].vocabulary_
    # No counted row carries "awful", so it has no pull towards label 0 (its weight stays ~0).
    assert model.predict_proba(["awful"])[0, 0] < 0.6
    assert (
        make_model("tfidf-logreg").fit(TEXTS, LABELS, n_classes=2).predict_proba(["awful"])[0, 0]
        > 0.75
    )
