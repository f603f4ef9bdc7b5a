import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from shortcutlab.corpus import DISTRACTOR_ASPECTS, generate_corpus, generate_reviews, save_corpus
from shortcutlab.errors import ConfigError


def test_deterministic_balanced_and_with_distractor_aspects():
    frame = generate_reviews(500, seed=4)
    assert frame.equals(generate_reviews(500, seed=4))
    assert not frame.equals(generate_reviews(500, seed=5))
    assert frame["label"].value_counts().tolist() == [100] * 5
    assert len(DISTRACTOR_ASPECTS) >= 2
    for aspect in DISTRACTOR_ASPECTS:
        assert frame[f"{aspect}_label"].between(1, 5).all()
        assert frame[f"{aspect}_text"].str.len().min() > 10
    assert frame["text"].str.count(r"[.!?](\s|$)").mean() > 2.5  # multi-sentence reviews
    assert set(generate_reviews(40, levels=4)["label"]) == {1, 2, 3, 4}


def test_natural_shortcut_vocabulary_appears_rarely():
    share = generate_reviews(3000, seed=1)["text"].str.contains("honest", case=False).mean()
    assert 0.002 < share < 0.03


def test_every_sentence_ends_once_and_the_next_starts_with_a_capital():
    texts = generate_corpus(train_size=4000, test_size=2000, seed=0)["train"]["text"]
    questions = texts[texts.str.contains("?", regex=False)]
    assert len(questions) > 100  # rhetorical and aside questions, mid-text and at the end
    for doubled in ("?.", "!.", "..", ". ."):
        assert not texts.str.contains(doubled, regex=False).any(), doubled
    assert not texts.str.contains(r"[.?!] +[a-z]").any()  # a sentence never starts lower-case
    assert "Why is the manual so thin? We use it on weekends." in " ".join(texts)


@pytest.mark.parametrize("levels", [4, 5])
def test_tfidf_accuracy_is_realistic_not_perfect(levels):
    corpus = generate_corpus(train_size=3000, test_size=1500, levels=levels, seed=2)
    model = make_pipeline(
        TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
        LogisticRegression(C=10, max_iter=1000),
    )
    model.fit(corpus["train"]["text"], corpus["train"]["label"])
    accuracy = float(np.mean(model.predict(corpus["test"]["text"]) == corpus["test"]["label"]))
    assert 0.55 <= accuracy <= 0.85


def test_bad_sizes_and_levels(tmp_path):
    with pytest.raises(ConfigError, match="'levels' parameter must be 4 or 5"):
        generate_reviews(10, levels=3)
    with pytest.raises(ConfigError, match="'n' parameter must be a positive integer"):
        generate_reviews(0)
    manifest = save_corpus(tmp_path / "c", train_size=50, test_size=20, fmt="jsonl")
    assert manifest["files"]["train"]["rows"] == 50 and (tmp_path / "c" / "test.jsonl").exists()
