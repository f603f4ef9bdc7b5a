"""LLMs as models under test: prompts, parsing, demonstrations, confidence, invalid answers."""

import warnings
import zlib

import numpy as np
import pytest

from shortcutlab.corpus import generate_corpus
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.errors import ConfigError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.evaluate import evaluate_benchmark
from shortcutlab.metrics import expected_calibration_error
from shortcutlab.models import make_model
from shortcutlab.models.prompts import AnswerParser, compile_template, default_template
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer


def client(server, tmp_path, **extra):
    return {
        "name": "openai-chat",
        "base_url": server.url if server is not None else "http://127.0.0.1:1/v1",
        "model": "shortcutlab-test",
        "api_key_env": None,
        "cache": str(tmp_path / "c.sqlite"),
        **extra,
    }


@pytest.mark.parametrize(
    ("completion", "label", "confidence"),
    [
        ("4]", 3, None),
        (" 2] because", 1, None),
        ("The text is bad. It says 1 star... Rating: [3]", 2, None),
        ("Rating: [5]\nConfidence: 85", 4, 0.85),
        ("I cannot tell.", None, None),
        ("10]", None, None),
        ("", None, None),
        (None, None, None),
    ],
)
def test_rating_answers(completion, label, confidence):
    answer = AnswerParser(["1", "2", "3", "4", "5"], "Rating:").parse(completion)
    assert answer.label == label
    assert answer.confidence == confidence


def test_label_word_answers_prefer_the_last_marker_and_longest_names():
    parser = AnswerParser(["positive", "very positive", "negative"], "Answer:")
    assert parser.parse("positive at first, but Answer: very positive").label == 1
    assert parser.parse("Reasoning... Answer: Negative\nConfidence: 40%").label == 2
    assert parser.parse("Answer: neutral").label is None


def test_default_templates_reproduce_the_paper_prompt_and_check_fields():
    template, marker = default_template(["1", "2", "3", "4", "5"])
    rendered = compile_template(template).render(
        text="Nice.",
        labels=["1", "2", "3", "4", "5"],
        demonstrations=[],
        cot=False,
        confidence=False,
        answer_marker=marker,
    )
    assert "Select one rating from [1, 2, 3, 4, 5] according to this review" in rendered
    assert rendered.endswith("Review:\nNice.\n### Rating: [")
    assert default_template(["neg", "pos"])[1] == "Answer:"
    with pytest.raises(
        ConfigError, match=r"references unknown field\(s\) review\. Fields available: text, labels"
    ):
        compile_template("Classify {{ review }}")
    with pytest.raises(ConfigError, match="Jinja2 syntax error at line 1"):
        compile_template("{% for x %}")


@pytest.fixture(scope="module")
def bench():
    corpus = generate_corpus(train_size=500, test_size=200, seed=3)
    return build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="concept-correlation", strength=1.0
    )


@pytest.fixture(scope="module")
def answers(bench):
    """The server's classifier: a TF-IDF model trained on the benchmark's train split."""
    return ClassifierAnswers.from_table(bench["train"])


@pytest.fixture(scope="module")
def server(answers):
    with ChatServer(project_backend(answers)) as running:
        yield running


def test_an_llm_behind_the_server_shows_the_shortcut_drop(bench, answers, server, tmp_path):
    result = evaluate_benchmark(
        bench,
        model="llm-prompt",
        params={"client": client(server, tmp_path), "confidence": True},
        seeds=1,
        bootstrap=100,
    )
    summary = result.summary
    stats = result.statistics
    assert stats["delta_accuracy_mean"] > 0.1 and stats["significant_accuracy"]
    assert summary["splits"]["test"]["invalid"] == 0
    # What the server's model says about each anti-test text, straight from the model: the
    # verbalized confidence is its top probability in whole percent.
    probabilities = answers.model.predict_proba(bench["anti_test"]["text"].tolist())
    stated = np.array([round(100 * float(p)) / 100 for p in probabilities.max(axis=1)])
    right = probabilities.argmax(axis=1) == bench.labels.ranks(bench["anti_test"]["label"])
    confidence = summary["splits"]["anti_test"]["confidence"]
    assert summary["splits"]["anti_test"]["invalid"] == 0  # every row stated a confidence
    assert confidence["mean"] == pytest.approx(stated.mean())
    assert confidence["accuracy"] == pytest.approx(right.mean())
    assert confidence["ece"] == pytest.approx(
        expected_calibration_error(confidence=stated, correct=right)
    )
    assert confidence["ece"] > 0.05  # the shortcut fools the model, not its confidence
    assert sum(summary["splits"]["test"]["label_distribution"].values()) == len(bench["test"])
    assert result.runs[0]["usage"]["requests"] >= 3 * len(bench["test"])


