"""NLI scorers: p(contradiction) for (first, second) sentence pairs, for the Suite's ICS (section 4.2).

The paper used an NLI cross-encoder (Laurer et al. 2024). Three sources are offered:

- :class:`HFNliScorer`: any Hugging Face sequence-classification checkpoint; the contradiction
  column is found by name in ``config.id2label`` (an error if no label names a contradiction);
- :class:`ModelNliScorer`: a fitted shortcutlab pair model trained on NLI labels;
- :class:`LLMJudgeScorer`: an LLM asked for the probability that one statement contradicts the
  other, through the project's clients (cached like every LLM call).

Each has ``contradiction_probabilities(firsts, seconds) -> (n,)``; ``firsts[i]`` plays the
premise and ``seconds[i]`` the hypothesis. NaN marks a pair that could not be scored (only
scorers with ``parses_answers``, whose answers are text, return it).

Examples:
    >>> contradiction_index(["ENTAILMENT", "NEUTRAL", "CONTRADICTION"], where="demo")
    2
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

import numpy as np

from shortcutlab.errors import ConfigError, listed
from shortcutlab.models.base import TextClassifier

JUDGE_PROMPT = """Statement A: {first}
Statement B: {second}

How likely is it that statement B contradicts statement A, from 0 (no contradiction) to 100 (a certain contradiction)? Reply as "Contradiction: <number>"."""
_JUDGE_ANSWER = re.compile(r"contradiction\s*:\s*(\d{1,3}(?:\.\d+)?)", re.IGNORECASE)


class NliScorer(Protocol):
    parses_answers: ClassVar[bool]

    def contradiction_probabilities(
        self, firsts: Sequence[str], seconds: Sequence[str]
    ) -> np.ndarray: ...


def contradiction_index(label_names: Sequence[Any], *, where: str) -> int:
    """The position of the contradiction label among ``label_names`` (matched by its start)."""
    for index, name in enumerate(label_names):
        if str(name).strip().lower().startswith("contradict"):
            return index
    raise ConfigError(
        f"The NLI model {where} has labels {listed(label_names)}, none of which is a "
        "contradiction label; ICS needs one (e.g. 'contradiction' in config.id2label)."
    )


class HFNliScorer:
    """A sequence-classification checkpoint (folder or hub name) scoring (premise, hypothesis)."""

    parses_answers: ClassVar[bool] = False

    def __init__(
        self, path: str, *, batch_size: int = 32, max_length: int = 256, device: str = "auto"
    ) -> None:
        from shortcutlab.models.hf_loading import model_source
        from shortcutlab.torch_runtime import resolve_device

        self.source = model_source("nli-model", "path", path)
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = resolve_device(device, "nli-model")
        from transformers import AutoConfig

        config = self.source.load(AutoConfig.from_pretrained)
        id2label = getattr(config, "id2label", None) or {}
        names = [id2label[i] for i in sorted(id2label)]
        self.label_names = names
        self.index = contradiction_index(names, where=f"at {path}")
        self._model: Any = None

    def _load(self) -> tuple[Any, Any]:
        if self._model is None:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            self._tokenizer = self.source.load(AutoTokenizer.from_pretrained)
            model = self.source.load(AutoModelForSequenceClassification.from_pretrained)
            self._model = model.to(self.device).eval()
        return self._tokenizer, self._model

    def contradiction_probabilities(
        self, firsts: Sequence[str], seconds: Sequence[str]
    ) -> np.ndarray:
        import torch

        tokenizer, model = self._load()
        out = np.zeros(len(firsts), dtype=np.float64)
        for start in range(0, len(firsts), self.batch_size):
            stop = start + self.batch_size
            batch = tokenizer(
                list(firsts[start:stop]),
                list(seconds[start:stop]),
                truncation=True,
                max_length=self.max_length,
                padding=True,
                return_tensors="pt",
            ).to(self.device)
            with torch.no_grad():
                logits = model(**batch).logits
            out[start:stop] = torch.softmax(logits.float(), dim=-1)[:, self.index].cpu().numpy()
        return out


class ModelNliScorer:
    """A fitted shortcutlab model that reads pairs, with its label values in rank order."""

    parses_answers: ClassVar[bool] = False

    def __init__(self, model: TextClassifier, label_values: Sequence[Any]) -> None:
        if not model.capabilities()["pairs"]:
            raise ConfigError(
                f"The {model.name} model reads one text per row, so it cannot score sentence "
                "pairs for ICS; use a pair model such as tfidf-logreg."
            )
        self.model = model
        self.index = contradiction_index(label_values, where=f"{model.name}")

    def contradiction_probabilities(
        self, firsts: Sequence[str], seconds: Sequence[str]
    ) -> np.ndarray:
        if len(firsts) == 0:
            return np.zeros(0)
        pairs = list(zip(firsts, seconds, strict=True))
        return np.asarray(self.model.predict_proba(pairs), dtype=np.float64)[:, self.index]


class LLMJudgeScorer:
    """An LLM judge: ``client`` is an openai-chat / hf-causal configuration. An unparseable
    answer scores NaN (counted in ``unparsed_``); ICS leaves out explanations with such a pair."""

    parses_answers: ClassVar[bool] = True

    def __init__(self, client: Mapping[str, Any], *, max_tokens: int = 16) -> None:
        from shortcutlab.llm import make_client

        self.client = make_client(dict(client))
        self.max_tokens = max_tokens
        self.unparsed_ = 0

    def contradiction_probabilities(
        self, firsts: Sequence[str], seconds: Sequence[str]
    ) -> np.ndarray:
        from shortcutlab.llm.base import ChatRequest, require_answers

        requests = [
            ChatRequest(
                messages=(("user", JUDGE_PROMPT.format(first=a, second=b)),),
                max_tokens=self.max_tokens,
            )
            for a, b in zip(firsts, seconds, strict=True)
        ]
        out = np.full(len(requests), np.nan)
        responses = self.client.complete(requests)
        require_answers(responses, asked="judge prompts", client=self.client)
        for row, response in enumerate(responses):
            match = _JUDGE_ANSWER.search(response.text or "")
            if match is None:
                self.unparsed_ += 1
            else:
                out[row] = min(float(match.group(1)), 100.0) / 100.0
        return out

    def close(self) -> None:
        self.client.close()
