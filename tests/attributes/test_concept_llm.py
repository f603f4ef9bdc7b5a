"""The llm method of the concept annotators against the local OpenAI-compatible test server."""

from __future__ import annotations

from typing import Any

import pytest

from shortcutlab.attributes import make_attribute
from shortcutlab.attributes.concept_llm import SENTENCE_HEADER, parse_answer
from shortcutlab.errors import BackendError, ConfigError
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.server import ChatServer

FIGURE_15_START = (
    "You are an expert in text concept extraction. Please read the complete sentence of the text "
    "content from the Rotten Tomatoes dataset and classify the entire review text into one of the "
    "following review categories. Assign only one category per review.\n\nNote:\n\n"
    "- (1) You must choose from the provided categories below and must not generate results "
    "outside these categories.\n"
)
ANSWERS = {
    "plain": "Comedy",
    "paper form": "Acknowledged. I will proceed with the task. Based on the input sentence "
    "a funny thriller, the most matching concept is: Thriller.",
    "lower case": "comedy.",
    "two names": "Comedy or Thriller",
    "refusal": "Sorry, I cannot classify this.",
}


class ScriptedBackend:
    """Answers each sentence from ANSWERS and keeps every prompt it was sent."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.prompts: list[str] = []
        self.fail_on = fail_on

    def __call__(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        sentence = prompt.rpartition(SENTENCE_HEADER)[2].strip()
        if self.fail_on is not None and self.fail_on in sentence:
            raise RuntimeError("backend down")  # the server answers HTTP 500
        return ANSWERS[sentence]


def concept(server_url: str, level: str = "sentence", **client: Any):
    config = {
        "name": "openai-chat",
        "base_url": server_url,
        "model": "shortcutlab-test",
        "api_key_env": None,
        "backoff": 0.01,
        **client,
    }
    return make_attribute(
        f"{level}-concept",
        {"categories": f"rotten-tomatoes-{level}", "method": "llm", "client": config},
    )


def test_prompts_are_the_papers_and_answers_outside_the_list_are_invalid():
    backend = ScriptedBackend()
    with ChatServer(backend) as server:
        annotation = concept(server.url).annotate(list(ANSWERS))
    assert annotation.values.tolist() == ["Comedy", "Thriller", "Comedy", None, None]
    assert annotation.details["invalid"] == 2 and annotation.details["no_value"] == 2
    assert annotation.details["invalid_examples"] == [
        "Comedy or Thriller",
        "Sorry, I cannot classify this.",
    ]
    # Requests go out concurrently (and a dropped one is sent again), so prompts arrive in any
    # order and possibly twice: they are matched to their sentences by content.
    by_sentence: dict[str, set[str]] = {}
    for prompt in backend.prompts:
        sentence = prompt.rpartition(SENTENCE_HEADER)[2].strip()
        by_sentence.setdefault(sentence, set()).add(prompt)
    assert set(by_sentence) == set(ANSWERS)
    for sentence, prompts in by_sentence.items():
        [prompt] = prompts  # a sentence resent is the same prompt
        assert prompt.startswith(FIGURE_15_START)
        assert prompt.endswith(f"The Sentence is:\n\n{sentence}")
        assert (
            "\nComedy: e.g., humorous elements, joke design, comedic effects, focusing on "
            "entertainment.\n" in prompt
        )


def test_the_core_word_level_sends_figure_4s_prompt_with_its_own_categories():
    backend = ScriptedBackend()
    with ChatServer(backend) as server:
        concept(server.url, "core-word").annotate(["plain"])
    [prompt] = backend.prompts
    assert "classify the words appearing in the review text into one of" in prompt
    assert "If multiple categories apply, choose the most important and obvious one." in prompt
    assert "\nActors/Actresses: e.g., actor, performance, star, involving actors.\n" in prompt


def test_a_second_annotation_reads_the_answer_cache_and_sends_nothing():
    with ChatServer(ScriptedBackend()) as server:
        first = concept(server.url, concurrency=4).annotate(list(ANSWERS))
        sent = server.stats.requests
        again = concept(server.url, concurrency=1).annotate(list(ANSWERS))
        assert server.stats.requests == sent == len(ANSWERS)
    assert again.values.tolist() == first.values.tolist()
    assert again.details["usage"]["cache_hits"] == len(ANSWERS)
    assert again.details["invalid"] == 2


def test_a_prompt_failing_for_good_stops_the_annotation_with_a_backend_error():
    with ChatServer(ScriptedBackend(fail_on="two")) as server:
        with pytest.raises(
            BackendError,
            match=r"^1 of 5 concept prompts to openai-chat\|http://127\.0\.0\.1:\d+/v1\|shortcutlab-test "
            r"got no answer \(first: server error \(HTTP 500\).*run again to annotate the rest\.$",
        ):
            concept(server.url, max_retries=1).annotate(list(ANSWERS))


def test_a_rerun_on_the_same_server_resumes_from_the_cache():
    backend = ScriptedBackend(fail_on="two")
    with ChatServer(backend) as server:
        with pytest.raises(BackendError):
            concept(server.url, max_retries=0).annotate(list(ANSWERS))
        backend.fail_on = None
        before = len(backend.prompts)
        annotation = concept(server.url).annotate(list(ANSWERS))
        resent = [p.rpartition(SENTENCE_HEADER)[2].strip() for p in backend.prompts[before:]]
    assert resent == ["two names"]
    assert annotation.values.tolist() == ["Comedy", "Thriller", "Comedy", None, None]


def test_an_unreachable_server_is_a_one_line_config_error_naming_the_url():
    with ChatServer() as server:
        url = server.url
    with pytest.raises(
        ConfigError, match=rf"^Cannot reach the LLM server at {url}: .*start the server\.$"
    ):
        concept(url).annotate(["plain"])


def test_the_project_test_server_answers_concept_prompts():
    texts = ["a comedy of errors", "the director's best film", "zzz"]
    with ChatServer(project_backend()) as server:
        scs = concept(server.url).annotate(texts)
        ccs = concept(server.url, "core-word").annotate(texts)
    assert scs.values.tolist() == ["Comedy", None, None] and scs.details["invalid"] == 2
    assert ccs.values.tolist() == ["Genres", "Film Terms", None]


def test_operational_client_options_are_not_part_of_the_config():
    one = concept("http://127.0.0.1:9/v1", concurrency=2, timeout=3.0).config()
    two = concept("http://127.0.0.1:9/v1").config()
    assert one == two and one["client"]["base_url"] == "http://127.0.0.1:9/v1"
    assert one["template"].startswith("You are an expert in text concept extraction.")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Film Titles", "Film Titles"),
        ("**Film Titles**", "Film Titles"),
        ("Category: film terms", "Film Terms"),
        ("Actors Actresses", "Actors/Actresses"),
        ("The sentence mentions film terms; the most matching concept is: Directors.", "Directors"),
        ("Film", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_answer(answer, expected):
    names = ["Film Terms", "Film Titles", "Actors/Actresses", "Directors"]
    assert parse_answer(answer, names) == expected
