"""The ``llm`` method of the concept annotators: the paper's prompts and the parse of the answers.

The prompts are paper 002's meta templates (figure 3 for sentence-level concepts, figure 4 for
core-word concepts), filled with the data set's name and its category list as in figures 5-20.
Requests go through the LLM client layer (``shortcutlab.llm``): concurrent, retried, and cached
per request, so the answer cache is the annotation cache (a prompt holds the level, the data set
name, the categories and the text) and an interrupted annotation resumes where it stopped.

Examples:
    >>> parse_answer("Based on the input sentence, the most matching concept is: Film Terms.",
    ...              ["Film Terms", "Film Titles"])
    'Film Terms'
    >>> parse_answer("actors/actresses", ["Film Terms", "Actors/Actresses"])
    'Actors/Actresses'
    >>> parse_answer("Comedy or Drama", ["Comedy", "Drama"]) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from shortcutlab.attributes.categories import Category, folded
from shortcutlab.errors import BackendError, ConfigError
from shortcutlab.params import quoted

INSTRUCTION_START = "You are an expert in text concept extraction."
CATEGORIES_HEADER = "All categories and their descriptions are as follows:"
SENTENCE_HEADER = "The Sentence is:"
_NOTES = (
    "Note:\n\n"
    "- (1) You must choose from the provided categories below and must not generate results "
    "outside these categories.\n"
    "- (2) {second}\n"
    "- (3) Do not output any additional content—only output a single English category. {third}\n\n"
    f"{CATEGORIES_HEADER}\n\n"
    "{categories}\n\n"
    f"{SENTENCE_HEADER}\n\n"
    "{text}"
)
# Figure 3 (SCS) and figure 4 (CCS), with {dataset} as "the Rotten Tomatoes dataset".
PAPER_TEMPLATES = {
    "sentence": f"{INSTRUCTION_START} Please read the complete sentence "
    "of the text content from {dataset} and classify the entire review text into one of the "
    "following review categories. Assign only one category per review.\n\n"
    + _NOTES.replace(
        "{second}",
        "Provide the category that the entire text content of each data entry belongs to, "
        "using English.",
    ).replace("{third}", "No explanations or reasons."),
    "core-word": f"{INSTRUCTION_START} Based on the text content of "
    "{dataset}, please read the entire sentence and classify the words appearing in the review "
    "text into one of the following review categories. Assign only one category per review.\n\n"
    + _NOTES.replace(
        "{second}",
        "For each data entry, provide the category name that corresponds to certain words in "
        "the entire text, using English.",
    ).replace(
        "{third}",
        "If multiple categories apply, choose the most important and obvious one. No "
        "explanations or reasons.",
    ),
}
# The form of the paper's example outputs: "..., the most matching concept is: {Selected Concept}."
_MARKER = re.compile(r"concept\s+is\s*:?", re.IGNORECASE)
# Room for the paper's long answer form, which repeats the sentence before naming the concept.
DEFAULT_MAX_TOKENS = 96


def check_template(template: Any, owner: str) -> None:
    """A prompt template holds ``{categories}`` and ``{text}`` once each (``{dataset}`` optional)."""
    valid = isinstance(template, str) and all(
        template.count(field) == 1 for field in ("{categories}", "{text}")
    )
    if not valid:
        raise ConfigError(
            f"The 'template' option of {owner} must be text holding {{categories}} and {{text}} "
            f"once each (and optionally {{dataset}}). Got {quoted(template)} instead."
        )


def render_prompt(
    template: str, categories: Sequence[Category], dataset_name: str | None, text: str
) -> str:
    """The prompt for one text: each category as "Name: e.g., description" (figures 3-4)."""
    lines = [f"{c.name}: e.g., {c.description}" if c.description else c.name for c in categories]
    dataset = f"the {dataset_name} dataset" if dataset_name else "the given dataset"
    filled = template.replace("{dataset}", dataset).replace("{categories}", "\n".join(lines))
    return filled.replace("{text}", text)  # last, so a text holding "{dataset}" stays as it is


def parse_answer(answer: str | None, names: Sequence[str]) -> str | None:
    """The one category an answer names (ignoring case and punctuation), else None.

    After the paper's "the most matching concept is:" only the rest counts. Longer names win
    where one contains another; an answer naming two different categories is not an answer.
    """
    if answer is None:
        return None
    tail = _MARKER.split(answer)[-1]
    spoken = f" {folded(tail)} "
    by_form = {folded(name): name for name in names}
    found = set()
    for form in sorted(by_form, key=len, reverse=True):
        if f" {form} " in spoken:
            found.add(by_form[form])
            spoken = spoken.replace(f" {form} ", "  ")
    return found.pop() if len(found) == 1 else None


def llm_values(
    texts: Sequence[str],
    *,
    client_config: Mapping[str, Any],
    template: str,
    categories: Sequence[Category],
    dataset_name: str | None,
    max_tokens: int,
    temperature: float,
) -> tuple[list[str | None], dict[str, Any]]:
    """One category or None per text, and the counts: ``invalid`` answers, client ``usage``."""
    from shortcutlab.llm import ChatRequest, make_client

    names = [c.name for c in categories]
    with make_client(dict(client_config)) as client:
        client.check()  # an unreachable server is a one-line ConfigError naming its URL
        requests = [
            ChatRequest(
                messages=(("user", render_prompt(template, categories, dataset_name, text)),),
                temperature=temperature,
                max_tokens=max_tokens,
            )
            for text in texts
        ]
        responses = client.complete(requests)
        failed = [r for r in responses if r.text is None]
        if failed:
            raise BackendError(
                f"{len(failed)} of {len(texts)} concept prompts to {client.identity()} got no "
                f"answer (first: {failed[0].error}). The answers received are cached: run again "
                "to annotate the rest."
            )
        values = [parse_answer(r.text, names) for r in responses]
        invalid = [r.text for r, v in zip(responses, values, strict=True) if v is None]
        details = {
            "invalid": len(invalid),
            "invalid_examples": sorted(set(invalid))[:5],
            "usage": client.usage.to_json(),
        }
    return values, details
