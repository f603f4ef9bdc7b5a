"""Shortcut injectors: pure transforms that add a label-correlated cue to texts.

Look one up by name with ``SHORTCUTS.get("single-term")``, or build one from options with
:func:`make_shortcut`.

It imports ``data``, ``llm`` (the LLM rewriter) and the bottom layer, never ``models``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.llm import client_operational
from shortcutlab.registry import Registry
from shortcutlab.shortcuts.base import (
    BinaryCueShortcut,
    Injection,
    Preparation,
    RowDraws,
    Shortcut,
    SplitPlan,
)
from shortcutlab.shortcuts.schedule import STRENGTH_MODES, cue_probabilities

#: The shortcut families of the Shortcut Maze (section 3.1): a term inserted (occurrence), the
#: whole text rewritten in a style (style), or a concept's reviews added (concept).
SHORTCUT_FAMILIES = ("occurrence", "style", "concept")

#: What each shortcut declares on its registry line (readable without importing it):
#: ``family`` (one of SHORTCUT_FAMILIES); ``inserts_cue``: the cue is text inserted into a row,
#: so builds record its character spans (:class:`InsertingShortcut`), where a style rewrite
#: changes the whole text and has none; ``operational``: the options that change how it runs but
#: not what it computes, left out of result labels (dotted names reach into mapping options).
SHORTCUT_CAPABILITIES: dict[str, Any] = {
    "family": "occurrence",
    "inserts_cue": False,
    "operational": (),
}

#: A style shortcut's rewriter options that change how it runs: its LLM client's.
STYLE_OPERATIONAL = client_operational("rewriter_options.client")

SHORTCUTS: Registry[type[Shortcut]] = Registry("shortcut", capabilities=SHORTCUT_CAPABILITIES)
SHORTCUTS.add("single-term", "shortcutlab.shortcuts.occurrence:SingleTerm", inserts_cue=True)
SHORTCUTS.add("synonym", "shortcutlab.shortcuts.occurrence:Synonym", inserts_cue=True)
SHORTCUTS.add("category", "shortcutlab.shortcuts.category:Category", inserts_cue=True)
SHORTCUTS.add(
    "register",
    "shortcutlab.shortcuts.style:Register",
    family="style",
    operational=STYLE_OPERATIONAL,
)
SHORTCUTS.add(
    "author", "shortcutlab.shortcuts.style:Author", family="style", operational=STYLE_OPERATIONAL
)
SHORTCUTS.add(
    "bible", "shortcutlab.shortcuts.style:Bible", family="style", operational=STYLE_OPERATIONAL
)
SHORTCUTS.add(
    "concept-occurrence",
    "shortcutlab.shortcuts.concept:ConceptOccurrence",
    family="concept",
    inserts_cue=True,
)
SHORTCUTS.add(
    "concept-correlation",
    "shortcutlab.shortcuts.concept:ConceptCorrelation",
    family="concept",
    inserts_cue=True,
)
SHORTCUTS.add("tautology", "shortcutlab.shortcuts.tautology:Tautology", inserts_cue=True)


def shortcut_options(name: str) -> list[str]:
    """The keyword options the named shortcut accepts (its constructor parameters)."""
    return SHORTCUTS.parameters(name)


def make_shortcut(name: str, options: Mapping[str, Any] | None = None) -> Shortcut:
    """Instantiate the shortcut ``name`` with ``options`` mapped 1:1 onto its constructor."""
    return SHORTCUTS.create(name, options, noun="option")


__all__ = [
    "SHORTCUTS",
    "SHORTCUT_FAMILIES",
    "STRENGTH_MODES",
    "BinaryCueShortcut",
    "Injection",
    "Preparation",
    "RowDraws",
    "Shortcut",
    "SplitPlan",
    "cue_probabilities",
    "make_shortcut",
    "shortcut_options",
]
