"""llm-prompt on paired inputs: NLI / paraphrase templates, paired demonstrations, and answers
from the local server's pair classifier (zero-shot and chain-of-thought with a confidence)."""

import numpy as np
import pytest

from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.metrics.explanations import reasoning_steps
from shortcutlab.models import make_model
from shortcutlab.models.prompts import resolve_task
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer
from tests.nli_helpers import nli_pairs, server_client

NLI = ["contradiction", "entailment", "neutral"]


@pytest.fixture(scope="module")
def train():
    return nli_pairs(300, seed=0)


@pytest.fixture(scope="module")
def answers(train):
    return ClassifierAnswers.from_table(train, text_pair_col="text_pair")


@pytest.fixture(scope="module")
def server(answers):
    with ChatServer(project_backend(answers)) as running:
        yield running


def fitted(server, tmp_path, train, **params):
    model = make_model("llm-prompt", {"client": server_client(server, tmp_path), **params})
    model.set_label_values(NLI)
    ranks = np.array([NLI.index(v) for v in train["label"]])
    return model.fit(model_inputs(train), ranks, n_classes=3)


def test_task_auto_picks_the_pair_template_by_label_names():
    assert resolve_task("auto", ["Entailment", "not_entailment"], paired=True) == "nli"
    assert resolve_task("auto", ["paraphrase", "not-paraphrase"], paired=True) == "paraphrase"
    assert resolve_task("auto", ["0", "1"], paired=True) == "classification"
    with pytest.raises(ConfigError, match="The 'task' parameter of llm-prompt must be one of auto"):
        resolve_task("qa", NLI, paired=True)


def test_nli_prompt_shows_premise_hypothesis_labels_and_cot_cue(server, tmp_path, train):
    model = fitted(server, tmp_path, train, strategy="zero-shot-cot", confidence=True)
    prompt = model.prompt(("A man sleeps.", "A person rests."))
    assert "Choose one label from: contradiction, entailment, neutral." in prompt
    assert (
        "Premise: A man sleeps.\nHypothesis: A person rests.\nLet's think step by step." in prompt
    )
    assert 'on a new line as "Confidence: <number>%"' in prompt
    zero = fitted(server, tmp_path, train, strategy="zero-shot")
    assert zero.prompt(("A man sleeps.", "A person rests.")).endswith(
        "Premise: A man sleeps.\nHypothesis: A person rests.\nAnswer:"
    )


def test_few_shot_demonstrations_show_both_parts(server, tmp_path, train):
    model = fitted(server, tmp_path, train, strategy="few-shot", k=3, seed=4)
    prompt = model.prompt(("Query premise.", "Query hypothesis."))
    for demo in model.demonstrations_:
        row = train[(train["text"] == demo["text"]) & (train["text_pair"] == demo["text_pair"])]
        assert len(row) >= 1 and demo["label"] in set(row["label"])
        assert f"Premise: {demo['text']}\nHypothesis: {demo['text_pair']}\n" in prompt
    assert sorted(d["label"] for d in model.demonstrations_) == sorted(NLI)  # one per label


def test_server_pair_classifier_answers_cot_with_steps_and_confidence(
    answers, server, tmp_path, train
):
    test = nli_pairs(60, seed=1)
    model = fitted(server, tmp_path, train, strategy="zero-shot-cot", confidence=True)
    probabilities = model.predict_proba(model_inputs(test))
    expected = answers.model.predict_proba(model_inputs(test))
    # The LLM's answers are the server's classifier's argmax, its confidence the top probability.
    assert probabilities.argmax(axis=1).tolist() == [
        NLI.index(answers.label_names[i]) for i in expected.argmax(axis=1)
    ]
    assert model.prediction_details_["confidence"] == pytest.approx(
        np.round(100 * expected.max(axis=1)) / 100
    )
    raw = model.prediction_details_["raw"][0]
    steps = reasoning_steps(raw)
    assert len(steps) == 5 and steps[0] == f"The premise states: {test['text'][0]}"
    assert steps[-1].startswith("Answer: ") and "Confidence: " in raw
    accuracy = (probabilities.argmax(axis=1) == [NLI.index(v) for v in test["label"]]).mean()
    assert accuracy > 0.9  # the tiny relation is learnable; chance is 1/3


def test_nli_task_needs_pairs_and_predictions_keep_the_input_kind(server, tmp_path, train):
    single = make_model("llm-prompt", {"client": server_client(server, tmp_path), "task": "nli"})
    with pytest.raises(ConfigError, match="task 'nli' needs paired inputs"):
        single.fit(["one text", "two"], np.array([0, 1]), n_classes=2)
    model = fitted(server, tmp_path, train)
    with pytest.raises(DataError, match="fitted on paired inputs but is asked about single-text"):
        model.predict_proba(["one text"])
