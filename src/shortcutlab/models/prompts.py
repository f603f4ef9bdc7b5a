"""Prompt templates and answer parsing for LLMs as classifiers.

Strategies follow the Shortcut Suite paper (section 4.4): zero-shot, few-shot in-context (k
demonstrations), zero-shot chain-of-thought ("Let's think step by step", Kojima et al.) and few-shot
chain-of-thought. The default rating template reproduces the Shortcut Maze evaluation prompt
(appendix A.3.2, figure 8): "Select one rating from [1, 2, 3, 4, 5] according to this review ...
### Rating: [". Verbalized confidence follows Xiong et al. (the Shortcut Suite's CFS).

Paired inputs get their own templates: NLI (premise / hypothesis, the Shortcut Suite's task) and
paraphrase (two questions). The Suite's prompt is its figure 1, an image in our copy, so the NLI
template is written from the paper's description (sections 3, 4.2, 4.4): the premise, the
hypothesis, the three labels, "Let's think step by step" for CoT, a final answer line, and a
verbalized confidence as a percentage for CFS.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shortcutlab.errors import ConfigError, listed
from shortcutlab.params import quoted

STRATEGIES = ("zero-shot", "few-shot", "zero-shot-cot", "few-shot-cot")
TASKS = ("auto", "classification", "nli", "paraphrase")
TEMPLATE_FIELDS = (
    "text",
    "labels",
    "demonstrations",
    "cot",
    "confidence",
    "answer_marker",
    "text_pair",
    "premise",
    "hypothesis",
)
# Label sets that make ``task: auto`` pick a pair template (compared lower-cased, "_" and " " as "-").
NLI_LABELS = frozenset(
    {"entailment", "neutral", "contradiction", "non-entailment", "not-entailment"}
)
PARAPHRASE_LABELS = frozenset(
    {"paraphrase", "not-paraphrase", "non-paraphrase", "duplicate", "not-duplicate"}
)

# Shortcut Maze, figure 8 (LLM testing prompt), generalised over the label list; the CoT and
# confidence variants ask for the same final "Rating: [N]" line so one parser serves all four.
RATING_TEMPLATE = """Below is an instruction that describes a task. Write a response that appropriately completes the request.

### Instruction:
Select one rating from [{{ labels | join(', ') }}] according to this review, where {{ labels[0] }} represents the lowest and {{ labels[-1] }} represents the highest satisfaction level. Follow the format: 
Review:
 [REVIEW] 
###
Rating: [NUMBER]
{% if cot %}Think step by step about the review first, then give the rating on the last line as "Rating: [NUMBER]".
{% endif %}{% if confidence %}After the rating, give your confidence that it is correct, from 0 to 100, on a new line as "Confidence: [NUMBER]".
{% endif %}
{% for demo in demonstrations %}Review:
{{ demo.text }}
{% if cot and demo.rationale %}{{ demo.rationale }}
{% endif %}### Rating: [{{ demo.label }}]

{% endfor %}Review:
{{ text }}
{% if cot %}Let's think step by step.{% else %}### Rating: [{% endif %}"""

LABEL_TEMPLATE = """Classify the text into exactly one of these labels: {{ labels | join(', ') }}.
{% if cot %}Think step by step first, then give the label on the last line as "Answer: <label>".
{% else %}Reply with the label only, as "Answer: <label>".
{% endif %}{% if confidence %}Then give your confidence that the label is correct, from 0 to 100, on a new line as "Confidence: <number>".
{% endif %}
{% for demo in demonstrations %}Text: {{ demo.text }}
{% if cot and demo.rationale %}{{ demo.rationale }}
{% endif %}Answer: {{ demo.label }}

{% endfor %}Text: {{ text }}
{% if cot %}Let's think step by step.{% else %}Answer:{% endif %}"""


def _pair_template(task: str, first: str, second: str) -> str:
    """A pair prompt: the task line, answer and confidence instructions, demonstrations showing
    both parts under the names ``first`` / ``second``, then the pair asked about."""
    return (
        task
        + """ Choose one label from: {{ labels | join(', ') }}.
{% if cot %}Explain your reasoning step by step, then give the final answer on the last line as "Answer: <label>".
{% else %}Reply with the label only, as "Answer: <label>".
{% endif %}{% if confidence %}Then give your confidence that the answer is correct, as a percentage from 0 to 100, on a new line as "Confidence: <number>%".
{% endif %}
{% for demo in demonstrations %}"""
        + f"{first}: {{{{ demo.text }}}}\n{second}: {{{{ demo.text_pair }}}}\n"
        + """{% if cot and demo.rationale %}{{ demo.rationale }}
{% endif %}Answer: {{ demo.label }}

{% endfor %}"""
        + f"{first}: {{{{ text }}}}\n{second}: {{{{ text_pair }}}}\n"
        + """{% if cot %}Let's think step by step.{% else %}Answer:{% endif %}"""
    )