def test_unparseable_answers_are_invalid_and_wrong(bench, answers, tmp_path):
    def sometimes_unsure(messages, params):  # every third prompt gets no rating
        prompt = messages[-1]["content"]
        return "I cannot tell." if zlib.crc32(prompt.encode()) % 3 == 0 else answers(prompt)

    with ChatServer(sometimes_unsure) as server:
        result = evaluate_benchmark(
            bench,
            model="llm-prompt",
            params={"client": client(server, tmp_path)},
            seeds=1,
            bootstrap=100,
        )
    test = result.summary["splits"]["test"]
    assert 0.2 * len(bench["test"]) < test["invalid"] < 0.5 * len(bench["test"])
    assert test["label_distribution"]["invalid"] == test["invalid"]
    valid_share = 1 - test["invalid"] / len(bench["test"])
    assert result.statistics["test_accuracy_mean"] <= valid_share  # invalid answers are wrong


def test_a_batch_mostly_without_a_label_stops_instead_of_scoring(bench, tmp_path):
    with ChatServer(project_backend(None)) as bare, pytest.raises(ConfigError) as refused:
        evaluate_benchmark(
            bench,
            model="llm-prompt",
            params={"client": client(bare, tmp_path)},
            seeds=1,
            bootstrap=100,
        )
    assert str(refused.value).startswith(
        f"{len(bench['test'])} of {len(bench['test'])} answers to llm-prompt name none of the "
        "labels '1', '2', '3', '4', '5' after 'Rating:' (e.g. 'This test server has no "
    )
    assert str(refused.value).endswith(
        "Check 'label_names' (the words the model answers, in label order), 'template' and "
        "'answer_marker'."
    )


def test_few_shot_demonstrations_are_balanced_and_drawn_per_seed(bench, server, tmp_path):
    texts, labels = bench["train"]["text"].tolist(), bench.labels.ranks(bench["train"]["label"])
    params = {"client": client(server, tmp_path), "strategy": "few-shot", "k": 5}
    first, again, other = (make_model("llm-prompt", params, seed=seed) for seed in (0, 0, 1))
    for model in (first, again, other):
        model.set_label_values(bench.labels.values)  # as the engine does: prompts use 1..5
        model.fit(texts, labels, n_classes=5)
    assert sorted(d["label"] for d in first.demonstrations_) == ["1", "2", "3", "4", "5"]
    assert first.demonstrations_ == again.demonstrations_ != other.demonstrations_
    assert first.prompt("New text.").count("### Rating: [") == 6


def test_few_shot_chain_of_thought_asks_for_rationales_and_parses_the_final_answer(
    bench, server, tmp_path
):
    texts, labels = bench["train"]["text"].tolist(), bench.labels.ranks(bench["train"]["label"])
    model = make_model(
        "llm-prompt",
        {"client": client(server, tmp_path), "strategy": "few-shot-cot", "k": 2},
        seed=0,
    )
    model.set_label_values(bench.labels.values)
    model.fit(texts, labels, n_classes=5)
    assert all(d["rationale"] for d in model.demonstrations_)
    probabilities = model.predict_proba(texts[:20])
    assert np.allclose(probabilities.sum(axis=1), 1)
    assert "Let's think step by step." in model.prompt("x")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {
                "client": {
                    "name": "openai-chat",
                    "base_url": "http://127.0.0.1:9/v1",
                    "model": "m",
                    "api_key_env": None,
                }
            },
            r"Cannot reach the LLM server at http://127\.0\.0\.1:9/v1",
        ),
        (
            {
                "client": {
                    "name": "openai-chat",
                    "base_url": "URL",
                    "model": "m",
                    "api_key_env": "SHORTCUTLAB_TEST_MISSING_KEY",
                }
            },
            "SHORTCUTLAB_TEST_MISSING_KEY",
        ),
        (
            {
                "client": {
                    "name": "openai-chat",
                    "base_url": "URL",
                    "model": "gpt-99",
                    "api_key_env": None,
                }
            },
            r"has no model 'gpt-99'. Models it serves: shortcutlab-test",
        ),
        (
            {
                "client": {
                    "name": "openai-chat",
                    "base_url": "URL",
                    "model": "shortcutlab-test",
                    "api_key_env": None,
                },
                "template": "{{ review }}",
            },
            "unknown field",
        ),
        (
            {
                "client": {
                    "name": "openai-chat",
                    "base_url": "URL",
                    "model": "shortcutlab-test",
                    "api_key_env": None,
                },
                "strategy": "one-shot",
            },
            "Did you mean 'few-shot'",
        ),
        (
            {
                "client": {
                    "name": "openai-chat",
                    "base_url": "URL",
                    "model": "shortcutlab-test",
                    "api_key_env": None,
                },
                "label_names": ["a"],
            },
            "gives 1 names but the data has 5 labels",
        ),
        ({}, "needs a 'client' mapping"),
    ],
)
def test_bad_configurations_fail_in_check(server, params, message, monkeypatch):
    monkeypatch.delenv("SHORTCUTLAB_TEST_MISSING_KEY", raising=False)
    if "client" in params and params["client"]["base_url"] == "URL":
        params = params | {"client": params["client"] | {"base_url": server.url}}
    with pytest.raises(ConfigError, match=message):
        make_model("llm-prompt", params).check(5)


