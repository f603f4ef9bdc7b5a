"""Early Modern English forms shared by the Shakespeare and Bible rewrites.

thou/thee/thy for you/your, hath/doth for has/does, -eth verb endings, 'tis/'twas, and a few
archaic words (ere, oft, perchance). Contractions are expanded first, since neither style has
modern ones.
"""

from __future__ import annotations

import re

from shortcutlab.shortcuts.rewriters.rules_register import EXPAND_CONTRACTIONS
from shortcutlab.shortcuts.rewriters.rules_text import WordMap, match_case, previous_word

_PRONOUN_PHRASES = WordMap(
    {
        "it is": "'tis",
        "it's": "'tis",
        "it was": "'twas",
        "you are": "thou art",
        "you were": "thou wert",
        "you have": "thou hast",
        "you do": "thou dost",
        "you will": "thou wilt",
        "you can": "thou canst",
        "you cannot": "thou canst not",
        "you would": "thou wouldst",
        "you should": "thou shouldst",
        "are you": "art thou",
        "do you": "dost thou",
        "have you": "hast thou",
        "can you": "canst thou",
        "will you": "wilt thou",
        "yourself": "thyself",
        "yours": "thine",
        "does not": "doth not",
        "does": "doth",
        "has": "hath",
        "i think": "methinks",
    }
)
_VERB_ENDINGS = WordMap(
    {
        "works": "worketh",
        "makes": "maketh",
        "seems": "seemeth",
        "gets": "getteth",
        "comes": "cometh",
        "goes": "goeth",
        "says": "saith",
        "knows": "knoweth",
        "keeps": "keepeth",
        "takes": "taketh",
        "gives": "giveth",
        "brings": "bringeth",
        "lasts": "lasteth",
        "fails": "faileth",
        "loves": "loveth",
        "hates": "hateth",
        "deserves": "deserveth",
        "remains": "remaineth",
        "feels": "feeleth",
        "looks": "looketh",
        "struggles": "struggleth",
        "performs": "performeth",
    }
)
_WORDS = WordMap(
    {
        "before": "ere",
        "often": "oft",
        "perhaps": "perchance",
        "maybe": "perchance",
        "between": "betwixt",
        "over": "o'er",
        "yes": "aye",
        "money": "coin",
    }
)
_YOUR_VOWEL = WordMap({"your": "thine", "my": "mine"}, followed_by=r"[aeiouAEIOU]\w*")
_YOUR = WordMap({"your": "thy"})
_YOU = re.compile(r"(?<![\w'\u2019-])you(?![\w'\u2019-])", re.IGNORECASE)
# "you" is the subject (thou) at a clause start or after these words, otherwise the object (thee).
_SUBJECT_CONTEXT = frozenset(
    {"", "and", "but", "if", "when", "that", "because", "so", "as", "unless", "or", "than"}
)


def archaic(text: str) -> str:
    """Apply the shared Early Modern English forms to ``text``."""
    text = _PRONOUN_PHRASES(EXPAND_CONTRACTIONS(text))
    text = _YOUR(_YOUR_VOWEL(text))
    text = _WORDS(_VERB_ENDINGS(text))
    return _YOU.sub(_you, text)


def _you(match: re.Match[str]) -> str:
    before = match.string[max(0, match.start() - 3) : match.start()]
    clause_start = re.search(r"[.!?,;:]\s*$", before) is not None
    subject = clause_start or previous_word(match.string, match.start()) in _SUBJECT_CONTEXT
    return match_case(match.group(0), "thou" if subject else "thee")
