"""Letter case at the start of a sentence, shared by the injectors and the rule-based rewriters.

A neutral module with no shortcutlab imports: ``shortcuts.text_ops`` and
``shortcuts.rewriters.rules_text`` both need it, and the rewriters must not import the injectors
(``shortcuts.style`` already imports the rewriters).
"""

from __future__ import annotations

import re

# What may come before a sentence's first word without being part of it (an ellipsis too).
_LEADING = " \t\n.\u2026\"'([{\u2018\u201c\u00ab\u00bf\u00a1"


def capitalize_first(text: str) -> str:
    """Upper-case the first letter after any leading spaces, quotes or brackets; nothing else changes.

    A digit or any other character in that place stops it: "3 stars" stays as it is.

    Examples:
        >>> capitalize_first("if I'm being honest"), capitalize_first("'tis"), capitalize_first("3 stars")
        ("If I'm being honest", "'Tis", '3 stars')
    """
    start = len(text) - len(text.lstrip(_LEADING))
    return text[:start] + text[start : start + 1].upper() + text[start + 1 :]


# Words whose capital is their own, not the sentence's: "I" (also as "Im"/"Ive" without the
# apostrophe), and names a short list can know: days, months, holidays, languages and peoples,
# titles. Any other word that opens a sentence with a capital followed by small letters ("The",
# "Service", "Lol") is written lower-case after a cue put before it. A name no list knows
# ("Amazon was late") is lowered too: in review and comment data such openers are rare next to
# ordinary words, and telling them apart would take a second look at every text.
KEEP_CAPITAL = frozenset(
    """
    i im ive
    monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    christmas easter halloween thanksgiving hanukkah ramadan god jesus
    english american british french german spanish italian chinese japanese korean indian
    canadian australian mexican russian european african asian irish scottish dutch
    mr mrs ms dr
    """.split()
)
#: The word a sentence opens with, before any contraction ("It" of "It's"): a capital and small
#: letters, the word ending there (so "USB" and "McDonald" do not match).
OPENER_PATTERN = r"^(?P<word>[A-Z][a-z]*)(?:'[A-Za-z]+)?(?:[^A-Za-z']|$)"
_OPENER = re.compile(OPENER_PATTERN)


def lower_ordinary_opener(text: str) -> str:
    """Lower-case the first letter of ``text`` where it is capital only because it opens the
    sentence: what follows a phrase put at a sentence's start ("Honestly, " + "The lid" ->
    "Honestly, the lid"). "I", a word with other capitals and the names of
    :data:`KEEP_CAPITAL` keep theirs; only an ASCII letter changes, so no length does.

    Examples:
        >>> [lower_ordinary_opener(t) for t in ("The lid.", "It's fine.", "I'm in.", "Monday was slow.", "USB works.")]
        ['the lid.', "it's fine.", "I'm in.", 'Monday was slow.', 'USB works.']
    """
    found = _OPENER.match(text)
    if found is None or found["word"].lower() in KEEP_CAPITAL:
        return text
    return text[:1].lower() + text[1:]
