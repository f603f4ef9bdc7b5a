"""A model's view of its text (models/text_view.py): the words its tokenizer keeps, the terms its
fitted vocabulary holds, and n-grams only from adjacent tokens; declared on the model
(``text_view``), found inside saved scikit-learn pipelines, None where a model gives none."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline

from shortcutlab.models import make_model
from shortcutlab.models.text_view import TextView, pipeline_views, vectorizer_view

TEXTS = ["I am so glad", "so sad today", "I'm so glad you came", "rare word here"]
LABELS = np.array([1, 0, 1, 0])


def test_tfidf_logreg_cannot_see_one_letter_words_but_sees_its_ngrams():
    model = make_model("tfidf-logreg", {}).fit(TEXTS, LABELS, n_classes=2)
    view = model.text_view("text")
    assert view.tokens("I'm so glad") == ["so", "glad"]  # "i" and "m" dropped by token_pattern
    assert not view.sees("i") and not view.sees("i glad")
    assert view.sees("glad") and view.sees("so glad") and view.sees("glad you")
    assert not view.sees("zebra")  # never in the fitted vocabulary


def test_min_df_pruning_and_ngram_range_decide_what_is_seen():
    pruned = make_model("tfidf-logreg", {"min_df": 2}).fit(TEXTS, LABELS, n_classes=2)
    assert pruned.text_view("text").sees("glad") and not pruned.text_view("text").sees("rare")
    words_only = make_model("tfidf-logreg", {"ngram_range": [1, 1]}).fit(TEXTS, LABELS, n_classes=2)
    view = words_only.text_view("text")
    # no bigram feature: an n-gram longer than the range is seen through its words alone
    assert view.ngram_max == 1 and view.sees("so glad") and not view.sees("so zebra")


def test_an_ngram_is_carried_only_where_its_tokens_are_adjacent():
    view = vectorizer_view(TfidfVectorizer(ngram_range=(1, 2)).fit(TEXTS))
    assert view.carries("Oh, so glad!", "so glad")
    assert not view.carries("so very glad", "so glad") and not view.carries("glad so", "so glad")
    assert not view.carries("I'm glad", "i glad")  # "i" is no token of this model


def test_each_part_of_a_pair_has_its_own_view():
    pairs = [(t, h) for t, h in zip(TEXTS, ["never", "always", "never again", "so"], strict=True)]
    model = make_model("tfidf-logreg", {}).fit(pairs, LABELS, n_classes=2)
    assert model.text_view("text_pair").sees("never") and not model.text_view("text").sees("never")
    assert model.text_view("text").sees("glad") and not model.text_view("text_pair").sees("glad")


def test_saved_pipelines_give_the_view_of_their_vectorizer_per_column():
    plain = Pipeline([("words", CountVectorizer()), ("clf", LogisticRegression())])
    assert pipeline_views(plain.fit(TEXTS, LABELS))["text"].sees("glad")
    frame = pd.DataFrame({"text": TEXTS, "text_pair": ["never", "always", "never again", "so"]})
    columns = ColumnTransformer(
        [("premise", TfidfVectorizer(), "text"), ("hypothesis", CountVectorizer(), "text_pair")]
    )
    paired = Pipeline([("features", columns), ("clf", LogisticRegression())]).fit(frame, LABELS)
    views = pipeline_views(paired)
    assert set(views) == {"text", "text_pair"}
    assert views["text_pair"].sees("never") and not views["text"].sees("never")
    characters = Pipeline([("c", TfidfVectorizer(analyzer="char")), ("clf", LogisticRegression())])
    assert pipeline_views(characters.fit(TEXTS, LABELS)) == {}  # characters are no words


def test_a_model_without_a_view_gives_none_and_a_tokenizer_view_has_no_vocabulary():
    assert make_model("majority", {}).fit(TEXTS, LABELS, n_classes=2).text_view("text") is None
    view = TextView(tokens=lambda text: text.lower().split())
    assert view.sees("anything at all") and view.carries("A b c", "b c")


def test_a_transformer_reads_its_text_through_its_tokenizer(tiny_bert):
    params = {"path": str(tiny_bert), "epochs": 1, "batch_size": 16}
    model = make_model("transformer", params, seed=0)
    model.fit(["a good film", "a bad film"] * 8, np.array([1, 0] * 8), n_classes=2)
    view = model.text_view("text")
    assert view.vocabulary is None and view.sees("i")  # subwords: no word is dropped
    assert view.carries("A good film.", "good film")
    assert not view.carries("good old film", "good film")
