"""Common tests over every registered model (the toy of tests/models/toy_model.py included), and
the capabilities its registry line declares: readable without torch, and true of the model."""

import random
import subprocess
import sys

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError, UnknownComponentError
from shortcutlab.models import MODELS, make_model
from shortcutlab.models.adapters import ADAPTED
from tests.models.toy_model import with_toy
from tests.without_torch import WITHOUT_TORCH

TEXTS = [
    "great product love it",
    "awful broke fast",
    "okay nothing special",
    "love it great",
    "broke awful",
    "fine okay",
] * 5
LABELS = np.array([2, 0, 1, 2, 0, 1] * 5)
EXPECTED_MODELS = {
    "bow-mlp",
    "llm-prompt",
    "majority",
    "sentence-encoder",
    "tfidf-logreg",
    "tfidf-svm",
    "transformer",
    *ADAPTED,  # models/adapters.py: the model as the user holds it
}
# A fitted predict_proba function cannot be trained (tests/models/test_adapters.py covers it).
TRAINABLE = with_toy(lambda: [n for n in MODELS.names() if n != "function"])
PROBES = ["love it", "broke", "unseen words"]


def test_registry_is_complete(toy_model):
    assert set(MODELS) - {toy_model} == EXPECTED_MODELS


@pytest.mark.parametrize("name", TRAINABLE)
def test_probabilities_have_the_benchmark_shape_and_sum_to_one(name, small_params):
    params = small_params.get(name, {})
    model = make_model(name, params, seed=0).fit(TEXTS, LABELS, n_classes=4)  # label 3 unseen
    proba = model.predict_proba(PROBES)
    assert proba.shape == (3, 4)
    assert np.allclose(proba.sum(axis=1), 1)
    assert np.all(proba[:, 3] == 0)
    again = make_model(name, params, seed=0).fit(TEXTS, LABELS, n_classes=4).predict_proba(PROBES)
    assert np.array_equal(proba, again)
    assert model.predict_proba([]).shape == (0, 4)


@pytest.mark.parametrize("name", TRAINABLE)
def test_fit_accepts_a_validation_split_and_leaves_global_random_state_alone(name, small_params):
    import torch

    random.seed(1)
    np.random.seed(1)
    torch.manual_seed(1)
    before = random.getstate(), np.random.get_state()[1].copy(), torch.get_rng_state()
    model = make_model(name, small_params.get(name, {}), seed=3)
    model.fit(TEXTS, LABELS, n_classes=3, validation=(TEXTS[:6], LABELS[:6]))
    model.predict_proba(PROBES)
    assert random.getstate() == before[0]
    assert np.array_equal(np.random.get_state()[1], before[1])
    assert torch.equal(torch.get_rng_state(), before[2])


@pytest.mark.parametrize("name", TRAINABLE)
def test_parameters_round_trip_and_check_accepts_them(name, small_params):
    model = make_model(name, small_params.get(name, {}))
    params = model.get_params()
    assert type(model)(**params).get_params() == params
    model.check(3)


@pytest.mark.parametrize("name", TRAINABLE)
def test_fit_rejects_bad_inputs(name):
    with pytest.raises(DataError, match="must match"):
        make_model(name).fit(TEXTS, LABELS[:-1], n_classes=3)
    with pytest.raises(DataError, match=r"labels must be integers in \[0, 2\)"):
        make_model(name).fit(TEXTS, LABELS, n_classes=2)


def test_reading_model_parameters_imports_no_heavy_library():
    code = (
        "import sys; from shortcutlab.models import MODELS; [MODELS.parameters(n) for n in MODELS]; "
        "print([m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules])"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_reading_every_capability_imports_neither_torch_nor_any_model():
    code = (
        "import sys; from shortcutlab.models import MODELS; "
        "from shortcutlab.mitigations import MITIGATIONS, supported_models; "
        "from shortcutlab.shortcuts import SHORTCUTS; from shortcutlab.attributes import ATTRIBUTES; "
        "read = [r.capabilities(n) for r in (MODELS, MITIGATIONS, SHORTCUTS, ATTRIBUTES) for n in r]; "
        "read += [supported_models(n) for n in MITIGATIONS]; "
        "print([m for m in sys.modules if m in ('torch', 'transformers', 'sentence_transformers') "
        "or m.startswith(('shortcutlab.models.', 'shortcutlab.mitigations.')) "
        "and not m.endswith(('.base', '.registry', '.objectives'))])"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "name", with_toy(lambda: [n for n in MODELS.having("seeded", False) if n != "function"])
)
def test_a_model_declared_seed_independent_fits_the_same_model_with_any_seed(name, small_params):
    params = small_params.get(name, {})
    assert make_model(name, params).depends_on_seed() is False
    first = make_model(name, params, seed=0).fit(TEXTS, LABELS, n_classes=3)
    other = make_model(name, params, seed=1).fit(TEXTS, LABELS, n_classes=3)
    assert np.array_equal(first.predict_proba(PROBES), other.predict_proba(PROBES))


def test_models_declared_with_torch_are_refused_without_it_and_the_others_fit():
    """A model declared with ``torch`` is refused when it is made, naming the extra; the models
    that learn without it still fit."""
    code = WITHOUT_TORCH + (
        "import numpy as np\n"
        "from shortcutlab.errors import ConfigError\n"
        "from shortcutlab.models import MODELS, make_model\n"
        "for name in set(MODELS) - {'sklearn', 'object', 'function'}:  # each needs a model\n"
        "    try:\n"
        "        model = make_model(name)\n"
        "    except ConfigError as error:\n"
        "        print(name, error); continue\n"
        "    if MODELS.capabilities(name)['learns']:\n"
        "        model.fit(['good', 'bad', 'good day', 'bad day'], np.array([1, 0, 1, 0]), n_classes=2)\n"
        "    print(name, 'fits')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = dict(line.split(" ", 1) for line in run.stdout.strip().splitlines())
    for name, outcome in lines.items():
        expected = (
            f"The {name} model needs torch. Install it with: pip install 'shortcutlab[torch]'."
            if MODELS.capabilities(name)["torch"]
            else "fits"
        )
        assert outcome == expected
    assert set(lines) == EXPECTED_MODELS - set(ADAPTED)


def test_tfidf_learns_the_words():
    model = make_model("tfidf-logreg").fit(TEXTS, LABELS, n_classes=3)
    assert model.predict(["love it great", "awful broke"]).tolist() == [2, 0]


def test_unknown_model_and_parameter():
    with pytest.raises(
        UnknownComponentError, match="Unknown model 'tfidf'. Did you mean .*'tfidf-logreg'"
    ):
        make_model("tfidf")
    with pytest.raises(
        ConfigError, match="has no parameter 'alpha'. Its parameters are: ngram_range"
    ):
        make_model("tfidf-logreg", {"alpha": 1})
    assert make_model("tfidf-logreg", {"C": 1.0}).get_params()["C"] == 1.0
