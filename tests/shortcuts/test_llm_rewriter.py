"""The llm rewriter: the paper's prompts through a real local server (which answers with rules)."""

import pytest

from shortcutlab.corpus import generate_corpus
from shortcutlab.errors import ConfigError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.faults import FaultPlan
from shortcutlab.serving.server import ChatServer
from shortcutlab.shortcuts.rewriters import make_rewriter
from shortcutlab.shortcuts.rewriters.llm import PAPER_PROMPTS, clean_output


@pytest.fixture(scope="module")
def server():
    with ChatServer(project_backend()) as running:
        yield running


def options(server, tmp_path, **extra):
    client = {
        "name": "openai-chat",
        "base_url": server.url,
        "model": "shortcutlab-test",
        "api_key_env": None,
        "cache": str(tmp_path / "cache.sqlite"),
    }
    return {"client": client | extra}


def test_prompts_reproduce_the_paper_and_outputs_are_cleaned():
    assert PAPER_PROMPTS["shakespeare"].startswith(
        "### Instruction: Rewrite the following text as if it was written by William Shakespeare."
    )
    assert PAPER_PROMPTS["formal"].endswith('Input Text: "{text}"\n### Output: \n')
    assert clean_output("  ") is None and clean_output(None) is None
    assert clean_output('"Thou art kind."') == "Thou art kind."


def test_register_benchmark_built_through_an_llm_is_cached(server, tmp_path):
    corpus = generate_corpus(train_size=120, test_size=60, seed=2)
    style = {"rewriter": "llm", "rewriter_options": options(server, tmp_path)}
    first = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="register", shortcut_options=style, strength=1.0
    )
    requests = server.stats.requests
    again = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="register", shortcut_options=style, strength=1.0
    )
    assert server.stats.requests == requests  # every rewrite came from the cache
    assert first["test"]["text"].tolist() == again["test"]["text"].tolist()
    rules = make_rewriter("rules").rewrite(
        corpus["test"]["text"].tolist(), "formal", role="test", row_ids=list(range(60))
    )
    formal = first["test"][first["test"]["shortcut"] == "formal"]
    assert formal["text"].tolist() == [rules[i] for i in formal["row_id"]]
    assert set(
        first["anti_test"]
        .groupby("label")["shortcut"]
        .agg(lambda s: (s == "formal").mean())
        .round(2)
    ) <= {1.0, 0.75, 0.5, 0.25, 0.0}


def test_failed_calls_follow_the_on_failed_policy(tmp_path):
    corpus = generate_corpus(train_size=80, test_size=40, seed=2)
    with ChatServer(project_backend(), faults=FaultPlan(rate_500=0.3, seed=4)) as flaky:
        style = {
            "rewriter": "llm",
            "on_failed": "drop",
            "rewriter_options": options(flaky, tmp_path, max_retries=0),
        }
        bench = build_maze_benchmark(
            corpus["train"], corpus["test"], shortcut="author", shortcut_options=style, strength=0.8
        )
    record = bench.manifest["preparation"]["test"]
    assert record["rows_dropped"] > 0 and record["styles"]["shakespeare"]["failed"] > 0
    assert len(bench["test"]) < 40


def test_unsupported_style_and_missing_client(server, tmp_path):
    custom = {
        **options(server, tmp_path),
        "prompts": {"formal": "Formal: {text}", "casual": "Casual: {text}"},
    }
    with pytest.raises(
        ConfigError,
        match=r"The llm rewriter does not support the style 'bible' .* supports: formal, casual, original\. Add a prompt",
    ):
        build_maze_benchmark(
            generate_corpus(train_size=40, test_size=20)["train"],
            generate_corpus(train_size=40, test_size=20)["test"],
            shortcut="bible",
            shortcut_options={"rewriter": "llm", "rewriter_options": custom},
        )
    with pytest.raises(ConfigError, match="needs a 'client' option"):
        make_rewriter("llm").rewrite(["x"], "formal", role="train", row_ids=[0])
    with pytest.raises(ConfigError, match="must contain '\\{text\\}' exactly once"):
        make_rewriter("llm", {"prompts": {"formal": "no placeholder"}}).supported_styles()