@pytest.mark.parametrize("honours_seed", [True, False])
def test_the_seed_reaches_the_server_and_the_cache_only_when_it_is_honoured(
    bench, tmp_path, honours_seed
):
    seen = []

    def seeded(messages, params):  # a sampling server: the answer depends on the request's seed
        seen.append(params.get("seed", "absent"))
        return f"{(len(messages[-1]['content']) + int(params.get('seed', 0))) % 5 + 1}]"

    small = Benchmark(
        {s: bench[s].head(40) for s in ("train", "test", "anti_test")}, bench.labels, bench.manifest
    )
    params = {"client": client(None, tmp_path, honours_seed=honours_seed)}
    with ChatServer(seeded) as server:
        params["client"]["base_url"] = server.url
        result = evaluate_benchmark(
            small, model="llm-prompt", params=params, seeds=2, bootstrap=100
        )
        again = evaluate_benchmark(small, model="llm-prompt", params=params, seeds=2, bootstrap=100)
    stats = result.statistics
    if honours_seed:
        assert sorted(set(seen)) == [0, 1] and result.model["fits"] == 2
        assert stats["distinct_fits"] == 2 and stats["delta_accuracy_var"] is not None
        assert result.runs[0]["splits"]["test"] != result.runs[1]["splits"]["test"]
    else:  # zero-shot prompts are the same for every seed: one fit, no variance to report
        assert set(seen) == {"absent"} and result.model["fits"] == 1
        assert stats["distinct_fits"] == 1 and stats["delta_accuracy_var"] is None
    assert len(seen) == 2 * 40 * result.model["fits"]  # the second evaluation came from the cache
    assert again.statistics == stats


def test_numeric_category_labels_warn_and_label_names_give_the_label_prompt(tmp_path):
    texts = ["lol that is hilarious", "ok", "so happy for you", "cannot wait!!"] * 5
    labels = np.array([1, 0, 2, 3] * 5)
    with ChatServer(project_backend()) as server:
        rating = make_model("llm-prompt", {"client": client(server, tmp_path)})
        rating.set_label_values([0, 1, 2, 3])
        with pytest.warns(UserWarning, match=r"labels \(0, 1, 2, 3\) are numbers.*label_names="):
            rating.fit(texts, labels, n_classes=4)
        assert "satisfaction level" in rating.prompt("ok")
        names = ["neutral", "amusement", "joy", "excitement"]
        named = make_model("llm-prompt", {"client": client(server, tmp_path), "label_names": names})
        named.set_label_values([0, 1, 2, 3])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            named.fit(texts, labels, n_classes=4)
        prompt = named.prompt("ok")
        assert "one of these labels: neutral, amusement, joy, excitement" in prompt
        assert "satisfaction" not in prompt


@pytest.mark.parametrize(
    ("names", "marker"),
    [
        (["1", "2", "3", "4", "5"], "Rating:"),
        (["0.2", "0.4", "1.0"], "Rating:"),
        (["positive", "very positive", "negative"], "Answer:"),
        (["entailment", "neutral", "contradiction"], "Answer:"),
    ],
)
def test_the_extraction_regex_reads_what_the_parser_reads(names, marker):
    """lm-eval tasks extract answers with this one regex: on completions made of label names in
    any case, markers, brackets, numbers and words, it finds the parser's label or, where the
    parser finds none, nothing."""
    import re

    parser = AnswerParser(names, marker)
    regex = re.compile(parser.extraction_regex())
    pieces = [*names, *(n.upper() for n in names), "Rating:", "rating", "Answer:", "answer"]
    pieces += ["[", "]", ":", " ", "\n", "x", "a", ".", "1.5", "12"]
    rng = np.random.default_rng(0)
    for _ in range(3000):
        completion = "".join(
            str(rng.choice(pieces)) + str(rng.choice(["", " "])) for _ in range(rng.integers(0, 10))
        )
        found = regex.findall(completion)
        extracted = parser.lookup[found[0].lower()] if found else None
        assert extracted == parser.parse(completion).label, repr(completion)
