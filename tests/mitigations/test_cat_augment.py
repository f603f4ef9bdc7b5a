"""cat-augment: counterfactual pairs labelled with the default label teach a pair model to read
both parts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from tests.mitigations.conftest import accuracies

NOUNS = [f"noun{i}" for i in range(40)]


def _pairs(rng: np.random.Generator, n: int) -> pd.DataFrame:
    """Entailed pairs repeat the premise's noun and say "indeed"; the others name another noun.
    "indeed" alone predicts the label: a model can ignore the premise."""
    rows = []
    for _ in range(n):
        noun, other = rng.choice(NOUNS, size=2, replace=False)
        premise = f"the {noun} is here"
        if rng.random() < 0.5:
            rows.append((premise, f"indeed a {noun} is here", "entailment"))
        else:
            rows.append((premise, f"a {other} is here", "non-entailment"))
    frame = pd.DataFrame(rows, columns=["text", "text_pair", "label"])
    frame.insert(0, "row_id", np.arange(len(frame)))
    return frame


@pytest.fixture(scope="module")
def pair_bench() -> Benchmark:
    rng = np.random.default_rng(0)
    splits = {"train": _pairs(rng, 400), "test": _pairs(rng, 200), "anti_test": _pairs(rng, 200)}
    return Benchmark(splits=splits, labels=LabelSpace(("entailment", "non-entailment")))


def _entailed_after_swap(bench: Benchmark, method: str, params=None) -> float:
    """Share of entailed test pairs still predicted entailed once their premise is another row's."""
    mitigation = make_mitigation(method, params)
    context = mitigation_context(bench, mitigation, model="tfidf-logreg", params={}, seed=0)
    predictor = mitigation.fit(context)
    test = bench["test"]
    entailed = test[test["label"] == "entailment"]
    premises = entailed["text"].to_numpy()
    swapped = list(zip(np.roll(premises, 1), entailed["text_pair"], strict=True))
    return float(np.mean(predictor.predict_proba(swapped).argmax(axis=1) == 0))


def test_augmentation_makes_the_model_read_the_premise(pair_bench):
    plain = _entailed_after_swap(pair_bench, "erm")
    augmented = _entailed_after_swap(pair_bench, "cat-augment")
    assert plain > 0.5
    assert augmented < plain - 0.4


def test_augmentation_keeps_test_accuracy(pair_bench):
    assert accuracies(pair_bench, "cat-augment", model_params={})["test"] > 0.95


def test_augmentation_adds_one_default_labelled_row_per_other_row(pair_bench):
    mitigation = make_mitigation("cat-augment", {"default_label": "non-entailment"})
    context = mitigation_context(pair_bench, mitigation, model="tfidf-logreg", params={}, seed=0)
    rows = mitigation.repaired(context)
    train = pair_bench["train"]
    n_entailed = int((train["label"] == "entailment").sum())
    assert len(rows) == len(train) + n_entailed
    added = rows.inputs[len(train) :]
    assert (rows.labels[len(train) :] == 1).all()
    entailed_hypotheses = train.loc[train["label"] == "entailment", "text_pair"].tolist()
    assert [second for _, second in added] == entailed_hypotheses
    originals = dict(zip(train["text_pair"], train["text"], strict=False))
    assert all(first != originals[second] for first, second in added)


def test_single_texts_are_refused(cue_bench):
    with pytest.raises(DataError, match="cat-augment needs paired inputs"):
        accuracies(cue_bench, "cat-augment")


def test_an_unknown_default_label_is_refused(pair_bench):
    with pytest.raises(ConfigError, match="The default label 'neutral' is not among the labels"):
        accuracies(pair_bench, "cat-augment", {"default_label": "neutral"}, model_params={})


def test_models_that_learn_nothing_from_rows_are_not_offered():
    with pytest.raises(ConfigError, match="does not support the llm-prompt model"):
        make_mitigation("cat-augment").check_backend("llm-prompt")
