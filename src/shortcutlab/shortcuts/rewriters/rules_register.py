"""Rule-based register rewrites: formal and casual (Shortcut Maze 2.2.2, prompts of figure 5).

Formal: complex sentences and professional vocabulary (contractions expanded, "buy" -> "purchase",
short sentences joined with formal connectives, a formal opener). Casual: simple, short, spoken
sentences (contractions, everyday words, a filler opener, lower case). Sentiment words, negations
and intensifiers are never replaced, so the label stays readable in both registers.
"""

from __future__ import annotations

import re

from shortcutlab.casing import capitalize_first
from shortcutlab.shortcuts.rewriters.rules_text import (
    WordMap,
    join_sentences,
    lower_first,
    lower_title_words,
    pick,
    sentences,
)

# Objects after which "get", "use", "buy", ... are verbs ("use it"), not nouns ("daily use").
OBJECT = r"a|an|the|it|this|that|these|those|them|me|us|him|her|my|your|his|our|their|some|one|two|three|more|any|every"

EXPAND_CONTRACTIONS = WordMap(
    {
        "can't": "cannot",
        "won't": "will not",
        "shan't": "shall not",
        "ain't": "is not",
        "don't": "do not",
        "doesn't": "does not",
        "didn't": "did not",
        "isn't": "is not",
        "aren't": "are not",
        "wasn't": "was not",
        "weren't": "were not",
        "haven't": "have not",
        "hasn't": "has not",
        "hadn't": "had not",
        "couldn't": "could not",
        "wouldn't": "would not",
        "shouldn't": "should not",
        "i'm": "I am",
        "i've": "I have",
        "i'll": "I will",
        "i'd": "I would",
        "you're": "you are",
        "you've": "you have",
        "you'll": "you will",
        "you'd": "you would",
        "we're": "we are",
        "we've": "we have",
        "we'll": "we will",
        "they're": "they are",
        "they've": "they have",
        "they'll": "they will",
        "it's": "it is",
        "that's": "that is",
        "there's": "there is",
        "what's": "what is",
        "he's": "he is",
        "she's": "she is",
        "let's": "let us",
        "gonna": "going to",
        "wanna": "want to",
        "gotta": "have to",
    }
)
_FORMAL_PHRASES = WordMap(
    {
        "gets the job done": "accomplishes the task",
        "get the job done": "accomplish the task",
        "got the job done": "accomplished the task",
        "does the job": "fulfils its purpose",
        "gets by": "suffices",
        "get by": "suffice",
        "a lot of": "a considerable amount of",
        "lots of": "a great many",
        "a lot": "considerably",
        "a few": "several",
        "kind of": "to some degree",
        "sort of": "to some degree",
        "kinda": "to some degree",
        "sorta": "to some degree",
        "if you ask me": "in my estimation",
        "i guess": "I presume",
        "i think": "I believe",
        "so far": "thus far",
        "find out": "ascertain",
        "found out": "ascertained",
        "set up": "configure",
        "for the price": "given its price",
        "all in all": "on the whole",
    }
)
_FORMAL_VERBS = WordMap(
    {
        "get": "obtain",
        "gets": "obtains",
        "got": "obtained",
        "getting": "obtaining",
        "buy": "purchase",
        "buys": "purchases",
        "buying": "purchasing",
        "use": "utilise",
        "uses": "utilises",
        "using": "utilising",
        "need": "require",
        "needs": "requires",
        "help": "assist",
        "helps": "assists",
        "helped": "assisted",
        "try": "attempt",
        "tried": "attempted",
        "start": "commence",
        "show": "demonstrate",
        "showed": "demonstrated",
        "fix": "rectify",
        "fixed": "rectified",
        "check": "examine",
    },
    followed_by=OBJECT,
    not_after=("no", "the", "a", "my", "your", "our", "their", "its", "daily"),
)
_FORMAL_WORDS = WordMap(
    {
        "maybe": "perhaps",
        "kids": "children",
        "kid": "child",
        "guy": "individual",
        "guys": "individuals",
        "yeah": "yes",
        "yep": "yes",
        "nope": "no",
        "thing": "item",
        "things": "items",
        "this one": "this particular item",
        "stuff": "material",
        "also": "additionally",
        "anyway": "nevertheless",
        "big": "substantial",
        "huge": "enormous",
        "enough money": "sufficient funds",
        "money": "funds",
        "started": "commenced",
        "bought": "purchased",
        "picking": "selecting",
    }
)
_CONNECTIVES = ("; moreover, ", "; furthermore, ", "; additionally, ", ", and, in addition, ")
_FORMAL_OPENERS = (
    "Upon reflection, ",
    "In my estimation, ",
    "On careful consideration, ",
    "In my considered view, ",
    "Having evaluated it thoroughly, ",
)
_SHORT_SENTENCE_WORDS = 8

