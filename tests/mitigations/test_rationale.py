"""a2r and cr on the bow-mlp backend: synthetic texts where a planted cue word decides the label.

Each text is 5-10 filler words with one cue word ("Alpha", "Bravo" or "Charlie", one per label)
at a random position; the cue's character span is recorded where it is inserted. A selector that
ignored the cue would cover it on about a fifth of the rows (it keeps about a fifth of the words).
"""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.errors import ConfigError, DataError, UnknownComponentError
from shortcutlab.mitigations import MitigationContext, TrainingRows, make_mitigation
from shortcutlab.mitigations.rationale_bow import word_spans
from shortcutlab.models.bow_mlp import tokenize

FILLER = [f"w{letter}{suffix}" for letter in "abcdefgh" for suffix in "xyz"]
CUES = ("Alpha", "Bravo", "Charlie")
BOW = {"epochs": 8, "lr": 0.002, "batch_size": 32}


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """These tiny networks train far faster on one thread than on two contended ones (the test
    machines are shared); the caller's setting is restored afterwards."""
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def cue_rows(n: int, seed: int) -> tuple[list[str], np.ndarray, list[tuple[int, int] | None]]:
    """Texts, labels and each text's cue span (None for the quarter of rows without a cue, whose
    label is drawn at random: there the text says nothing about the label)."""
    rng = np.random.default_rng(seed)
    texts, labels, spans = [], [], []
    for _ in range(n):
        label = int(rng.integers(len(CUES)))
        before = " ".join(rng.choice(FILLER, size=int(rng.integers(0, 6))))
        after = " ".join(rng.choice(FILLER, size=int(rng.integers(3, 6))))
        prefix = f"{before} " if before else ""
        if rng.random() < 0.25:
            texts.append(f"{prefix}{after}.")
            spans.append(None)
        else:
            texts.append(f"{prefix}{CUES[label]} {after}.")
            spans.append((len(prefix), len(prefix) + len(CUES[label])))
        labels.append(label)
    return texts, np.array(labels), spans


def context(model: str, params: dict, *, seed: int = 0, n_classes: int = 3) -> MitigationContext:
    train, validation = cue_rows(240, 0), cue_rows(80, 1)
    return MitigationContext(
        model=model,
        params=params,
        seed=seed,
        n_classes=n_classes,
        label_values=tuple(range(n_classes)),
        train=TrainingRows(train[0], train[1]),
        validation=TrainingRows(validation[0], validation[1]),
    )


def cue_coverage(rationales: list[list[tuple[int, int]]], cues: list) -> float:
    """Share of the rows carrying a cue whose rationale has a span containing the whole cue."""
    return float(
        np.mean(
            [
                any(start <= cue[0] and cue[1] <= end for start, end in spans)
                for spans, cue in zip(rationales, cues, strict=True)
                if cue is not None
            ]
        )
    )


def cue_accuracy(probabilities: np.ndarray, labels: np.ndarray, cues: list) -> float:
    """Accuracy on the rows carrying a cue (on the others the label is a coin toss)."""
    has_cue = np.array([cue is not None for cue in cues])
    return float((probabilities.argmax(axis=1) == labels)[has_cue].mean())


@pytest.fixture(scope="module", params=["a2r", "cr"])
def fitted(request):
    predictor = make_mitigation(request.param).fit(context("bow-mlp", BOW))
    yield request.param, predictor
    predictor.close()


def test_the_rationale_covers_the_cue_that_decides_the_label(fitted):
    _, predictor = fitted
    texts, labels, cues = cue_rows(200, 2)
    rationales = predictor.rationales(texts)
    assert cue_coverage(rationales, cues) >= 0.9
    assert cue_accuracy(predictor.predict_proba(texts), labels, cues) >= 0.9
    # Sparse: on cue rows one to three of the 4-11 words, never the whole text.
    kept = [len(spans) for spans, cue in zip(rationales, cues, strict=True) if cue is not None]
    assert 1 <= np.mean(kept) <= 3
    assert all(
        len(spans) < len(word_spans(text)) for text, spans in zip(texts, rationales, strict=True)
    )


def test_rationale_spans_are_sorted_word_spans_of_the_text(fitted):
    _, predictor = fitted
    texts, _, _ = cue_rows(50, 3)
    for text, spans in zip(texts, predictor.rationales(texts), strict=True):
        words = set(word_spans(text))
        assert spans == sorted(spans)
        assert all(span in words for span in spans), (text, spans)
        assert all(isinstance(value, int) for span in spans for value in span)


def test_probabilities_have_one_column_per_label_rank_and_sum_to_one(fitted):
    _, predictor = fitted
    texts = [*cue_rows(7, 4)[0], "", "!!!", "words never seen before"]
    probabilities = predictor.predict_proba(texts)
    assert probabilities.shape == (10, 3) and probabilities.dtype == np.float64
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    assert predictor.predict_proba([]).shape == (0, 3)
    assert predictor.rationales(["", "!!!"]) == [[], []]


