"""Model adapters with one narrow contract (fit, predict_proba); heavy backends load lazily."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.models.base import TextClassifier
from shortcutlab.registry import Registry

MODELS: Registry[type[TextClassifier]] = Registry("model")
MODELS.add("tfidf-logreg", "shortcutlab.models.tfidf:TfidfLogReg")
MODELS.add("majority", "shortcutlab.models.majority:MajorityClass")
MODELS.add("llm-prompt", "shortcutlab.models.llm_prompt:LLMPrompt")
MODELS.add("tfidf-svm", "shortcutlab.models.tfidf_svm:TfidfSvm")
MODELS.add("bow-mlp", "shortcutlab.models.bow_mlp:BowMlp")
MODELS.add("transformer", "shortcutlab.models.transformer:TransformerClassifier")
MODELS.add("sentence-encoder", "shortcutlab.models.sentence_encoder:SentenceEncoder")


def model_options(name: str) -> list[str]:
    return MODELS.parameters(name)


def make_model(
    name: str, params: Mapping[str, Any] | None = None, *, seed: int | None = None
) -> TextClassifier:
    """Instantiate model ``name``; ``params`` map 1:1 onto its constructor (unknown keys are errors).

    ``seed`` overrides the model's own ``seed`` parameter when it has one.
    """
    params = dict(params or {})
    if seed is not None and "seed" in MODELS.parameters(name):
        params["seed"] = seed
    return MODELS.create(name, params)


__all__ = ["MODELS", "TextClassifier", "make_model", "model_options"]
