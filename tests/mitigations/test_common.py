"""Checks every registered mitigation passes: its paper cited, defaults valid, backends real and
refused honestly, and the same seed giving byte-identical predictions."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import MITIGATIONS, make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from shortcutlab.models import MODELS
from tests.mitigations.conftest import TFIDF

# Quick settings for the byte-identity check (the defaults run longer, not differently).
QUICK = {"groupdro": {"head_epochs": 2}, "dfr": {"n_subsamples": 2}}


@pytest.mark.parametrize("name", MITIGATIONS.names())
def test_defaults_are_valid_and_backends_are_registered_models(name):
    mitigation = make_mitigation(name)
    assert mitigation.name == name
    assert mitigation.backends, f"{name} declares no backend"
    assert set(mitigation.backends) <= set(MODELS.names())
    # get_params gives exactly the constructor keywords, so a method rebuilt from them is equal
    rebuilt = make_mitigation(name, mitigation.get_params())
    assert rebuilt.get_params() == mitigation.get_params()
    assert set(mitigation.get_params()) == set(MITIGATIONS.parameters(name)) - {"args", "kwargs"}


@pytest.mark.parametrize("name", [n for n in MITIGATIONS.names() if n != "erm"])
def test_each_method_cites_its_paper(name):
    module = importlib.import_module(type(make_mitigation(name)).__module__)
    assert re.search(r"\b(19|20)\d\d\b", module.__doc__ or ""), f"{name}: no paper year cited"


@pytest.mark.parametrize("name", [n for n in MITIGATIONS.names() if n != "erm"])
def test_an_unsupported_backend_is_refused_naming_the_supported_ones(name):
    mitigation = make_mitigation(name)  # erm, the plain fit, supports every backend
    unsupported = [m for m in MODELS.names() if m not in mitigation.backends]
    with pytest.raises(ConfigError) as error:
        mitigation.check_backend(unsupported[0])
    message = str(error.value)
    assert f"does not support the {unsupported[0]} model" in message
    assert ", ".join(mitigation.backends) in message
    assert "\n" not in message


SINGLE_TEXT_TFIDF = [
    name
    for name in MITIGATIONS.names()
    if "tfidf-logreg" in make_mitigation(name).backends and name != "cat-augment"
]


@pytest.mark.parametrize("name", SINGLE_TEXT_TFIDF)
def test_the_same_seed_gives_byte_identical_predictions(cue_bench, name):
    inputs = model_inputs(cue_bench["anti_test"])

    def predictions() -> bytes:
        mitigation = make_mitigation(name, QUICK.get(name))
        context = mitigation_context(
            cue_bench, mitigation, model="tfidf-logreg", params=TFIDF, seed=3
        )
        predictor = mitigation.fit(context)
        try:
            return np.asarray(predictor.predict_proba(inputs), dtype=np.float64).tobytes()
        finally:
            predictor.close()

    assert predictions() == predictions()
