"""Rewriters for the style shortcuts: ``rules`` (offline, deterministic), ``file`` (given rewrites)
and ``llm`` (the paper's prompts through the LLM client layer; options via ``rewriter_options``).

Part of :mod:`shortcutlab.shortcuts`; it imports what that package may.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.registry import Registry
from shortcutlab.shortcuts.rewriters.base import ORIGINAL, STYLES, Rewriter

REWRITERS: Registry[type[Rewriter]] = Registry("rewriter")
REWRITERS.add("rules", "shortcutlab.shortcuts.rewriters.rules:RulesRewriter")
REWRITERS.add("file", "shortcutlab.shortcuts.rewriters.files:FileRewriter")
REWRITERS.add("llm", "shortcutlab.shortcuts.rewriters.llm:LLMRewriter")


def make_rewriter(name: str, options: Mapping[str, Any] | None = None) -> Rewriter:
    """Instantiate the rewriter ``name`` with ``options`` mapped 1:1 onto its constructor."""
    return REWRITERS.create(name, options, noun="option")


__all__ = ["ORIGINAL", "REWRITERS", "STYLES", "Rewriter", "make_rewriter"]
