"""NLI scorers for ICS: a tiny Hugging Face checkpoint built here, a fitted pair model, an LLM judge."""

from pathlib import Path

import numpy as np
import pytest

from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError
from shortcutlab.families.suite.explanations import make_nli_scorer
from shortcutlab.models import make_model
from shortcutlab.models.nli_scorers import HFNliScorer, LLMJudgeScorer, ModelNliScorer
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer
from tests.nli_helpers import nli_pairs, server_client

FIRSTS = ["The doctor slept in the park.", "A banker sang at home.", "A student waited."]
SECONDS = ["The doctor slept.", "A banker did not sang.", "A student waited by the river later."]


def tiny_nli_checkpoint(folder: Path, texts: list[str], labels: dict[int, str]) -> Path:
    """A tiny BERT with a sequence-classification head whose config names ``labels``."""
    from transformers import BertConfig, BertForSequenceClassification

    from shortcutlab.models.tiny import build_tiny_bert

    build_tiny_bert(folder, texts, vocab_size=200)
    config = BertConfig.from_pretrained(folder)
    config.id2label = labels
    config.label2id = {name: index for index, name in labels.items()}
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        BertForSequenceClassification(config).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def texts():
    frame = nli_pairs(120)
    return frame["text"].tolist() + frame["text_pair"].tolist()


def test_hf_checkpoint_scores_the_column_its_config_names_contradiction(tmp_path, texts):
    folder = tiny_nli_checkpoint(
        tmp_path / "nli", texts, {0: "ENTAILMENT", 1: "CONTRADICTION", 2: "NEUTRAL"}
    )
    scorer = HFNliScorer(str(folder), batch_size=2, device="cpu")
    assert scorer.index == 1
    scores = scorer.contradiction_probabilities(FIRSTS, SECONDS)
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    with torch.no_grad():
        logits = model(**tokenizer(FIRSTS, SECONDS, padding=True, return_tensors="pt")).logits
    assert scores == pytest.approx(torch.softmax(logits, -1)[:, 1].numpy(), abs=1e-5)


def test_checkpoint_without_a_contradiction_label_is_refused(tmp_path, texts):
    folder = tiny_nli_checkpoint(tmp_path / "sentiment", texts, {0: "negative", 1: "positive"})
    with pytest.raises(
        ConfigError, match=r"has labels negative, positive, none of which is a contradiction label"
    ):
        HFNliScorer(str(folder), device="cpu")


def test_a_fitted_pair_model_scores_its_contradiction_column():
    train = nli_pairs(300)
    labels = ["contradiction", "entailment", "neutral"]
    model = make_model("tfidf-logreg").fit(
        model_inputs(train), train["label"].map(labels.index).to_numpy(), n_classes=3
    )
    scores = ModelNliScorer(model, labels).contradiction_probabilities(FIRSTS, SECONDS)
    assert scores[1] > 0.5 > max(scores[0], scores[2])  # only the second pair says "not"
    with pytest.raises(ConfigError, match="none of which is a contradiction label"):
        ModelNliScorer(model, ["a", "b", "c"])


def test_llm_judge_reads_the_probability_the_server_states(tmp_path):
    train = nli_pairs(300)
    answers = ClassifierAnswers.from_table(train, text_pair_col="text_pair")
    with ChatServer(project_backend(answers)) as server:
        judge = LLMJudgeScorer(server_client(server, tmp_path))
        scores = judge.contradiction_probabilities(FIRSTS, SECONDS)
        judge.close()
    column = answers.label_names.index("contradiction")
    stated = answers.model.predict_proba(list(zip(FIRSTS, SECONDS, strict=True)))[:, column]
    assert scores == pytest.approx(np.round(100 * stated) / 100)
    assert judge.unparsed_ == 0


@pytest.fixture
def nli_train_file(tmp_path):
    path = tmp_path / "nli.csv"
    nli_pairs(240).to_csv(path, index=False)
    return path


def test_a_model_nli_scorer_is_fitted_with_the_seed(nli_train_file):
    def scores(seed):
        scorer = make_nli_scorer(
            "bow-mlp", train=nli_train_file, train_options={"text_pair_col": "text_pair"}, seed=seed
        )
        return scorer.contradiction_probabilities(FIRSTS, SECONDS)

    assert scores(1).tolist() == scores(1).tolist()
    assert scores(1).tolist() != scores(2).tolist()


def test_a_one_text_model_is_refused_before_it_is_fitted(nli_train_file, monkeypatch, toy_model):
    def fit(*args, **kwargs):
        raise AssertionError("fitted before the input kind was checked")

    monkeypatch.setattr(type(make_model(toy_model)), "fit", fit)
    with pytest.raises(ConfigError, match="reads one text per row"):
        make_nli_scorer(
            toy_model, train=nli_train_file, train_options={"text_pair_col": "text_pair"}
        )
