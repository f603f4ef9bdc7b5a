"""Rule-based Bible style (Shortcut Suite, section 4.1: the Bible-style shortcut).

The King James Version's marks: sentences opened with "And", "it came to pass that", "verily",
"behold", "unto" for "to" before a person or thing, and the Early Modern English forms shared with
the Shakespeare rewrite (thou, hath, doth, -eth).
"""

from __future__ import annotations

from shortcutlab.shortcuts.rewriters.rules_archaic import archaic
from shortcutlab.shortcuts.rewriters.rules_text import (
    WordMap,
    join_sentences,
    lower_first,
    pick,
    sentences,
)

_UNTO = WordMap(
    {"to": "unto"},
    followed_by=r"me|him|her|us|them|thee|thou|my|mine|his|our|their|thy|thine|the|a|an|anyone|everyone|every|all",
)
_SAID = WordMap({"said": "spake", "told": "spake unto"})
_OPENERS = ("And it came to pass that ", "Verily I say unto thee, ", "Behold, ", "And lo, ")
_LINKS = ("And ", "And ", "And behold, ", "And verily, ", "For ")


def bible(text: str) -> str:
    """King James style: an opener, "And" before every later sentence, unto, thee and hath."""
    text = _SAID(_UNTO(archaic(text)))
    parts = sentences(text)
    if not parts:
        return text
    rewritten = [pick(text, _OPENERS, "bible-opener") + lower_first(parts[0])]
    for index, part in enumerate(parts[1:], start=1):
        link = pick(f"{index}\x00{text}", _LINKS, "bible-link")
        rewritten.append(link + lower_first(part))
    return join_sentences(rewritten)
