"""Attribute annotators for MPS builds: ``ATTRIBUTES`` and :func:`make_attribute`.

Examples:
    >>> make_attribute("negation").annotate(["not bad", "good"]).values.tolist()
    ['with_negation', 'without_negation']
    >>> ATTRIBUTES.names()
    ['column', 'core-word-concept', 'frequent-words', 'negation', 'question', 'sentence-concept']

It imports ``models`` (the embedding method), ``llm`` (the LLM method) and the bottom layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.attributes.base import Annotation, Attribute
from shortcutlab.llm import client_operational
from shortcutlab.registry import Registry

#: ``operational``: the options that change how an annotator runs (where embeddings are cached,
#: batch sizes, the device, its LLM client's cache and concurrency), not what it annotates; result
#: labels leave them out (dotted names reach into mapping options).
ATTRIBUTES: Registry[type[Attribute]] = Registry("attribute", capabilities={"operational": ()})
ATTRIBUTES.add("negation", "shortcutlab.attributes.lexical:Negation")
ATTRIBUTES.add("question", "shortcutlab.attributes.lexical:Question")
ATTRIBUTES.add("frequent-words", "shortcutlab.attributes.frequent_words:FrequentWords")
ATTRIBUTES.add("column", "shortcutlab.attributes.column:ColumnAttribute")
#: The concept annotators' operational options (their embedding and LLM settings).
CONCEPT_OPERATIONAL = ("batch_size", "cache_dir", "device", *client_operational("client"))
ATTRIBUTES.add(
    "sentence-concept",
    "shortcutlab.attributes.concepts:SentenceConcept",
    operational=CONCEPT_OPERATIONAL,
)
ATTRIBUTES.add(
    "core-word-concept",
    "shortcutlab.attributes.concepts:CoreWordConcept",
    operational=CONCEPT_OPERATIONAL,
)


def make_attribute(name: str, options: Mapping[str, Any] | None = None) -> Attribute:
    """The attribute ``name`` built with ``options`` (unknown options are a ConfigError)."""
    return ATTRIBUTES.create(name, options, noun="option")


__all__ = ["ATTRIBUTES", "Annotation", "Attribute", "make_attribute"]
