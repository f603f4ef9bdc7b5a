"""Checks every registered mitigation passes (the toy of tests/mitigations/toy_mitigation.py
included): its paper cited, defaults valid, backends real and refused honestly, the same seed
giving byte-identical predictions, and its registry line true of it."""

from __future__ import annotations

import importlib
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import MITIGATIONS, make_mitigation, supported_models
from shortcutlab.mitigations.context import mitigation_context
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.mitigations.registry import (
    GROUPS_HELD_OUT,
    GROUPS_TRAIN,
    ROWS_AS_IS,
    ROWS_EDITS,
    ROWS_KEEPS,
    ROWS_WEIGHTS,
)
from shortcutlab.models import MODELS
from tests.mitigations.conftest import TFIDF
from tests.mitigations.synthetic import CUE
from tests.mitigations.toy_mitigation import TOY, with_toy
from tests.without_torch import WITHOUT_TORCH

# Quick settings for the byte-identity check (the defaults run longer, not differently), and the
# candidate of the data-level repairs (the synthetic benchmark has no manifest recording its cue).
QUICK = {
    "groupdro": {"head_epochs": 2},
    "dfr": {"n_subsamples": 2},
    **{
        n: {"candidate": CUE}
        for n in MITIGATIONS.names()
        if "candidate" in MITIGATIONS.parameters(n)
    },
}


@pytest.mark.parametrize("name", with_toy())
def test_defaults_are_valid_and_backends_are_registered_models(name):
    mitigation = make_mitigation(name)
    assert mitigation.name == name
    assert supported_models(name), f"{name} supports no registered model"
    assert set(supported_models(name)) <= set(MODELS.names())
    # get_params gives exactly the constructor keywords, so a method rebuilt from them is equal
    rebuilt = make_mitigation(name, mitigation.get_params())
    assert rebuilt.get_params() == mitigation.get_params()
    assert set(mitigation.get_params()) == set(MITIGATIONS.parameters(name)) - {"args", "kwargs"}


@pytest.mark.parametrize("name", with_toy(lambda: [n for n in MITIGATIONS.names() if n != "erm"]))
def test_each_method_cites_its_paper(name):
    module = importlib.import_module(type(make_mitigation(name)).__module__)
    assert re.search(r"\b(19|20)\d\d\b", module.__doc__ or ""), f"{name}: no paper year cited"


@pytest.mark.parametrize("name", with_toy(lambda: [n for n in MITIGATIONS.names() if n != "erm"]))
def test_an_unsupported_backend_is_refused_naming_the_supported_ones(name):
    mitigation = make_mitigation(name)  # erm, the plain fit, supports every backend
    unsupported = [m for m in MODELS.names() if m not in supported_models(name)]
    with pytest.raises(ConfigError) as error:
        mitigation.check_backend(unsupported[0])
    message = str(error.value)
    assert f"does not support the {unsupported[0]} model" in message
    assert message.endswith(f"Models it supports: {', '.join(supported_models(name))}.")
    assert "\n" not in message


SINGLE_TEXT_TFIDF = with_toy(
    lambda: [
        name
        for name in MITIGATIONS.names()
        if "tfidf-logreg" in supported_models(name) and not MITIGATIONS.capabilities(name)["pairs"]
    ]
)


def anti_test_bytes(bench: Benchmark, name: str, *, seed: int = 3) -> bytes:
    """The anti-test probabilities of ``name`` (quick settings) on tfidf-logreg, as bytes."""
    mitigation = make_mitigation(name, QUICK.get(name))
    context = mitigation_context(bench, mitigation, model="tfidf-logreg", params=TFIDF, seed=seed)
    predictor = mitigation.fit(context)
    try:
        inputs = model_inputs(bench["anti_test"])
        return np.asarray(predictor.predict_proba(inputs), dtype=np.float64).tobytes()
    finally:
        predictor.close()


@pytest.mark.parametrize("name", SINGLE_TEXT_TFIDF)
def test_the_same_seed_gives_byte_identical_predictions(cue_bench, name):
    assert anti_test_bytes(cue_bench, name) == anti_test_bytes(cue_bench, name)


@pytest.mark.parametrize("name", SINGLE_TEXT_TFIDF)
def test_shuffled_training_groups_change_exactly_the_methods_declared_to_read_them(cue_bench, name):
    train = cue_bench["train"]
    shuffled = train.assign(
        shortcut=np.random.default_rng(0).permutation(train["shortcut"].to_numpy())
    )
    other = Benchmark(splits={**cue_bench.splits, "train": shuffled}, labels=cue_bench.labels)
    same = anti_test_bytes(cue_bench, name) == anti_test_bytes(other, name)
    assert same is not (MITIGATIONS.capabilities(name)["groups"] == GROUPS_TRAIN)


