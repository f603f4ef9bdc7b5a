"""check_backend(model, params): refusals that depend on the model's parameters happen before any
fit, with one-line messages; the one-argument call keeps checking the backend alone."""

from __future__ import annotations

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import make_mitigation, supported_models
from tests.mitigations.conftest import accuracies
from tests.mitigations.toy_mitigation import with_toy


@pytest.mark.parametrize("name", with_toy())
def test_every_method_accepts_a_supported_backend_with_its_default_params(name):
    mitigation = make_mitigation(name)
    backend = supported_models(name)[0]
    assert mitigation.check_backend(backend) is None  # no ConfigError: the backend is supported
    assert mitigation.check_backend(backend, {}) is None


@pytest.mark.parametrize(
    ("first_params", "message"),
    [
        ({"Cx": 1}, "^The tfidf-logreg model has no parameter 'Cx'"),
        ({"C": -1}, "'C' parameter of tfidf-logreg must be a positive float"),
    ],
)
def test_jtt_refuses_bad_first_params_before_fitting(first_params, message):
    mitigation = make_mitigation("jtt", {"first_params": first_params})
    mitigation.check_backend("tfidf-logreg")  # without params only the backend is checked
    with pytest.raises(ConfigError, match=message) as error:
        mitigation.check_backend("tfidf-logreg", {"ngram_range": (1, 1)})
    assert "\n" not in str(error.value)


def test_jtt_first_params_override_the_backend_params_in_the_check():
    # The backend's own C is bad, but the identification model replaces it (the final model is
    # checked by the grid's own model check, not by jtt); an override of another key keeps it.
    bad_backend = {"C": -1}
    jtt = make_mitigation("jtt", {"first_params": {"C": 0.1}})
    assert jtt.check_backend("tfidf-logreg", bad_backend) is None
    other = make_mitigation("jtt", {"first_params": {"min_df": 1}})
    with pytest.raises(ConfigError, match="'C' parameter of tfidf-logreg must be a positive float"):
        other.check_backend("tfidf-logreg", bad_backend)


@pytest.mark.parametrize("name", ["a2r", "cr"])
@pytest.mark.parametrize(
    ("params", "parameter"),
    [({"lora": {"r": 8}}, "lora"), ({"grad_accum": 2}, "grad_accum")],
)
def test_rationale_models_refuse_transformer_params_before_fitting(name, params, parameter):
    mitigation = make_mitigation(name)
    mitigation.check_backend("transformer")
    with pytest.raises(
        ConfigError,
        match=f"^The {name} mitigation does not support the transformer '{parameter}' parameter",
    ):
        mitigation.check_backend("transformer", {"path": "unused", **params})
    mitigation.check_backend("bow-mlp", {"epochs": 1})


def test_groupdro_refuses_a_linear_probe_class_weight_it_would_ignore(cue_bench):
    mitigation = make_mitigation("groupdro")
    message = (
        "^The groupdro mitigation trains the tfidf-logreg head under its own group-weighted loss "
        "and cannot apply class_weight='balanced'; remove class_weight"
    )
    with pytest.raises(ConfigError, match=message):
        mitigation.check_backend("tfidf-logreg", {"class_weight": "balanced"})
    with pytest.raises(ConfigError, match=message):  # fit refuses too, before training
        accuracies(cue_bench, "groupdro", model_params={"class_weight": "balanced"})
    mitigation.check_backend("tfidf-logreg", {"class_weight": None})
