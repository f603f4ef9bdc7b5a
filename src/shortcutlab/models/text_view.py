"""How a fitted model reads text: its token sequence, and which terms its fitted vocabulary holds.

A model gives its view of one part of the input with ``text_view(part)`` (models/base.py; None
where it gives none, e.g. a prompted LLM): for a scikit-learn vectorizer its own preprocessor
and tokenizer (``build_preprocessor``, ``build_tokenizer``: the words ``build_analyzer`` makes
its n-grams of), its ``vocabulary_`` and ``ngram_range``; for a transformer its tokenizer. An audit
reads a candidate through it: a word the tokenizer drops ("i" under scikit-learn's default
``token_pattern``) or a term the fitted vocabulary lacks (``min_df`` pruning) is one the model
cannot see, and an n-gram counts only where its tokens are adjacent in the model's tokens.

Examples:
    >>> from sklearn.feature_extraction.text import TfidfVectorizer
    >>> view = vectorizer_view(TfidfVectorizer(ngram_range=(1, 2)).fit(["I am so glad", "so sad"]))
    >>> view.tokens("I'm so glad"), view.sees("i"), view.sees("so glad"), view.sees("so sad")
    (['so', 'glad'], False, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TextView:
    """One part's text as a model reads it.

    ``tokens(text)`` is the model's token sequence of ``text``; ``vocabulary`` the n-grams of
    tokens (joined by one space) the fitted model has a feature for, None when any token sequence
    reaches it (a subword tokenizer); ``ngram_max`` the longest n-gram it makes; ``subword``
    whether it splits words into pieces that depend on their context (a Hugging Face tokenizer:
    byte-level BPE reads "frankly" mid-sentence as 'Ġfrankly', "Frankly" as 'F' 'rankly'), so
    that :meth:`carries` out of context is unreliable and every character is kept anyway."""

    tokens: Callable[[str], list[str]]
    vocabulary: Collection[str] | None = None
    ngram_max: int | None = None
    subword: bool = False

    def phrase_tokens(self, phrase: str) -> list[str] | None:
        """The tokens of ``phrase`` (words separated by spaces), or None when a word leaves no
        token (the model drops it)."""
        found: list[str] = []
        for word in phrase.split():
            tokens = self.tokens(word)
            if not tokens:
                return None
            found.extend(tokens)
        return found

    def sees(self, phrase: str) -> bool:
        """Whether every word of ``phrase`` leaves a token and the fitted vocabulary has a feature
        for the phrase: the n-gram itself within ``ngram_max``, else each of its tokens."""
        tokens = self.phrase_tokens(phrase)
        if not tokens:
            return False
        if self.vocabulary is None:
            return True
        if self.ngram_max is None or len(tokens) <= self.ngram_max:
            return " ".join(tokens) in self.vocabulary
        return all(token in self.vocabulary for token in tokens)

    def carries(self, text: str, phrase: str) -> bool:
        """Whether the phrase's tokens occur adjacent, in order, among ``text``'s tokens."""
        wanted = self.phrase_tokens(phrase)
        if not wanted:
            return False
        tokens = self.tokens(text)
        width = len(wanted)
        return any(tokens[i : i + width] == wanted for i in range(len(tokens) - width + 1))


def vectorizer_view(vectorizer: Any) -> TextView | None:
    """The view of a fitted scikit-learn text vectorizer (``CountVectorizer``, ``TfidfVectorizer``;
    None for one that reads characters, whose terms are no words, or a custom analyzer)."""
    if getattr(vectorizer, "analyzer", None) != "word":
        return None
    preprocess = vectorizer.build_preprocessor()
    tokenize = vectorizer.build_tokenizer()
    stop_words = set(vectorizer.get_stop_words() or ())

    def tokens(text: str) -> list[str]:
        return [token for token in tokenize(preprocess(text)) if token not in stop_words]

    vocabulary = getattr(vectorizer, "vocabulary_", None)
    return TextView(
        tokens=tokens,
        vocabulary=None if vocabulary is None else frozenset(vocabulary),
        ngram_max=int(vectorizer.ngram_range[1]),
    )


def tokenizer_view(tokenizer: Any) -> TextView:
    """The view of a Hugging Face tokenizer: its ``tokenize`` (subwords; no vocabulary limit)."""
    return TextView(tokens=lambda text: list(tokenizer.tokenize(text)), subword=True)


def pipeline_views(estimator: Any) -> dict[str, TextView]:
    """The views a fitted scikit-learn estimator gives, by input part: a text vectorizer found
    in it (a pipeline step, a ``PairFeatures`` step, or the vectorizer of a ``ColumnTransformer``
    that reads the column ``text`` or ``text_pair``). Parts it reads through no vectorizer (or
    through several) are left out."""
    found: dict[str, list[TextView | None]] = {}
    for part, step in _vectorizer_steps(estimator, part="text"):
        found.setdefault(part, []).append(vectorizer_view(step))
    return {part: views[0] for part, views in found.items() if len(views) == 1 and views[0]}


def _vectorizer_steps(estimator: Any, part: str) -> list[tuple[str, Any]]:
    """(part, vectorizer) of every fitted text vectorizer inside ``estimator``."""
    if hasattr(estimator, "build_tokenizer") and hasattr(estimator, "vocabulary_"):
        return [(part, estimator)]
    if hasattr(estimator, "first_vectorizer_"):  # models/pair_features.PairFeatures
        return [("text", estimator.first_vectorizer_), ("text_pair", estimator.second_vectorizer_)]
    if hasattr(estimator, "steps"):  # a Pipeline
        return [found for _, step in estimator.steps for found in _vectorizer_steps(step, part)]
    if hasattr(estimator, "transformers_"):  # a fitted ColumnTransformer
        steps = []
        for _, step, columns in estimator.transformers_:
            column = columns if isinstance(columns, str) else None
            if column in ("text", "text_pair") and not isinstance(step, str):
                steps.extend(_vectorizer_steps(step, column))
        return steps
    if hasattr(estimator, "transformer_list"):  # a FeatureUnion: several views of one part
        return [
            found
            for _, step in estimator.transformer_list
            for found in _vectorizer_steps(step, part)
        ]
    return []
