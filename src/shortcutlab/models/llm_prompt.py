"""LLMs as models under test: prompt a chat model for each text and parse its answer.

``fit`` only draws the few-shot demonstrations (per seed, balanced over labels) and, for few-shot
chain-of-thought, asks the model for their rationales (the Shortcut Suite used GPT-4 for these).
``predict_proba`` returns one-hot rows; an unparseable answer gives an all-zero row, which the
engine records as ``invalid`` and scores as wrong. Raw answers, confidences and usage are kept
in ``prediction_details_`` and ``usage_``.

Paired inputs (premise/hypothesis, question pairs) render through the NLI or paraphrase template
(``task``; ``auto`` picks by the label names), and few-shot demonstrations show both parts.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.labels import check_case_distinct
from shortcutlab.data.pairs import TextInput, is_paired, split_inputs
from shortcutlab.errors import ConfigError, DataError, ShortcutlabWarning, knob, listed
from shortcutlab.models.base import TextClassifier, check_sample_weight, check_training_data
from shortcutlab.models.prompts import (
    PAIR_RATIONALE_PROMPT,
    RATIONALE_PROMPT,
    TASKS,
    AnswerParser,
    check_strategy,
    compile_template,
    default_template,
    resolve_task,
)
from shortcutlab.params import check_non_negative_float, check_positive_int, quoted

DIRECT_TOKENS = 5  # the paper's max_new_tokens for label answers (Shortcut Maze A.3.2)
REASONING_TOKENS = 512


class LLMPrompt(TextClassifier):
    """Classify by prompting ``client`` (an ``openai-chat`` or ``hf-causal`` configuration).

    ``template`` is Jinja2 text with the fields text, text_pair (premise and hypothesis are
    aliases of the two parts), labels, demonstrations, cot, confidence and answer_marker; by
    default the paper's rating prompt (numeric labels), a label prompt, or for pairs the NLI /
    paraphrase prompt that ``task`` selects.

    Args:
        client: The LLM client config, e.g. {name: openai-chat, base_url: URL, model: NAME}.
        strategy: Prompting: zero-shot, few-shot, zero-shot-cot or few-shot-cot.
        task: Prompt for: auto (from the labels), classification, nli or paraphrase.
        k: How many few-shot demonstrations, drawn per seed, balanced over labels.
        template: Jinja2 user prompt replacing the default one.
        system: A system message sent before each prompt.
        label_names: One name per label, in label order (default: the label values).
        answer_marker: The label is read after its last occurrence (default: the template's).
        confidence: Whether the prompt asks for a confidence with the answer.
        max_tokens: Tokens per answer (default: 5, 21 with confidence, 512 with CoT).
        temperature: Sampling temperature of every request.
        seed: Seed of the demonstration draw, also sent with each request.
    """

    name = "llm-prompt"

    def __init__(
        self,
        client: Mapping[str, Any] | None = None,
        strategy: str = "zero-shot",
        task: str = "auto",
        k: int = 3,
        template: str | None = None,
        system: str | None = None,
        label_names: Sequence[str] | None = None,
        answer_marker: str | None = None,
        confidence: bool = False,
        max_tokens: int | None = None,
        temperature: float = 0.0,
        seed: int = 0,
    ) -> None:
        self.client = client
        self.strategy = strategy
        self.task = task
        self.k = k
        self.template = template
        self.system = system
        self.label_names = label_names
        self.answer_marker = answer_marker
        self.confidence = confidence
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed

    # -- configuration ------------------------------------------------------------------------
    def depends_on_seed(self) -> bool:
        """Few-shot demonstrations are drawn per seed; otherwise the prompts are the same for every
        seed and only a server that honours the request's seed can answer differently."""
        return self.strategy.startswith("few-shot") or bool(
            dict(self.client or {}).get("honours_seed", False)
        )

    def check(self, n_classes: int | None = None) -> None:
        if not isinstance(self.client, Mapping) or "name" not in self.client:
            raise ConfigError(
                "The llm-prompt model needs a 'client' mapping, e.g. {name: openai-chat, base_url: "
                "http://127.0.0.1:8000/v1, model: my-model} or {name: hf-causal, path: models/llama}."
            )
        check_strategy(self.strategy, self.k)
        if self.task not in TASKS:
            resolve_task(self.task, [], paired=False)  # raises the ConfigError naming the tasks
        check_non_negative_float(self.name, "temperature", self.temperature)
        if self.max_tokens is not None:
            check_positive_int(self.name, "max_tokens", self.max_tokens)
        if (
            self.label_names is not None
            and n_classes is not None
            and len(self.label_names) != n_classes
        ):
            raise ConfigError(
                f"The 'label_names' parameter of llm-prompt gives {len(self.label_names)} names but the data "
                f"has {n_classes} labels. Give one name per label, in the benchmark's label order."
            )
        if self.label_names is not None:  # the answer parser reads names ignoring case
            names = [str(name) for name in self.label_names]
            check_case_distinct(names, "The 'label_names' parameter of llm-prompt", ConfigError)
        compile_template(self._template(["x"] * (n_classes or 2), "classification")[0])
        self._llm().check()

    def _llm(self) -> Any:
        """The client, built once per model (an hf-causal client loads its weights only once)."""
        if getattr(self, "_client", None) is None:
            from shortcutlab.llm import make_client

            self._client = make_client(dict(self.client or {}))
        return self._client

    def close(self) -> None:
        if getattr(self, "_client", None) is not None:
            self._client.close()
            self._client = None

    def _names(self, n_classes: int) -> list[str]:
        return (
            [str(n) for n in self.label_names]
            if self.label_names is not None
            else [str(v) for v in getattr(self, "label_values_", range(n_classes))]
        )

    def _template(self, names: Sequence[str], task: str) -> tuple[str, str]:
        template, marker = default_template(names, task)
        return (self.template or template), (self.answer_marker or marker)

    def set_label_values(self, values: Sequence[Any]) -> None:
        """Default label names are the benchmark's label values (e.g. 1..5, or neutral/joy/...)."""
        self.label_values_ = list(values)

    # -- the contract ---------------------------------------------------------------------------
    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        labels = check_training_data(texts, labels, n_classes)
        self.check(n_classes)
        check_sample_weight(self, sample_weight, len(labels))  # refuses any: prompts weigh no rows
        self.prepare_prompts(n_classes, paired=is_paired(texts))
        self.usage_: dict[str, int] = {}
        if self.strategy.startswith("few-shot"):
            self.demonstrations_ = self._draw_demonstrations(list(texts), labels)
        return self

    def prepare_prompts(self, n_classes: int, *, paired: bool) -> LLMPrompt:
        """Choose the template, answer marker and parser for ``n_classes`` labels, with no
        client and no demonstrations (``fit`` draws those): enough for :meth:`prompt`, the
        answer parser and :meth:`answer_tokens`, e.g. to export the prompts to another tool."""
        self.n_classes_ = n_classes
        self.names_ = self._names(n_classes)
        self.paired_ = paired
        self.task_ = resolve_task(self.task, self.names_, self.paired_)
        if self.task_ in ("nli", "paraphrase") and not self.paired_:
            raise ConfigError(
                f"The llm-prompt task {quoted(self.task_)} needs paired inputs (text and text_pair) but the "
                f"data has one text per row. Use task=classification or name {knob('text_pair_col')}."
            )
        source, marker = self._template(self.names_, self.task_)
        class_ids = self.names_ == [str(i) for i in range(n_classes)]
        if self.template is None and self.label_names is None and class_ids and not self.paired_:
            # Labels 0..K-1 are usually class ids (GoEmotions' 0-3 are emotions), not a rating
            # scale, yet numbers get the paper's rating prompt; ratings (1-5, 0.2-1.0) do not warn.
            warnings.warn(
                f"llm-prompt uses the Shortcut Maze rating prompt because the labels "
                f"({listed(self.names_)}) are numbers, and asks for a satisfaction rating. If "
                f"they are categories, name them in label order, e.g. "
                f'-p "label_names=[{listed(f"name{n}" for n in self.names_)}]".',
                ShortcutlabWarning,
                stacklevel=3,
            )
        self.compiled_ = compile_template(source)
        self.marker_ = marker
        self.parser_ = AnswerParser(self.names_, marker)
        self.cot_ = self.strategy.endswith("cot")
        self.demonstrations_: list[dict[str, str]] = []
        return self

    def _draw_demonstrations(
        self, texts: list[TextInput], labels: np.ndarray
    ) -> list[dict[str, str]]:
        """k training rows, balanced over labels (round-robin over a seeded label order)."""
        rng = np.random.default_rng(self.seed)
        by_label = {
            int(c): rng.permutation(np.flatnonzero(labels == c)).tolist() for c in np.unique(labels)
        }
        order = rng.permutation(sorted(by_label)).tolist()
        chosen: list[int] = []
        while len(chosen) < min(self.k, len(texts)):
            for label in order:
                if by_label[label] and len(chosen) < self.k:
                    chosen.append(by_label[label].pop())
        rng.shuffle(chosen)
        firsts, seconds = split_inputs(texts)
        demos = [
            {
                "text": firsts[i],
                "text_pair": "" if seconds is None else seconds[i],
                "label": self.names_[int(labels[i])],
                "rationale": "",
            }
            for i in chosen
        ]
        if self.cot_:
            self._add_rationales(demos)
        return demos

    def _add_rationales(self, demos: list[dict[str, str]]) -> None:
        from shortcutlab.llm.base import ChatRequest

        requests = [
            ChatRequest(
                messages=self._messages(
                    (PAIR_RATIONALE_PROMPT if self.paired_ else RATIONALE_PROMPT).format(
                        label=d["label"],
                        labels=", ".join(self.names_),
                        text=d["text"],
                        text_pair=d["text_pair"],
                    )
                ),
                temperature=self.temperature,
                max_tokens=REASONING_TOKENS,
                seed=self.seed,
            )
            for d in demos
        ]
        for demo, response in zip(demos, self._complete(requests), strict=True):
            demo["rationale"] = (response.text or "").strip()

    def _messages(self, content: str) -> tuple[tuple[str, str], ...]:
        return ((("system", self.system),) if self.system else ()) + (("user", content),)

    def _complete(self, requests: list[Any]) -> list[Any]:
        from shortcutlab.llm.base import require_answers

        client = self._llm()
        before = client.usage.to_json()
        responses = client.complete(requests)
        for key, value in client.usage.to_json().items():
            self.usage_[key] = self.usage_.get(key, 0) + int(value) - int(before.get(key, 0))
        require_answers(responses, asked=f"prompts of {self.name}", client=client)
        return responses

    def prompt(self, text: TextInput) -> str:
        """The full user message for ``text``, one text or a (first, second) pair (useful to
        inspect what the model sees)."""
        first, second = text if isinstance(text, tuple) else (text, None)
        return self.compiled_.render(
            text=first,
            text_pair=second,
            premise=first,
            hypothesis=second,
            labels=self.names_,
            demonstrations=self.demonstrations_,
            cot=self.cot_,
            confidence=self.confidence,
            answer_marker=self.marker_,
        )

    def answer_tokens(self) -> int:
        """The ``max_tokens`` of every answer: the option, else 5 (21 with a confidence) or 512
        for chain-of-thought."""
        return self.max_tokens or (
            REASONING_TOKENS if self.cot_ else DIRECT_TOKENS + (16 if self.confidence else 0)
        )

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        from shortcutlab.llm.base import ChatRequest

        if len(texts) and is_paired(texts) != self.paired_:
            raise DataError(
                f"llm-prompt was fitted on {'paired' if self.paired_ else 'single-text'} inputs but "
                f"is asked about {'paired' if is_paired(texts) else 'single-text'} ones; give both "
                "the same columns."
            )
        max_tokens = self.answer_tokens()
        requests = [
            ChatRequest(
                messages=self._messages(self.prompt(t)),
                temperature=self.temperature,
                max_tokens=max_tokens,
                seed=self.seed,
            )
            for t in texts
        ]
        responses = self._complete(requests)
        answers = [self.parser_.parse(r.text) for r in responses]
        self._require_labels(responses, answers)
        probabilities = np.zeros((len(texts), self.n_classes_))
        for row, answer in enumerate(answers):
            if answer.label is not None:
                probabilities[row, answer.label] = 1.0
        self.prediction_details_ = {
            "raw": [r.text for r in responses],
            "errors": [r.error for r in responses],
            "invalid": np.array([a.label is None for a in answers]),
            "confidence": np.array(
                [np.nan if a.confidence is None else a.confidence for a in answers]
            ),
        }
        return probabilities

    def _require_labels(self, responses: Sequence[Any], answers: Sequence[Any]) -> None:
        """Refuse a batch in which most answers name no label: scored as wrong, they would make
        a Δ (and a "no reliance" finding) out of a prompt the model does not answer."""
        from shortcutlab.llm.base import MOST_FAILED

        unread = [r.text for r, a in zip(responses, answers, strict=True) if a.label is None]
        if len(unread) <= MOST_FAILED * len(answers):
            return
        examples = listed(list(dict.fromkeys(unread))[:3], show=repr)
        raise ConfigError(
            f"{len(unread)} of {len(answers)} answers to llm-prompt name none of the labels "
            f"{listed(self.names_, show=repr)} after {quoted(self.marker_)} (e.g. {examples}). "
            "Check 'label_names' (the words the model answers, in label order), 'template' and "
            "'answer_marker'."
        )
