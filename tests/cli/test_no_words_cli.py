"""Training texts without a word a word-based model keeps (issue 34, class A): emoji only, or
zero-width characters only. Every command that fits such a model refuses them in one line that
names the model and the fix, where scikit-learn ended in its "empty vocabulary" traceback."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.errors import DataError
from shortcutlab.models import make_model
from tests.cli.refusals import assert_refused

# The last holds words of one character, which TF-IDF's tokenizer drops (bow-mlp keeps them).
NO_WORDS = ["😀🎉", "\u200b\u200b", "🙂 👍 !!", "\u200d\ufeff", "a 1 ?"]
NO_TERM = "No training text has a term that {model} keeps (a word of two or more letters or digits)"


def _wordless(folder: Path, rows: int = 60) -> dict[str, Path]:
    paths = {}
    for split in ("train", "test"):
        table = pd.DataFrame(
            {
                "text": [NO_WORDS[i % len(NO_WORDS)] for i in range(rows)],
                "label": [1, 2] * (rows // 2),
            }
        )
        paths[split] = folder / f"{split}.csv"
        table.to_csv(paths[split], index=False)
    return paths


@pytest.mark.parametrize("model", ["tfidf-logreg", "tfidf-svm"])
def test_evaluate_refuses_texts_without_words(tmp_path, model):
    files = _wordless(tmp_path)
    assert_refused(
        tmp_path,
        NO_TERM.format(model=model),
        "evaluate", "--train", files["train"], "--test", files["test"], "--anti-test",
        files["test"], "--model", model, "--seeds", 1, "--out", tmp_path / "out",
    )  # fmt: skip


def test_audit_refuses_texts_without_words(tmp_path):
    files = _wordless(tmp_path, rows=40)
    assert_refused(
        tmp_path,
        NO_TERM.format(model="tfidf-logreg"),
        "audit", files["train"], "--test", files["test"], "--model", "tfidf-logreg",
        "--out", tmp_path / "out",
    )  # fmt: skip


def test_llm_server_refuses_to_train_on_texts_without_words(tmp_path):
    files = _wordless(tmp_path)
    result = assert_refused(
        tmp_path, NO_TERM.format(model="tfidf-logreg"), "llm-server", "--train", files["train"]
    )
    assert "Serving" not in result.stdout  # refused before it listens


def test_bow_mlp_refuses_texts_without_words():
    with pytest.raises(DataError, match="No training text has a term that bow-mlp keeps"):
        make_model("bow-mlp").fit(NO_WORDS[:4] * 5, np.array([0, 1] * 10), n_classes=2)


def test_the_refusal_names_the_part_of_a_pair_without_words():
    pairs = [(f"the premise number {i}", NO_WORDS[i % len(NO_WORDS)]) for i in range(20)]
    with pytest.raises(DataError, match=r"No training second text \(text_pair\) has a term"):
        make_model("tfidf-logreg").fit(pairs, np.array([0, 1] * 10), n_classes=2)


def test_word_n_grams_longer_than_every_text_are_named():
    texts = ["good", "bad", "fine", "awful"] * 5
    with pytest.raises(DataError, match="keeps \\(3 words in a row, each of two or more"):
        make_model("tfidf-logreg", {"ngram_range": [3, 3]}).fit(
            texts, np.array([0, 1] * 10), n_classes=2
        )


def test_one_text_with_a_word_is_enough():
    texts = [*NO_WORDS * 3, "honestly"]
    fitted = make_model("tfidf-logreg").fit(texts, np.array([0, 1] * 8), n_classes=2)
    assert fitted.predict_proba(["honestly", "😀"]).shape == (2, 2)
