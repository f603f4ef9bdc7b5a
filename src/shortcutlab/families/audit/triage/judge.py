"""An LLM judge of a candidate's relatedness to its label's name (issue 35's ``--judge``).

Issue 35 measures relatedness to the label's name with the bundled sentence encoder
(:mod:`.relatedness`) or, optionally, a judge through the LLM clients. The judge reads
the content words the other evidence leaves open (the words the encoder reads) and answers one
short question about each, at temperature 0 with the audit's seed: is the word part of what
makes a text belong to its label, or could it as well appear in a text of any label? It answers
one word; an answer that is not exactly "signal" or "shortcut" gives no evidence (counted, never
guessed). How its answer combines with the encoder's is :func:`.evidence.group_from`'s.

Questions go through the client's ``complete``: sent concurrently, each distinct one once, and
answered from the client's own cache on a second run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shortcutlab.errors import ConfigError, knob
from shortcutlab.families.audit.triage.evidence import (
    LLM_JUDGE,
    SHORTCUT,
    SIGNAL,
    CandidateFacts,
    Evidence,
)
from shortcutlab.llm import ChatRequest, LLMClient, client_model, make_client
from shortcutlab.llm.base import require_answers

#: The one question per candidate; the labels' names are listed so the judge reads the task.
JUDGE_QUESTION = (
    "A text classifier sorts texts into these labels: {labels}.\n"
    'Is the word or phrase "{phrase}" part of what makes a text belong to the label "{name}" '
    "(answer: signal), or could it as well appear in a text of any label (answer: shortcut)?\n"
    "Answer with one word: signal or shortcut."
)
#: The answers read, and the group each points to; anything else gives no evidence.
ANSWERS = {"signal": SIGNAL, "shortcut": SHORTCUT}
#: Room for "Shortcut." and a model's end-of-turn token, not for an explanation.
ANSWER_TOKENS = 4
_ANSWER = re.compile(r"^\s*([A-Za-z]+)\s*\.?\s*$")


@dataclass
class LabelJudge:
    """An LLM client that answers, per open candidate, whether it is its label's signal."""

    client: LLMClient
    seed: int | None = None

    def add_evidence(
        self,
        items: Sequence[CandidateFacts],
        evidence: Mapping[str, list[Evidence]],
        names: Mapping[int, str],
    ) -> dict[str, Any]:
        """Ask about each of ``items`` (with a phrase and a label), append an "LLM judge" item
        to its ``evidence`` where the answer can be read, and return what the record keeps."""
        asked = [item for item in items if item.phrase and item.label_rank in names]
        labels = ", ".join(f'"{names[rank]}"' for rank in sorted(names))
        requests = [
            ChatRequest(
                messages=(("user", judge_question(item, names, labels)),),
                temperature=0.0,
                max_tokens=ANSWER_TOKENS,
                seed=self.seed,  # sent only where the client says its server honours it
            )
            for item in asked
        ]
        try:
            responses = self.client.complete(requests) if requests else []
        finally:
            self.client.close()  # connections, and an hf-causal model's weights
        require_answers(responses, asked="label-name questions", client=self.client)
        model = client_model(self.client)
        failed = unreadable = 0
        for item, response in zip(asked, responses, strict=True):
            answer = None if response.text is None else read_answer(response.text)
            if answer is not None:
                evidence[item.key].append(judge_evidence(item, answer, names, model))
            elif response.text is None:
                failed += 1
            else:
                unreadable += 1
        return {
            "client": self.client.name,
            "model": model,
            "asked": len(asked),
            "answered": len(asked) - failed - unreadable,
            "unreadable": unreadable,
            "failed": failed,
        }


def open_judge(
    spec: Mapping[str, Any] | LLMClient | None,
    names: Mapping[int, str] | None,
    *,
    seed: int | None = None,
) -> LabelJudge | None:
    """The judge ``spec`` names (a client config, as ``make_client`` takes, or a client),
    checked before any work: a server that does not answer is refused here, in one line."""
    if spec is None:
        return None
    if not names:
        raise ConfigError(
            f"{knob('judge')} asks whether a word makes a text belong to its label's name, and "
            f"the labels have none: give {knob('label_names', flag='--label-name')} (or write "
            "the labels as words)."
        )
    client = spec if isinstance(spec, LLMClient) else make_client(spec)
    try:
        client.check()
    finally:
        client.close()  # opened again for the questions, after the scan
    return LabelJudge(client, seed)


def judge_question(item: CandidateFacts, names: Mapping[int, str], labels: str) -> str:
    """The question about ``item`` (``labels``: every label's name, quoted, in label order).

    Examples:
        >>> item = CandidateFacts("t:yesterday", "yesterday", "token", "text", "yesterday", 0)
        >>> print(judge_question(item, {0: "sports", 1: "politics"}, '"sports", "politics"'))
        A text classifier sorts texts into these labels: "sports", "politics".
        Is the word or phrase "yesterday" part of what makes a text belong to the label "sports" (answer: signal), or could it as well appear in a text of any label (answer: shortcut)?
        Answer with one word: signal or shortcut.
    """
    assert item.label_rank is not None  # the caller asks only about candidates with a label
    return JUDGE_QUESTION.format(labels=labels, phrase=item.phrase, name=names[item.label_rank])


def read_answer(text: str) -> str | None:
    """SIGNAL or SHORTCUT for an answer that is exactly one of the two words (any case, a full
    stop allowed), else None: a sentence is not read for a word it might mean.

    Examples:
        >>> read_answer(" Shortcut."), read_answer("signal"), read_answer("signal, mostly")
        ('shortcut', 'signal', None)
    """
    match = _ANSWER.match(text)
    return None if match is None else ANSWERS.get(match.group(1).lower())


def judge_evidence(
    item: CandidateFacts, answer: str, names: Mapping[int, str], model: str
) -> Evidence:
    """The judge's answer about ``item`` as evidence that names the model."""
    name = names[item.label_rank] if item.label_rank is not None else "?"
    if answer == SIGNAL:
        said = f"'{item.phrase}' is part of what makes a text '{name}'"
    else:
        said = f"'{item.phrase}' could as well appear in a text of any label"
    return Evidence(LLM_JUDGE, answer, answer, f"The LLM judge {model} answers {answer}: {said}.")
