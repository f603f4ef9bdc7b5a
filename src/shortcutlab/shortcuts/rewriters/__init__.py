"""Rewriters for the style shortcuts: ``rules`` (offline, deterministic) and ``file`` (given rewrites).

An ``llm`` rewriter, built on the LLM client layer, registers here under the same contract
(:class:`Rewriter`); its options reach it through the style shortcuts' ``rewriter_options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.registry import Registry
from shortcutlab.shortcuts.rewriters.base import ORIGINAL, STYLES, Rewriter

REWRITERS: Registry[type[Rewriter]] = Registry("rewriter")
REWRITERS.add("rules", "shortcutlab.shortcuts.rewriters.rules:RulesRewriter")
REWRITERS.add("file", "shortcutlab.shortcuts.rewriters.files:FileRewriter")


def make_rewriter(name: str, options: Mapping[str, Any] | None = None) -> Rewriter:
    """Instantiate the rewriter ``name`` with ``options`` mapped 1:1 onto its constructor."""
    return REWRITERS.create(name, options, noun="option")


__all__ = ["ORIGINAL", "REWRITERS", "STYLES", "Rewriter", "make_rewriter"]
