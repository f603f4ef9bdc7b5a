"""Deterministic backends for the local test server: answer the project's own prompts.

``project_backend`` recognises three kinds of prompt and answers each without a language model:

- classification (the ``llm-prompt`` templates): the text to classify goes to a scikit-learn model
  trained on a labelled table, and the answer comes in the format the prompt asks for, with a
  verbalized confidence when asked. A TF-IDF model takes shortcuts like any other, so an LLM
  evaluation against this server shows real anti-test drops;
- NLI and paraphrase prompts (premise / hypothesis, text 1 / text 2): a pair classifier trained on
  paired data answers; chain-of-thought prompts get several reasoning sentences built from the
  pair (what each part says, which hypothesis words the premise lacks, what follows) before the
  answer line, so the Suite's explanation metrics have real steps to score;
- contradiction judging (``models/nli_scorers.py``'s LLM judge): p(contradiction) from the same
  pair classifier when its labels include a contradiction label;
- error-type judging (Shortcut Suite 5.2.4): rules, not judgement: "distraction" when a phrase
  repeats three times in the pair (the position set's tautologies), "disguised comprehension"
  when every hypothesis word is in the premise (the HANS-style sets), "logical fallacy" when the
  reasoning concluded entailment although the hypothesis adds words, else "other";
- style rewrites (the Shortcut Maze prompts of figures 5-6, and the Bible one): the rules rewriter;
- rewrite-quality judging (figure 7's four criteria): scores from word overlap;
- concept labelling (the MPS prompts, figures 3-4): the category whose line shares the most words
  with the sentence, in the paper's answer form, or an answer naming none when nothing is shared.

They use ``models`` and ``shortcuts``, so they live above both, not in ``llm`` (see the package).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from shortcutlab.attributes.concept_llm import (
    CATEGORIES_HEADER,
    INSTRUCTION_START,
    SENTENCE_HEADER,
)
from shortcutlab.data import LabelSpace, load_table
from shortcutlab.data.pairs import TextInput, is_paired, model_inputs
from shortcutlab.models import make_model
from shortcutlab.models.nli_scorers import JUDGE_PROMPT
from shortcutlab.models.prompts import ERROR_TYPE_PROMPT
from shortcutlab.shortcuts.rewriters import make_rewriter

# The text to classify follows the prompt's last "Review:" / "Text:" line: the instructions and
# the demonstrations come first, and the paper's instructions quote "Review:\n[REVIEW]" themselves.
_INPUT_START = re.compile(r"(?:^|\n)(?:Review:\s*\n|Text:\s*)")
_INPUT_END = re.compile(r"\n(?:### Rating|Let's think step by step|Answer:)")
# The pair asked about is the prompt's last "Premise:/Hypothesis:" (or "Text 1:/Text 2:") couple.
_PAIR_INPUT = re.compile(
    r"(?:^|\n)(?:Premise|Text 1):[ \t]*(?P<first>[^\n]*)\n(?:Hypothesis|Text 2):[ \t]*(?P<second>[^\n]*)"
)
_JUDGE_INPUT = re.compile(
    r"^Statement A:[ \t]*(?P<first>[^\n]*)\nStatement B:[ \t]*(?P<second>[^\n]*)\n"
)
_WORD = re.compile(r"[a-z0-9']+")
# Where llm-prompt's templates list the labels to choose from (models/prompts.py): the label
# prompt, the pair prompts, and the Maze's rating prompt.
_LISTED_LABELS = re.compile(
    r"(?:exactly one of these labels: |Choose one label from: )(?P<names>[^\n]*)\.\n"
    r"|Select one rating from \[(?P<ratings>[^\]\n]*)\]"
)
# What the reasoning concludes before the answer line, per NLI / paraphrase label.
_CONCLUSIONS = {
    "entailment": "So the premise supports the hypothesis.",
    "non-entailment": "So the premise does not establish the hypothesis.",
    "neutral": "So the premise neither supports nor rules out the hypothesis.",
    "contradiction": "So the premise rules out the hypothesis.",
}
_REWRITE_INPUT = re.compile(r'Input Text:\s*"(?P<text>.*)"\s*\n###\s*Output:', re.DOTALL)
_JUDGE_PAIR = re.compile(
    r"Original text:\s*(?P<original>.*?)\nModified text:\s*(?P<modified>.*?)(?:\n\n|\Z)", re.DOTALL
)
_STYLE_WORDS = (
    ("shakespeare", "shakespeare"),
    ("hemingway", "hemingway"),
    ("bible", "bible"),
    ("complex sentence structures", "formal"),
    ("formal", "formal"),
    ("simple, short", "casual"),
    ("casual", "casual"),
)


class ClassifierAnswers:
    """Answer classification prompts with a fitted model; label names as the prompt spells them."""

    def __init__(self, model: Any, label_names: Sequence[str], *, paired: bool = False) -> None:
        self.model = model
        self.label_names = [str(n) for n in label_names]
        self.paired = paired

    @classmethod
    def from_table(
        cls,
        table: Any,
        *,
        model: str = "tfidf-logreg",
        labels: Sequence[Any] | None = None,
        **load: Any,
    ) -> ClassifierAnswers:
        """Train ``model`` on a labelled table (anything :func:`load_table` reads; with
        ``text_pair_col`` a pair classifier for NLI and paraphrase prompts)."""
        loaded = load_table(table, role="train", **load)
        values = loaded.frame["label"].tolist()
        # Sorted label names by default: a fixed order, without the first-appearance warning.
        space = LabelSpace.infer(
            values, given=labels if labels is not None else sorted(set(values))
        )
        inputs = model_inputs(loaded.frame)
        fitted = make_model(model).fit(
            inputs, space.ranks(loaded.frame["label"]), n_classes=len(space)
        )
        return cls(fitted, [str(v) for v in space.values], paired=is_paired(inputs))

    def probabilities(self, item: TextInput) -> np.ndarray:
        return np.asarray(self.model.predict_proba([item]), dtype=np.float64)[0]

    def __call__(self, prompt: str) -> str:
        pair = pair_input(prompt)
        if self.paired:
            if pair is None:
                return "This test server's classifier reads pairs; ask with Premise:/Hypothesis: lines."
            return self.pair_answer(prompt, pair)
        text = input_text(prompt)
        probabilities = self.probabilities(text)
        name = self.names_asked(prompt)[int(probabilities.argmax())]
        confidence = _confidence_line(prompt, probabilities)
        rating = "### Rating: [" in prompt or "Rating: [NUMBER]" in prompt
        if prompt.rstrip().endswith("### Rating: ["):
            return f"{name}]{confidence}"
        if "step by step" in prompt.lower():
            reason = f"The text reads most like the label {name}."
            return (
                f"{reason}\nRating: [{name}]{confidence}"
                if rating
                else f"{reason}\nAnswer: {name}{confidence}"
            )
        return f" {name}{confidence}"

    def pair_answer(self, prompt: str, pair: tuple[str, str]) -> str:
        """A label answer for an NLI / paraphrase prompt; for CoT, reasoning sentences first."""
        probabilities = self.probabilities(pair)
        name = self.names_asked(prompt)[int(probabilities.argmax())]
        confidence = _confidence_line(prompt, probabilities, percent=True)
        if "step by step" not in prompt.lower():
            return f" {name}{confidence}"
        return "\n".join([*pair_reasoning(*pair, name), f"Answer: {name}"]) + confidence

    def names_asked(self, prompt: str) -> list[str]:
        """The label names as the prompt lists them, where it lists as many as the classifier
        has, in label order (llm-prompt's ``label_names``), as an LLM answers with the words it
        is offered; else the training table's labels.

        Examples:
            >>> answers = ClassifierAnswers(None, ["0", "1"])
            >>> answers.names_asked("Classify the text into exactly one of these labels: sad, glad.\\n")
            ['sad', 'glad']
            >>> answers.names_asked("Select one rating from [1, 2, 3] according to this review")
            ['0', '1']
        """
        found = _LISTED_LABELS.search(prompt)
        listed = (found["names"] or found["ratings"] or "").split(", ") if found else []
        return listed if len(listed) == len(self.label_names) else self.label_names

    def contradiction_answer(self, prompt: str) -> str | None:
        """p(contradiction) for the NLI scorers' judge prompt, or None if it is not one."""
        match = _JUDGE_INPUT.match(prompt)
        if match is None or not prompt.endswith(JUDGE_PROMPT.rpartition("\n")[2]):
            return None
        names = [n.lower() for n in self.label_names]
        if not self.paired or "contradiction" not in names:
            return "This test server's classifier has no contradiction label."
        probabilities = self.probabilities((match.group("first"), match.group("second")))
        return f"Contradiction: {round(100 * float(probabilities[names.index('contradiction')]))}"


def _confidence_line(prompt: str, probabilities: np.ndarray, *, percent: bool = False) -> str:
    if "confidence" not in prompt.lower():
        return ""
    return f"\nConfidence: {round(100 * float(probabilities.max()))}{'%' if percent else ''}"


def pair_reasoning(first: str, second: str, label: str) -> list[str]:
    """Reasoning sentences about a pair: what each part says, the hypothesis words the premise
    lacks, and the conclusion the label implies.

    Examples:
        >>> pair_reasoning("A man sleeps on a sofa.", "A man sleeps.", "entailment")
        ['The premise states: A man sleeps on a sofa.', 'The hypothesis states: A man sleeps.', 'Every word of the hypothesis also appears in the premise.', 'So the premise supports the hypothesis.']
    """
    first_words = set(_WORD.findall(first.lower()))
    missing = [w for w in dict.fromkeys(_WORD.findall(second.lower())) if w not in first_words]
    if missing:
        shown = ", ".join(f'"{w}"' for w in missing[:5])
        overlap = f"The hypothesis uses words the premise does not mention: {shown}."
    else:
        overlap = "Every word of the hypothesis also appears in the premise."
    conclusion = _CONCLUSIONS.get(
        re.sub(r"[_\s]+", "-", label.lower()), f"So the pair is best described as {label}."
    )
    return [
        f"The premise states: {_sentence(first)}",
        f"The hypothesis states: {_sentence(second)}",
        overlap,
        conclusion,
    ]


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if text.endswith((".", "!", "?")) else text + "."


def pair_input(prompt: str) -> tuple[str, str] | None:
    """The (premise, hypothesis) or (text 1, text 2) an NLI / paraphrase prompt asks about.

    Examples:
        >>> pair_input("Choose.\\nPremise: It rains.\\nHypothesis: It is wet.\\nAnswer:")
        ('It rains.', 'It is wet.')
    """
    found = list(_PAIR_INPUT.finditer(prompt))
    if not found:
        return None
    return found[-1].group("first").strip(), found[-1].group("second").strip()


def input_text(prompt: str) -> str:
    """The text a classification prompt asks about (the whole prompt when it marks none).

    Examples:
        >>> input_text("Rate it.\\nReview:\\n[REVIEW]\\n###\\nRating: [NUMBER]\\n\\nReview:\\nNice lamp.\\n### Rating: [")
        'Nice lamp.'
    """
    starts = list(_INPUT_START.finditer(prompt))
    if not starts:
        return prompt
    rest = prompt[starts[-1].end() :]
    end = _INPUT_END.search(rest)
    return (rest[: end.start()] if end else rest).strip()


def rewrite_answer(prompt: str) -> str | None:
    """The rules rewriter's version of a rewrite prompt's input, or None if it is not one."""
    match = _REWRITE_INPUT.search(prompt)
    if match is None:
        return None
    instruction = prompt[: match.start()].lower()
    style = next((s for word, s in _STYLE_WORDS if word in instruction), None)
    if style is None:
        return None
    rewritten = make_rewriter("rules", {}).rewrite(
        [match.group("text")], style, role="train", row_ids=np.array([0])
    )[0]
    return rewritten or ""


def judge_answer(prompt: str) -> str | None:
    """Scores for figure 7's four questions from word overlap, or None if ``prompt`` is not a judge prompt."""
    if "faithfulness" not in prompt.lower():
        return None
    match = _JUDGE_PAIR.search(prompt)
    if match is None:
        return "Q1: 3\nQ2: 3\nQ3: 3\nQ4: 3"
    original = set(re.findall(r"\w+", match.group("original").lower()))
    modified = set(re.findall(r"\w+", match.group("modified").lower()))
    kept = len(original & modified) / max(len(original), 1)
    added = len(modified - original) / max(len(modified), 1)
    score = lambda value: int(np.clip(round(1 + 4 * value), 1, 5))  # noqa: E731 - a one-line scale
    return f"Q1: {score(kept)}\nQ2: {score(kept)}\nQ3: {score(1 - added)}\nQ4: {score(kept)}"


def concept_answer(prompt: str) -> str | None:
    """The category line sharing most words with the sentence (ties: the first), in figure 15's
    answer form; None if ``prompt`` is not a concept prompt.

    Examples:
        >>> prompt = (f"{INSTRUCTION_START} ...\\n{CATEGORIES_HEADER}\\n\\nComedy: e.g., jokes, "
        ...           f"laughs.\\nDrama: e.g., tears.\\n\\n{SENTENCE_HEADER}\\n\\nso many laughs")
        >>> concept_answer(prompt)
        'Acknowledged. I will proceed with the task. Based on the input sentence so many laughs, the most matching concept is: Comedy.'
    """
    if not prompt.startswith(INSTRUCTION_START) or SENTENCE_HEADER not in prompt:
        return None
    head, _, sentence = prompt.rpartition(SENTENCE_HEADER)
    listed = head.rpartition(CATEGORIES_HEADER)[2]
    sentence = sentence.strip()
    words = set(re.findall(r"\w\w+", sentence.lower())) - ENGLISH_STOP_WORDS
    best, shared = None, 0
    for line in listed.strip().splitlines():
        name, colon, _ = line.partition(":")
        overlap = len(words & set(re.findall(r"\w\w+", line.lower())))
        if colon and overlap > shared:
            best, shared = name.strip(), overlap
    if best is None:
        return "None of these categories fits the sentence."
    return (
        "Acknowledged. I will proceed with the task. Based on the input sentence "
        f"{sentence}, the most matching concept is: {best}."
    )


def error_type_answer(prompt: str) -> str | None:
    """The rules' error type for an error-analysis prompt, or None if ``prompt`` is not one.

    Examples:
        >>> prompt = ERROR_TYPE_PROMPT.format(premise="The doctor saw the actor.",
        ...     hypothesis="The actor saw the doctor.", label="non-entailment", reasoning="Same words.")
        >>> error_type_answer(prompt)
        'Error type: disguised comprehension'
    """
    if not prompt.startswith(ERROR_TYPE_PROMPT.partition("\n")[0]):
        return None
    pair = pair_input(prompt)
    if pair is None:
        return "Error type: other"
    first, second = (_WORD.findall(part.lower()) for part in pair)
    words = first + second
    trigrams = [tuple(words[i : i + 3]) for i in range(len(words) - 2)]
    if trigrams and max(trigrams.count(t) for t in set(trigrams)) >= 3:
        return "Error type: distraction"
    if set(second) <= set(first):
        return "Error type: disguised comprehension"
    reasoning = prompt.rpartition("Model's reasoning:")[2].lower()
    if "answer: entailment" in reasoning:
        return "Error type: logical fallacy"
    return "Error type: other"


def project_backend(classifier: ClassifierAnswers | None = None) -> Any:
    """A ChatServer backend answering judge, rewrite, concept and (with ``classifier``) classification prompts."""

    def respond(messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
        prompt = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
        for answer in (
            judge_answer(prompt),
            rewrite_answer(prompt),
            concept_answer(prompt),
            error_type_answer(prompt),
        ):
            if answer is not None:
                return answer
        if classifier is None:  # an answer no parser accepts: scored as invalid, never retried
            return "This test server has no classifier; start it with --train FILE to answer label prompts."
        judged = classifier.contradiction_answer(prompt)
        return judged if judged is not None else classifier(prompt)

    return respond
