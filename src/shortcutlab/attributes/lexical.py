"""Attributes read off the surface of the text: negation (NBS) and questions (QBS).

Both run as Arrow (RE2) kernels over the whole column, so annotating 100k rows costs
milliseconds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.base import Annotation, Attribute
from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted

# Paper 002, appendix A.4: the negation lexicon of NBS.
PAPER_LEXICON = ("not", "don't", "doesn't", "no", "none", "nobody", "never", "nothing")
# The default adds every n't contraction (can't, isn't, won't, ...): the entry "n't" stands for
# them all. A.4 gives its list as examples ("e.g."), and leaving out "isn't" while keeping
# "doesn't" would split negated sentences by spelling, not by negation.
DEFAULT_LEXICON = ("not", "no", "none", "nobody", "never", "nothing", "n't")
LEXICONS = {"default": DEFAULT_LEXICON, "paper": PAPER_LEXICON}
_WORD = r"[a-z0-9']+"


def text_array(texts: Sequence[str] | pa.Array) -> pa.Array:
    """``texts`` as one Arrow array of large strings (an Arrow array is taken as it is)."""
    if isinstance(texts, pa.Array):
        return texts
    return pa.array(list(texts), type=pa.large_string())


def normalised(texts: Sequence[str] | pa.Array) -> pa.Array:
    """Lower-cased, curly apostrophes made straight, tokenised ``do n't`` joined into ``don't``."""
    array = pc.utf8_lower(text_array(texts))
    array = pc.replace_substring(array, "\u2019", "'")
    return pc.replace_substring_regex(array, r"\s+n't", "n't")


class Negation(Attribute):
    """NBS: ``with_negation`` when a lexicon word occurs as a whole word, else ``without_negation``.

    ``lexicon`` is ``"default"``, ``"paper"`` (A.4's eight words) or a list of words; the entry
    ``n't`` matches any contraction ending in n't. Matching ignores case and treats the tokenised
    spelling of real corpora (``do n't``) like ``don't``.

    Examples:
        >>> Negation().annotate(["I do n't care", "Nothing works", "a notable film", "it isn’t"]).values.tolist()
        ['with_negation', 'with_negation', 'without_negation', 'with_negation']
        >>> Negation(lexicon="paper").annotate(["it isn't good", "it doesn't work"]).values.tolist()
        ['without_negation', 'with_negation']

    Args:
        lexicon: The negation words: default, paper (A.4's eight) or a list.
    """

    name = "negation"
    VALUES = ("with_negation", "without_negation")

    def __init__(self, lexicon: str | Sequence[str] = "default") -> None:
        if isinstance(lexicon, str):
            if lexicon not in LEXICONS:
                raise ConfigError(
                    f"The negation lexicon must be 'default', 'paper' or a list of words. Got {quoted(lexicon)}."
                )
            words = LEXICONS[lexicon]
        else:
            words = tuple(str(w).strip().lower().replace("\u2019", "'") for w in lexicon)
            if not words or any(not re.fullmatch(_WORD, w) for w in words):
                raise ConfigError(
                    f"The negation lexicon needs at least one word of letters, digits or apostrophes. Got {quoted(list(lexicon))}."
                )
        self.lexicon = lexicon if isinstance(lexicon, str) else list(words)
        self.words = tuple(dict.fromkeys(words))
        alternatives = [re.escape(w) for w in self.words if w != "n't"]
        if "n't" in self.words:
            alternatives.append(r"[a-z0-9]*n't")
        # RE2 has no look-behind: the word is bounded by the text's ends or a non-word character.
        self._pattern = rf"(^|[^a-z0-9'])({'|'.join(alternatives)})($|[^a-z0-9'])"

    def annotate(
        self, texts: Sequence[str], columns: Mapping[str, Sequence[Any]] | None = None
    ) -> Annotation:
        found = pc.match_substring_regex(normalised(texts), self._pattern)
        mask = found.to_numpy(zero_copy_only=False).astype(bool)
        return Annotation(np.where(mask, self.VALUES[0], self.VALUES[1]).astype(object))

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "lexicon": self.lexicon, "words": list(self.words)}

    def possible_values(self) -> list[str]:
        return list(self.VALUES)


class Question(Attribute):
    """QBS: ``with_question`` when the text holds a question mark (A.4), else ``without_question``.

    Examples:
        >>> Question().annotate(["Why ?", "fine.", "really？"]).values.tolist()
        ['with_question', 'without_question', 'with_question']
    """

    name = "question"
    VALUES = ("with_question", "without_question")

    def annotate(
        self, texts: Sequence[str], columns: Mapping[str, Sequence[Any]] | None = None
    ) -> Annotation:
        array = text_array(texts)
        # The full-width mark too: the same punctuation in CJK-typed text.
        found = pc.match_substring_regex(array, "[?\uff1f]")
        mask = found.to_numpy(zero_copy_only=False).astype(bool)
        return Annotation(np.where(mask, self.VALUES[0], self.VALUES[1]).astype(object))

    def config(self) -> dict[str, Any]:
        return {"name": self.name}

    def possible_values(self) -> list[str]:
        return list(self.VALUES)