@pytest.mark.parametrize("name", ["a2r", "cr"])
def test_a_label_absent_from_training_gets_a_column_of_exact_zeros(name):
    predictor = make_mitigation(name).fit(context("bow-mlp", {**BOW, "epochs": 2}, n_classes=4))
    probabilities = predictor.predict_proba(cue_rows(5, 5)[0])
    assert probabilities.shape == (5, 4)
    assert probabilities[:, 3].tolist() == [0.0] * 5  # label 3 has no training row
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    assert all(np.isfinite(epoch["train_loss"]) for epoch in predictor.history_)


@pytest.mark.parametrize("name", ["a2r", "cr"])
def test_same_seed_gives_identical_output_and_another_seed_differs(name):
    params = {**BOW, "epochs": 2}
    texts = cue_rows(60, 6)[0]

    def run(seed: int) -> tuple[bytes, list]:
        predictor = make_mitigation(name).fit(context("bow-mlp", params, seed=seed))
        return predictor.predict_proba(texts).tobytes(), predictor.rationales(texts)

    first = run(0)
    assert run(0) == first
    assert run(1)[0] != first[0]


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("a2r", {"rate": 0}, "The 'rate' parameter of a2r must be a float in \\(0, 1\\). Got 0"),
        ("cr", {"rate": 1.0}, "'rate' parameter of cr must be a float in \\(0, 1\\)"),
        ("a2r", {"rate": True}, "'rate' parameter of a2r"),
        ("a2r", {"rate": "0.2"}, "'rate' parameter of a2r"),
        ("cr", {"sparsity_weight": -1}, "'sparsity_weight' parameter of cr must be a non-neg"),
        ("a2r", {"continuity_weight": float("nan")}, "'continuity_weight' parameter of a2r"),
        ("cr", {"temperature": 0}, "'temperature' parameter of cr must be a positive float"),
        ("a2r", {"divergence_weight": -0.5}, "'divergence_weight' parameter of a2r"),
        ("cr", {"causal_weight": -1}, "'causal_weight' parameter of cr"),
        ("cr", {"n_counterfactuals": 0}, "'n_counterfactuals' parameter of cr must be a positive"),
        ("cr", {"n_counterfactuals": 1.5}, "'n_counterfactuals' parameter of cr"),
    ],
)
def test_bad_parameters_are_refused_on_construction(name, params, message):
    with pytest.raises(ConfigError, match=message):
        make_mitigation(name, params)


def test_unknown_parameter_and_unsupported_backend_are_refused():
    with pytest.raises(ConfigError, match="divergence_weight|unexpected|Unknown"):
        make_mitigation("cr", {"divergence_weight": 1.0})
    with pytest.raises(
        ConfigError,
        match="^The a2r mitigation does not support the tfidf-logreg model. "
        "Models it supports: bow-mlp, transformer.$",
    ):
        make_mitigation("a2r").check_backend("tfidf-logreg")
    with pytest.raises(ConfigError, match="does not support the majority model"):
        make_mitigation("cr").fit(context("majority", {}))
    with pytest.raises(UnknownComponentError, match="Did you mean 'a2r'"):
        make_mitigation("a2t")


def test_paired_inputs_are_refused_with_a_one_line_error():
    pairs = context("bow-mlp", BOW)
    pairs.train = TrainingRows([(text, text) for text in pairs.train.inputs], pairs.train.labels)
    with pytest.raises(ConfigError, match="^The cr mitigation selects a rationale inside one text"):
        make_mitigation("cr").fit(pairs)


def test_bad_backend_parameters_are_refused_by_the_backend_check():
    with pytest.raises(ConfigError, match="'embedding_dim' parameter of bow-mlp"):
        make_mitigation("a2r").fit(context("bow-mlp", {"embedding_dim": 0}))


def test_predicting_pairs_with_a_single_text_model_is_refused(fitted):
    _, predictor = fitted
    with pytest.raises(DataError, match="fitted on single texts but got pairs"):
        predictor.predict_proba([("a", "b")])


def test_get_params_round_trips_the_constructor_keywords():
    mitigation = make_mitigation("cr", {"rate": 0.3, "n_counterfactuals": 3})
    assert mitigation.get_params() == {
        "rate": 0.3,
        "sparsity_weight": 1.0,
        "continuity_weight": 0.1,
        "temperature": 1.0,
        "causal_weight": 1.0,
        "n_counterfactuals": 3,
    }
    assert make_mitigation("a2r").depends_on_seed(False) is True


@pytest.mark.parametrize(
    "text",
    [
        "Don't BUY it!",
        "İstanbul İİ is BIG",
        "ﬁne straße K9 ok",
        "a'b 'quoted' x'",
        "",
        "…",
        "Σας ΣΑΣ ab",
    ],
)
def test_word_spans_locate_each_bow_mlp_token_in_the_original_text(text):
    spans = word_spans(text)
    words = tokenize(text, bigrams=False)
    assert len(spans) == len(words)
    for (start, end), word in zip(spans, words, strict=True):
        assert word in text[start:end].lower() and start < end
    # Where lowercasing keeps lengths (all of these but "İ"), the span is the word exactly.
    if "İ" not in text:
        assert [text[s:e].lower() for s, e in spans] == words
