"""Word classes that rarely make a label what it is: function words, discourse markers and
connectives, archaic words, places, numbers and placeholders (issue 35: "content-free kinds").

A candidate made only of such words (a token, or an n-gram every word of which is one) is
evidence of a shortcut: "frankly", "i", "of the", "[NAME]". The lists are closed classes written
out here, not scikit-learn's stop-word list, which also holds content words ("fire", "bill",
"interest") a label may well depend on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from shortcutlab.families.audit.scan.lexicons import packaged_lexicons

#: Pronouns, determiners, prepositions, conjunctions, auxiliaries and particles of English.
FUNCTION_WORDS = frozenset(
    """
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves one ones
    this that these those who whom whose which what whatever whoever whichever
    a an the some any no every each either neither both all such another other
    of in on at by for with without from to into onto upon over under about above below
    between among through during before after since until till against toward towards
    across along around behind beside besides beyond near off out up down via per than
    and or but nor so yet because although though while whereas if unless whether as
    be am is are was were been being have has had having do does did doing done
    will would shall should can could may might must ought
    not n't there here then when where why how
    just also too very quite rather only even still already ever again
    to s t d ll m re ve
    anything something nothing everything anyone someone everyone nobody somebody anybody
    everybody none
    """.split()
)

#: Connectives and fillers: discourse markers the packaged lists (hedges, candour) leave out.
CONNECTIVES = frozenset(
    """
    moreover furthermore additionally however therefore thus hence consequently nevertheless
    nonetheless meanwhile likewise accordingly subsequently indeed besides instead otherwise
    anyway anyhow well ok okay yeah yep alright
    """.split()
)
#: Archaic function words and interjections: the register of a pastiche, not a label's meaning.
ARCHAIC_WORDS = frozenset(
    """
    thou thee thy thine ye hath doth dost art wilt shalt unto verily behold lo hark tis twas
    alas forsooth prithee anon ere oft whence wherefore hither thither yea nay methinks
    mayhap perchance o'er e'en 'tis 'twas
    """.split()
)

#: What each class is called in the evidence a person reads.
CLASS_NAMES = {
    "function": "function word",
    "marker": "discourse marker",
    "place": "place name",
    "number": "number",
    "placeholder": "placeholder",
    "letter": "single letter",
    "archaic": "archaic word",
    "name": "name (written capitalised in the data)",
}
_NUMBER = re.compile(r"^[0-9][0-9.,:/%-]*$")
_PLACEHOLDERS = frozenset({"name", "url", "user", "religion", "number", "email"})


@cache
def _marker_phrases() -> frozenset[str]:
    lists = packaged_lexicons()
    return frozenset([*lists["candour-markers"], *lists["discourse-markers"]])


@cache
def _place_names() -> frozenset[str]:
    """The packaged countries and cities, lower-cased, as written ("chile", "the republic of
    chile"); a name's other words are read from the data (:func:`proper_names`)."""
    lists = packaged_lexicons()
    return frozenset(name.lower() for name in [*lists["countries"], *lists["cities"]])


#: Occurrences a word needs, and the share of them written capitalised mid-sentence, to be read
#: as a name ("Chile", "Austin", "Sarah"): "see" or "nice" are written lower-case.
NAME_OCCURRENCES = 5
NAME_SHARE = 0.8
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE_END = re.compile(r"[.!?:;\n\"(\[]\s*$")


def proper_names(texts: Iterable[str]) -> frozenset[str]:
    """The words ``texts`` write as names: capitalised in at least :data:`NAME_SHARE` of their
    occurrences that do not open a sentence (lower-cased; at least :data:`NAME_OCCURRENCES`).

    Examples:
        >>> sorted(proper_names(["we met Sarah in Austin", "Sarah saw it"] * 5))
        ['austin', 'sarah']
    """
    capital: dict[str, int] = {}
    seen: dict[str, int] = {}
    for text in texts:
        for match in _WORD.finditer(text):
            start = match.start()
            if start == 0 or _SENTENCE_END.search(text[max(0, start - 3) : start]):
                continue  # a sentence's first word is capitalised whatever it is
            word = match.group(0)
            lowered = word.lower()
            seen[lowered] = seen.get(lowered, 0) + 1
            if word[0].isupper():
                capital[lowered] = capital.get(lowered, 0) + 1
    return frozenset(
        word
        for word, count in seen.items()
        if count >= NAME_OCCURRENCES
        and capital.get(word, 0) >= NAME_SHARE * count
        and word not in FUNCTION_WORDS
    )


def phrase_class(
    phrase: str, *, bracketed: bool = False, names: frozenset[str] = frozenset()
) -> str | None:
    """The content-free class of a word or phrase (a key of :data:`CLASS_NAMES`), or None for
    content. A phrase is content-free when it is a marker or place as a whole, or when each of
    its words is content-free (the strongest class of its words names it); ``bracketed``: the
    texts write the word in brackets ("[NAME]"), as data sets mark a removed name; ``names``:
    the words the data writes as names (:func:`proper_names`).

    Examples:
        >>> phrase_class("frankly"), phrase_class("to be honest"), phrase_class("frankly i")
        ('marker', 'marker', 'marker')
        >>> phrase_class("i"), phrase_class("glad"), phrase_class("so glad"), phrase_class("2019")
        ('function', None, None, 'number')
        >>> phrase_class("afghanistan"), phrase_class("name", bracketed=True), phrase_class("name")
        ('place', 'placeholder', None)
        >>> phrase_class("austin"), phrase_class("austin", names=frozenset({"austin"}))
        (None, 'name')
        >>> phrase_class("doesn't"), phrase_class("that's"), phrase_class("can't")
        ('function', 'function', 'function')
    """
    phrase = " ".join(phrase.lower().split())
    if phrase in _marker_phrases():
        return "marker"
    if phrase in _place_names():
        return "place"
    words = phrase.split()
    if len(words) == 1:
        return _word_class(words[0], bracketed=bracketed, names=names)
    classes = [phrase_class(word, bracketed=bracketed, names=names) for word in words]
    if any(found is None for found in classes):
        return None
    # "frankly i" is a marker with a pronoun: name it by its most telling word.
    for name in ("marker", "archaic", "place", "name", "placeholder", "number", "letter"):
        if name in classes:
            return name
    return "function"


#: Stems a contraction's "n't" shortens ("can't", "won't", "ain't").
_SHORT_STEMS = frozenset({"ca", "wo", "sha", "ai"})


def _word_class(word: str, *, bracketed: bool, names: frozenset[str]) -> str | None:
    if word in FUNCTION_WORDS or _contracted_function(word):
        return "function"
    if word in CONNECTIVES:
        return "marker"
    if word in ARCHAIC_WORDS:
        return "archaic"
    if _NUMBER.match(word):
        return "number"
    if bracketed and word in _PLACEHOLDERS:
        return "placeholder"
    if word in names:
        return "name"
    if len(word) == 1 and word.isalpha():  # "q", "x": no meaning alone (encoders guess)
        return "letter"
    return None


def _contracted_function(word: str) -> bool:
    """Whether a contraction joins function words: "doesn't", "i'm", "that's", "you're"."""
    word = word.replace("\u2019", "'")
    if word.endswith("n't"):
        stem = word[:-3]
        return stem in FUNCTION_WORDS or stem in _SHORT_STEMS
    head, apostrophe, tail = word.partition("'")
    return bool(apostrophe) and head in FUNCTION_WORDS and tail in ("s", "m", "re", "ve", "ll", "d")
