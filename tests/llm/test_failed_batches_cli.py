"""An LLM evaluation whose requests mostly fail, or whose answers mostly name no label, stops with
one line instead of reporting a measurement: a base_url missing its /v1 used to fail all requests
and still print "no significant reliance (Δ 0.000, p = 1)" with exit code 0."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.corpus import generate_corpus
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer
from tests.cli.refusals import assert_refused, invoke


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The watched folder: a Maze benchmark (the LLM cache lives outside it)."""
    folder = tmp_path / "work"
    folder.mkdir()
    corpus = generate_corpus(train_size=200, test_size=100, seed=5)
    for split in ("train", "test"):
        corpus[split][["text", "label"]].to_csv(folder / f"{split}.csv", index=False)
    built = invoke(
        "build", "maze", "--train", folder / "train.csv", "--test", folder / "test.csv",
        "--shortcut", "single-term", "--out", folder / "bench",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    return folder


def _client(base_url: str) -> str:
    return (
        f"client={{name: openai-chat, base_url: '{base_url}', model: shortcutlab-test, "
        "api_key_env: null, backoff: 0.01}"
    )


def test_a_base_url_without_v1_stops_the_evaluation_and_says_where_servers_answer(work):
    with ChatServer() as server:
        root = server.url.removesuffix("/v1")
        result = assert_refused(
            work, "prompts of llm-prompt to openai-chat|", "evaluate", work / "bench",
            "--model", "llm-prompt", "-p", _client(root), "--seeds", 1, "--out", work / "eval",
        )  # fmt: skip
    assert "100 of 100 prompts" in result.stderr
    assert (
        "got no answer (first: request refused (HTTP 404 for POST /chat/completions): No route "
        "POST /chat/completions. OpenAI-compatible servers usually answer under /v1: check that "
        f"base_url ends in /v1, e.g. {root}/v1)"
    ) in result.stderr


def test_label_names_the_server_never_answers_stop_the_evaluation(work):
    names = "label_names=[one, two, three, four, five]"
    with ChatServer(lambda messages, params: " I would rather not say.") as server:
        result = assert_refused(
            work, "100 of 100 answers to llm-prompt name none of the labels 'one', 'two', 'three', "
            "'four', 'five' after 'Answer:' (e.g. ' ",
            "evaluate", work / "bench", "--model", "llm-prompt", "-p", _client(server.url),
            "-p", names, "--seeds", 1, "--out", work / "eval",
        )  # fmt: skip
    assert "Check 'label_names' (the words the model answers, in label order)" in result.stderr


def test_the_test_server_answers_in_the_label_names_the_prompt_lists(work):
    """The tool's own advice (-p "label_names=[...]") against llm-server --train: it answers in
    the names the prompt offers, in label order, as an LLM would, so each prediction is the one
    the same server gives when the prompt lists the labels themselves."""
    answers = ClassifierAnswers.from_table(pd.read_csv(work / "bench" / "train.csv"))
    with ChatServer(project_backend(answers)) as server:
        for out, names in (
            ("named", ["-p", "label_names=[one, two, three, four, five]"]),
            ("plain", []),
        ):
            result = invoke(
                "evaluate", work / "bench", "--model", "llm-prompt", "-p", _client(server.url),
                *names, "--seeds", 1, "--out", work / out,
            )  # fmt: skip
            assert result.exit_code == 0, result.output
    named, plain = (pd.read_csv(work / out / "predictions.csv") for out in ("named", "plain"))
    assert len(named) == 200 and named["predicted"].notna().all()  # test and anti-test rows
    assert named.equals(plain)


GRID = """
name: llm
data: {{train: train.csv, test: test.csv}}
shortcuts: [single-term]
strengths: [1.0]
models: [{{name: llm-prompt, client: {{name: openai-chat, base_url: '{url}', model: shortcutlab-test, api_key_env: null}}}}]
seeds: [0]
bootstrap: 100
"""


def test_a_grid_cell_whose_requests_fail_fails_loudly_and_reports_no_finding(work):
    with ChatServer() as server:
        (work / "spec.yaml").write_text(GRID.format(url=server.url.removesuffix("/v1")))
        ran = invoke("run", work / "spec.yaml", "--out", work / "run")
    assert ran.exit_code == 1, ran.output
    assert "0 cells done, 0 already finished, 1 failed" in ran.stdout
    assert "usually answer under /v1" in ran.stderr
    shown = invoke("results", work / "run")
    assert shown.exit_code == 2 and "has no finished cells yet" in shown.stderr
    assert "reliance" not in shown.stdout and "Δ" not in shown.stdout
