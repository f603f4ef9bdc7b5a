"""The ``rules`` rewriter: deterministic, offline style rewrites by hand-written rules.

Good enough for a bag-of-words model to learn each style, and it keeps the opinion words that carry
the label; it is no substitute for the paper's LLM rewrites (Shortcut Maze 2.2.2) when a study
needs fluent text, but it lets every style shortcut run anywhere, fast, with no model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from shortcutlab.shortcuts.rewriters.base import ORIGINAL, Rewriter
from shortcutlab.shortcuts.rewriters.rules_author import hemingway, shakespeare
from shortcutlab.shortcuts.rewriters.rules_bible import bible
from shortcutlab.shortcuts.rewriters.rules_register import casual, formal


def _original(text: str) -> str:
    return text


RULES: dict[str, Callable[[str], str]] = {
    "formal": formal,
    "casual": casual,
    "shakespeare": shakespeare,
    "hemingway": hemingway,
    "bible": bible,
    ORIGINAL: _original,
}


class RulesRewriter(Rewriter):
    """Rewrite by rules; an empty text has no rewrite (None)."""

    name = "rules"

    def supported_styles(self) -> tuple[str, ...]:
        return tuple(RULES)

    def rewrite(
        self, texts: Sequence[str], style: str, *, role: str, row_ids: Sequence[int] | np.ndarray
    ) -> list[str | None]:
        self.check_supports(style)
        rule = RULES[style]
        return [rule(text) if text.strip() else None for text in texts]
