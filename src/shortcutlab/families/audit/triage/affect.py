"""The feeling a word carries, from the VADER lexicon (Hutto & Gilbert, ICWSM 2014: 7,500 words,
slang and emoticons rated −4..+4 by ten people each; MIT licence, read from its package file).

Word embeddings place "lol" no nearer "amusement" than "frankly" (all-MiniLM-L6-v2: 0.21 against
0.26), but VADER's raters scored "lol" +1.8 and "amusement" +1.5: for labels that name a feeling
(emotions, sentiment), a candidate whose feeling agrees with its label's name is the signal.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

#: Smallest mean rating that counts as carrying a feeling (VADER's words span −3.9..+3.4).
MIN_VALENCE = 0.5
_SUFFIXES = ("ment", "ness", "ity", "ion", "ed", "ing", "s")


@cache
def _lexicon() -> dict[str, float]:
    text = resources.files("vaderSentiment").joinpath("vader_lexicon.txt").read_text("utf-8")
    ratings = {}
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) >= 2:
            ratings[fields[0].lower()] = float(fields[1])
    return ratings


def valence(phrase: str) -> float | None:
    """VADER's rating of a word or phrase: the word's own, or for a phrase the rated word of
    largest magnitude (None when no word is rated). Negations are not read: an n-gram such as
    "not good" gets "good"'s rating, so only single words and phrases without one are judged.

    Examples:
        >>> valence("lol"), valence("frankly"), valence("so happy")
        (1.8, None, 2.7)
    """
    words = phrase.lower().split()
    if any(word in ("not", "no", "never", "n't", "without") for word in words):
        return None
    rated = [_lexicon()[word] for word in words if word in _lexicon()]
    return max(rated, key=abs) if rated else None


def name_valence(name: str) -> float | None:
    """The rating of a label's name, trying its stem's forms when the name itself is not rated
    ("excitement" is; "amusement" too; "anticipation" is read as "anticipate" is not)."""
    found = valence(name)
    if found is not None or " " in name.strip():
        return found
    word = name.strip().lower()
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            for form in (stem, stem + "e", stem + "ed", stem + "ing", stem + "y"):
                if form in _lexicon():
                    return _lexicon()[form]
    return None


def carries(value: float | None) -> bool:
    """Whether a rating counts as a feeling (its size reaches :data:`MIN_VALENCE`)."""
    return value is not None and abs(value) >= MIN_VALENCE