CHANGING_ROWS = with_toy(
    lambda: [
        n for n in SINGLE_TEXT_TFIDF if MITIGATIONS.capabilities(n)["training_rows"] != ROWS_AS_IS
    ]
)


@pytest.mark.parametrize("name", CHANGING_ROWS)
def test_the_declared_effect_on_the_training_rows_is_what_the_method_trains_on(cue_bench, name):
    """The rows its registry line says it edits, weights or keeps (read by audit --fix without a
    fit): the backend fitted on them predicts exactly as the method does."""
    mitigation = make_mitigation(name, QUICK.get(name))
    context = mitigation_context(cue_bench, mitigation, model="tfidf-logreg", params=TFIDF, seed=3)
    effect = MITIGATIONS.capabilities(name)["training_rows"]
    if effect == ROWS_EDITS:
        plain = fit_backend(context, mitigation.repaired(context))
    elif effect == ROWS_WEIGHTS:
        plain = fit_backend(context, sample_weight=mitigation.training_weights(context))
    else:
        assert effect == ROWS_KEEPS
        plain = fit_backend(context, context.train.take(mitigation.kept_rows(context)))
    inputs = model_inputs(cue_bench["anti_test"])
    predicted = np.asarray(plain.predict_proba(inputs), dtype=np.float64).tobytes()
    assert predicted == anti_test_bytes(cue_bench, name)


@pytest.mark.parametrize("name", SINGLE_TEXT_TFIDF)
def test_a_method_declared_seed_independent_fits_a_seed_independent_backend_once(cue_bench, name):
    seeded = MITIGATIONS.capabilities(name)["seeded"]
    assert make_mitigation(name).depends_on_seed(False) is seeded
    if not seeded:  # tfidf-logreg's fit depends on no seed, so no draw can enter
        assert anti_test_bytes(cue_bench, name, seed=3) == anti_test_bytes(cue_bench, name, seed=4)


@pytest.mark.parametrize("name", SINGLE_TEXT_TFIDF)
def test_only_methods_declared_to_read_held_out_rows_need_a_validation_split(cue_bench, name):
    bench = Benchmark(
        splits={k: v for k, v in cue_bench.splits.items() if k != "validation"},
        labels=cue_bench.labels,
    )
    capabilities = MITIGATIONS.capabilities(name)
    if capabilities["held_out"] or capabilities["groups"] == GROUPS_HELD_OUT:
        with pytest.raises(ConfigError, match=f"The {name} mitigation refits on held-out rows"):
            anti_test_bytes(bench, name)
    else:
        anti_test_bytes(bench, name)


@pytest.mark.slow
def test_methods_declared_with_torch_are_refused_without_it_and_the_others_fit():
    """A method declared with ``torch`` is refused when it is made, naming the extra; the others
    fit on tfidf-logreg without it (the single-text ones; QUICK settings)."""
    code = WITHOUT_TORCH + (
        "from shortcutlab.errors import ConfigError\n"
        "from shortcutlab.mitigations import MITIGATIONS, make_mitigation, supported_models\n"
        "from shortcutlab.mitigations.context import mitigation_context\n"
        "from tests.mitigations.synthetic import cue_benchmark\n"
        f"QUICK, TFIDF = {QUICK!r}, {TFIDF!r}\n"
        "bench = cue_benchmark()\n"
        "for name in MITIGATIONS:\n"
        "    try:\n"
        "        method = make_mitigation(name, QUICK.get(name))\n"
        "    except ConfigError as error:\n"
        "        print(name, error); continue\n"
        "    if 'tfidf-logreg' in supported_models(name) and not MITIGATIONS.capabilities(name)['pairs']:\n"
        "        context = mitigation_context(bench, method, model='tfidf-logreg', params=TFIDF, seed=0)\n"
        "        method.fit(context).close()\n"
        "    print(name, 'fits')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = dict(line.split(" ", 1) for line in run.stdout.strip().splitlines())
    assert set(lines) == set(MITIGATIONS.names()) - {TOY}  # a fresh process: no toy
    for name, outcome in lines.items():
        expected = (
            f"The {name} mitigation needs torch. Install it with: pip install 'shortcutlab[torch]'."
            if MITIGATIONS.capabilities(name)["torch"]
            else "fits"
        )
        assert outcome == expected


def test_a_pickled_method_carries_its_registry_line_to_a_worker_without_it(toy_mitigation):
    declared = MITIGATIONS.capabilities(toy_mitigation)
    sent = pickle.dumps(make_mitigation(toy_mitigation))
    MITIGATIONS.remove(toy_mitigation)  # a spawned worker knows only the packaged methods
    received = pickle.loads(sent)
    assert received.capabilities() == declared
    assert received.depends_on_seed(False) is True
    received.check_backend("tfidf-logreg")
    with pytest.raises(ConfigError, match="does not support the llm-prompt model"):
        received.check_backend("llm-prompt")