# Shortcut Suite (figure 1, written from the description in sections 4.2 and 4.4): the pair, the
# labels, the final answer line; CoT ends with Kojima et al.'s "Let's think step by step", and the
# confidence line follows Xiong et al. as a percentage (CFS).
NLI_TEMPLATE = _pair_template(
    "Determine the relationship between the premise and the hypothesis.", "Premise", "Hypothesis"
)
# Paraphrase identification (the Suite's extended task, section 5.3: QQP vs PAWS).
PARAPHRASE_TEMPLATE = _pair_template(
    "Decide whether the two texts have the same meaning.", "Text 1", "Text 2"
)

# Few-shot CoT demonstrations need reasoning; the Shortcut Suite had GPT-4 write it (section 4.4).
RATIONALE_PROMPT = """Explain in two or three sentences why the following text has the label "{label}" (labels: {labels}). Do not restate the label at the end.

Text: {text}"""
PAIR_RATIONALE_PROMPT = """Explain in two or three sentences why the following pair has the label "{label}" (labels: {labels}). Do not restate the label at the end.

First: {text}
Second: {text_pair}"""


def resolve_task(task: str, label_names: Sequence[str], paired: bool) -> str:
    """The template family: ``auto`` picks nli / paraphrase for pairs whose labels say so.

    Examples:
        >>> resolve_task("auto", ["entailment", "neutral", "contradiction"], paired=True)
        'nli'
        >>> resolve_task("auto", ["not_duplicate", "duplicate"], paired=True)
        'paraphrase'
        >>> resolve_task("auto", ["entailment", "neutral", "contradiction"], paired=False)
        'classification'
    """
    if task not in TASKS:
        raise ConfigError(
            f"The 'task' parameter of llm-prompt must be one of {', '.join(TASKS)}. Got {quoted(task)} instead."
        )
    if task != "auto":
        return task
    names = {re.sub(r"[_\s]+", "-", str(n).strip().lower()) for n in label_names}
    if paired and names <= NLI_LABELS:
        return "nli"
    if paired and names <= PARAPHRASE_LABELS:
        return "paraphrase"
    return "classification"


def default_template(label_names: Sequence[str], task: str = "classification") -> tuple[str, str]:
    """(template, answer marker): the pair templates for nli / paraphrase, else the paper's rating
    prompt for numeric labels or a label prompt."""
    if task == "nli":
        return NLI_TEMPLATE, "Answer:"
    if task == "paraphrase":
        return PARAPHRASE_TEMPLATE, "Answer:"
    numeric = all(re.fullmatch(r"-?\d+(\.\d+)?", name) for name in label_names)
    return (RATING_TEMPLATE, "Rating:") if numeric else (LABEL_TEMPLATE, "Answer:")


def compile_template(source: str) -> Any:
    """A Jinja2 template that fails on unknown fields; unknown names are reported up front."""
    import jinja2
    from jinja2 import meta

    environment = jinja2.Environment(
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False
    )
    try:
        parsed = environment.parse(source)
    except jinja2.TemplateSyntaxError as exc:
        raise ConfigError(
            f"The llm-prompt template has a Jinja2 syntax error at line {exc.lineno}: {exc.message}."
        ) from exc
    unknown = sorted(meta.find_undeclared_variables(parsed) - set(TEMPLATE_FIELDS))
    if unknown:
        raise ConfigError(
            f"The llm-prompt template references unknown field(s) {listed(unknown)}. "
            f"Fields available: {', '.join(TEMPLATE_FIELDS)}."
        )
    return environment.from_string(source)


# A label name starts a word: not after a letter, digit or "." ("2" in "1.2" or "x2" is none).
_NOT_AFTER_WORD = r"(?<![\w.])"


@dataclass(frozen=True)
class Answer:
    label: int | None  # rank of the parsed label; None = invalid
    confidence: float | None  # in [0, 1]; None when absent or unparseable


