"""Attribute annotators for MPS builds: ``ATTRIBUTES`` and :func:`make_attribute`.

Examples:
    >>> make_attribute("negation").annotate(["not bad", "good"]).values.tolist()
    ['with_negation', 'without_negation']
    >>> ATTRIBUTES.names()
    ['column', 'core-word-concept', 'frequent-words', 'negation', 'question', 'sentence-concept']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.attributes.base import Annotation, Attribute
from shortcutlab.registry import Registry

ATTRIBUTES: Registry[type[Attribute]] = Registry("attribute")
ATTRIBUTES.add("negation", "shortcutlab.attributes.lexical:Negation")
ATTRIBUTES.add("question", "shortcutlab.attributes.lexical:Question")
ATTRIBUTES.add("frequent-words", "shortcutlab.attributes.frequent_words:FrequentWords")
ATTRIBUTES.add("column", "shortcutlab.attributes.column:ColumnAttribute")
ATTRIBUTES.add("sentence-concept", "shortcutlab.attributes.concepts:SentenceConcept")
ATTRIBUTES.add("core-word-concept", "shortcutlab.attributes.concepts:CoreWordConcept")


def make_attribute(name: str, options: Mapping[str, Any] | None = None) -> Attribute:
    """The attribute ``name`` built with ``options`` (unknown options are a ConfigError)."""
    return ATTRIBUTES.create(name, options, noun="option")


__all__ = ["ATTRIBUTES", "Annotation", "Attribute", "make_attribute"]