_CASUAL_CONTRACTIONS = WordMap(
    {
        "do not": "don't",
        "does not": "doesn't",
        "did not": "didn't",
        "is not": "isn't",
        "are not": "aren't",
        "was not": "wasn't",
        "were not": "weren't",
        "cannot": "can't",
        "can not": "can't",
        "will not": "won't",
        "would not": "wouldn't",
        "could not": "couldn't",
        "should not": "shouldn't",
        "have not": "haven't",
        "has not": "hasn't",
        "going to": "gonna",
        "want to": "wanna",
        "kind of": "kinda",
        "sort of": "sorta",
        "let us": "let's",
    }
)
# "It is." cannot become "It's.", so pronoun + verb contracts only before another word.
_CASUAL_PRONOUN_VERBS = WordMap(
    {
        "i am": "I'm",
        "i have been": "I've been",
        "i will": "I'll",
        "i would": "I'd",
        "it is": "it's",
        "that is": "that's",
        "there is": "there's",
        "what is": "what's",
        "you are": "you're",
        "we are": "we're",
        "they are": "they're",
        "he is": "he's",
        "she is": "she's",
    },
    followed_by=r"[\w\[]+",
)
_CASUAL_VERBS = WordMap(
    {"purchase": "buy", "purchased": "bought", "obtain": "get", "obtained": "got"},
    followed_by=OBJECT,
)
_CASUAL_WORDS = WordMap(
    {
        "received": "got",
        "however": "but",
        "therefore": "so",
        "approximately": "about",
        "children": "kids",
        "perhaps": "maybe",
        "very": "super",
        "require": "need",
        "requires": "needs",
        "assist": "help",
        "attempt": "try",
        "regarding": "about",
        "yes": "yeah",
        "money": "cash",
        "overall,": "so yeah,",
        "all in all,": "anyway,",
        "in my opinion": "imo",
        "in my experience": "from what I've seen",
        "did a lot of research": "looked around a bunch",
        "recommended it to me": "told me to get it",
    }
)
_CASUAL_SPLITS = re.compile(r"\s*(?:;\s*on the other hand,|;|,\s*although|,\s*while|,\s*but)\s+")
_CASUAL_SPLIT_WORDS = {"although": "though", "while": "but", "but": "but", "on": "but"}
_FILLERS = ("so ", "ok so ", "yeah ", "well ", "alright so ", "like ")
_CLOSERS = (" lol", " haha", "!!", " for real", " I guess")


def formal(text: str) -> str:
    """The formal register: expanded contractions, professional words, joined sentences."""
    text = EXPAND_CONTRACTIONS(text)
    text = _FORMAL_WORDS(_FORMAL_VERBS(_FORMAL_PHRASES(text)))
    text = re.sub(r"!+", ".", text.replace(" & ", " and "))
    text = re.sub(r",\s+but\s+", "; however, ", text)
    parts = sentences(text)
    joined: list[str] = []
    i = 0
    while i < len(parts):
        current = parts[i]
        short = len(current.split()) <= _SHORT_SENTENCE_WORDS and current.endswith(".")
        if short and i + 1 < len(parts):
            connective = pick(current, _CONNECTIVES, "formal-join")
            joined.append(current[:-1] + connective + lower_first(parts[i + 1]))
            i += 2
        else:
            joined.append(current)
            i += 1
    if joined:
        joined[0] = pick(text, _FORMAL_OPENERS, "formal-opener") + lower_first(joined[0])
    return join_sentences(joined)


def casual(text: str) -> str:
    """The casual register: contractions, everyday words, short sentences, a filler, lower case."""
    text = _CASUAL_PRONOUN_VERBS(_CASUAL_CONTRACTIONS(text))
    text = _CASUAL_WORDS(_CASUAL_VERBS(text))
    text = _CASUAL_SPLITS.sub(_split_clause, text)
    parts = sentences(text)
    if not parts:
        return text
    parts[0] = pick(text, _FILLERS, "casual-filler") + lower_first(parts[0])
    parts[-1] = parts[-1].rstrip(".") + pick(text, _CLOSERS, "casual-closer")
    return lower_title_words(join_sentences(parts))


def _split_clause(match: re.Match[str]) -> str:
    connective = match.group(0).strip(" ,;").split()
    word = _CASUAL_SPLIT_WORDS.get(connective[0].lower(), "") if connective else ""
    return ". " + (capitalize_first(word) + " " if word else "")