class AnswerParser:
    """Finds the label (and an optional confidence) in a completion.

    The label is the first label name after the last answer marker; without a marker, the first
    label name in the completion (a direct answer after "### Rating: [" starts with it). Names
    match as whole words, case-insensitively, longest first ("very positive" before "positive").
    """

    def __init__(self, label_names: Sequence[str], marker: str) -> None:
        self.label_names = [str(n) for n in label_names]
        order = sorted(range(len(self.label_names)), key=lambda i: -len(self.label_names[i]))
        alternation = "|".join(re.escape(self.label_names[i]) for i in order)
        self.name_pattern = rf"({alternation})(?![\w]|\.\d)"
        self.pattern = re.compile(_NOT_AFTER_WORD + self.name_pattern, re.IGNORECASE)
        self.lookup = {name.lower(): i for i, name in enumerate(self.label_names)}
        self.marker = re.compile(re.escape(marker.rstrip(": ")) + r"\s*:?\s*\[?", re.IGNORECASE)
        self.confidence = re.compile(
            r"confidence\s*(?:level|score)?\s*[:=]?\s*\[?\s*(\d{1,3}(?:\.\d+)?)\s*%?", re.IGNORECASE
        )

    def extraction_regex(self) -> str:
        """One regular expression whose group 1 is the label :meth:`parse` reads, for tools that
        extract answers with a single ``re.findall`` (lm-evaluation-harness' ``regex`` filter).

        It skips to the last answer marker, takes the first label name after it, and fails when
        a marker follows that name. Unlike :meth:`parse` it does not first cut out the last
        confidence statement ("Confidence: 80"), so a completion where that statement holds the
        first label name found (the number 5 of "Confidence: 5" for ratings 1-5) reads
        differently. The match keeps the completion's case; compare it ignoring case.

        Examples:
            >>> import re
            >>> regex = AnswerParser(["1", "2", "3"], "Rating:").extraction_regex()
            >>> [re.findall(regex, c) for c in ["3]", "Rating: [1] no, Rating: [2]", "Rating: x"]]
            [['3'], ['2'], []]
        """
        marker = self.marker.pattern
        # parse() searches the text after the last marker on its own, where a name that starts
        # it has nothing before it: right after the marker a name needs no boundary (``??``
        # tries that first); anywhere else the same boundary as ``pattern``.
        skip = rf"(?:(?!{marker}).)*?{_NOT_AFTER_WORD}"
        return rf"(?is)^(?:.*{marker}(?:{skip})??|{skip}){self.name_pattern}(?!.*{marker})"

    def parse(self, completion: str | None) -> Answer:
        if not completion:
            return Answer(None, None)
        text = completion
        confidence = None
        found = list(self.confidence.finditer(text))
        if found:
            value = float(found[-1].group(1))
            confidence = min(max(value / 100.0, 0.0), 1.0)
            text = text[: found[-1].start()] + text[found[-1].end() :]
        markers = list(self.marker.finditer(text))
        region = text[markers[-1].end() :] if markers else text
        match = self.pattern.search(region)
        if match is None:
            return Answer(None, confidence)
        return Answer(self.lookup[match.group(1).lower()], confidence)


def check_strategy(strategy: str, k: int) -> None:
    if strategy not in STRATEGIES:
        from shortcutlab.params import close_matches

        close = close_matches(strategy, list(STRATEGIES), n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise ConfigError(
            f"The 'strategy' parameter of llm-prompt must be one of {', '.join(STRATEGIES)}. Got {quoted(strategy)} instead.{hint}"
        )
    if strategy.startswith("few-shot") and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ConfigError(
            f"The 'k' parameter of llm-prompt must be a positive integer for {strategy}. Got {quoted(k)} instead."
        )


# Error analysis (Shortcut Suite 5.2.4): a judge labels a wrong chain-of-thought answer.
ERROR_TYPES = ("distraction", "disguised comprehension", "logical fallacy", "other")
ERROR_TYPE_PROMPT = """A model answered a natural language inference question wrongly. Classify its mistake as exactly one of:
- distraction: it focused on irrelevant information (such as repeated phrases) and neglected the useful text;
- disguised comprehension: it misread words, sentence structure or style and swapped one concept for another;
- logical fallacy: it over-simplified the reasoning, generalising from a surface cue to a conclusion;
- other: none of these.

Premise: {premise}
Hypothesis: {hypothesis}
Correct label: {label}
Model's reasoning:
{reasoning}

Reply as "Error type: <type>"."""
