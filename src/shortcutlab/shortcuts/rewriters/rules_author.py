"""Rule-based author styles: Shakespeare and Hemingway (Shortcut Maze 2.2.2, prompts of figure 6).

Shakespeare: Early Modern English forms (thou, hath, doth, -eth, 'tis) and an interjection
(Forsooth, Prithee, Alas). Hemingway: plain declarative sentences; hedges, intensifiers
(very, really, absolutely) and -ly adverbs before a word are dropped, contrasts become "and".
Sentiment adjectives and negations are never touched, so the label survives both.
"""

from __future__ import annotations

import re

from shortcutlab.casing import capitalize_first
from shortcutlab.shortcuts.rewriters.rules_archaic import archaic
from shortcutlab.shortcuts.rewriters.rules_text import (
    WordDropper,
    WordMap,
    join_sentences,
    lower_first,
    pick,
    sentences,
)

_INTERJECTIONS = (
    "Forsooth, ",
    "Prithee, ",
    "Alas, ",
    "Marry, ",
    "In faith, ",
    "By my troth, ",
    "Hark! ",
)

# Shakespeare's elided past tenses ("us'd", "order'd"), for common verbs only: adjectives in -ed
# ("pleased", "disappointed") carry the opinion and stay as they are.
_ELISIONS = WordMap(
    {
        verb: verb[:-2] + "'d"
        for verb in """replaced ordered used received returned arrived stopped started expected
        recommended needed wanted picked looked worked cleaned charged stayed lasted opened
        showed asked called turned played helped moved owned followed""".split()
    }
)
_HEDGE = re.compile(
    r"^(?:overall|all in all|for the most part|to be fair|in my experience|in my opinion|so far|"
    r"to be honest|in all honesty|if you ask me|i guess|i think|\w+ly|\w+ly speaking),\s+|"
    r"^(?:i guess|i think)\s+",
    re.IGNORECASE,
)
_INTENSIFIERS = WordDropper(
    (
        "very",
        "really",
        "extremely",
        "absolutely",
        "incredibly",
        "truly",
        "genuinely",
        "seriously",
        "totally",
        "completely",
        "utterly",
        "quite",
        "fairly",
        "rather",
        "somewhat",
        "slightly",
        "pretty",
        "just plain",
        "kind of",
        "sort of",
    ),
    not_before="than",
)
# Words ending in -ly that are not adverbs, or adverbs that carry the opinion itself.
_KEEP_LY = frozenset(
    """only early daily weekly monthly yearly hourly nightly family italy july fly ally rely reply
    apply supply belly jelly bully rally tally holy silly jolly lovely ugly friendly likely unlikely
    lonely lively deadly elderly costly curly oily chilly smelly wobbly bubbly comply assembly
    anomaly butterfly monopoly poorly badly nicely perfectly beautifully flawlessly terribly horribly
    awfully wonderfully brilliantly miserably happily sadly hardly barely scarcely nearly
    unfortunately luckily hopefully properly easily""".split()
)
_LY_ADVERBS = WordDropper(pattern=r"[A-Za-z]{2,}ly", keep=_KEEP_LY.__contains__)
_AND_CHAIN = re.compile(
    r"\s*(?:;\s*on the other hand,|;\s*however,|,\s*although|,\s*though|,\s*while|,\s*whereas|;)\s+",
    re.IGNORECASE,
)


def shakespeare(text: str) -> str:
    """Early Modern English forms and an opening interjection."""
    text = _ELISIONS(archaic(text))
    interjection = pick(text, _INTERJECTIONS, "shakespeare")
    if interjection.endswith("! "):
        return interjection + capitalize_first(text)
    return interjection + lower_first(text)


def hemingway(text: str) -> str:
    """Plain declarative sentences without hedges, intensifiers or -ly adverbs, chained by "and"."""
    text = _AND_CHAIN.sub(" and ", text)
    parts = [capitalize_first(_HEDGE.sub("", part)) for part in sentences(text)]
    text = _LY_ADVERBS(_INTENSIFIERS(join_sentences(parts)))
    return re.sub(r"\s+([,.!?])", r"\1", text)
