"""suite evaluate: per-set accuracy (E / ¬E), changes with the right test, label shares,
positions, and CoT explanation scores, checked against the model's own predictions."""

import json
import re
import zlib

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.suite.evaluate import evaluate_suite, save_suite_evaluation
from shortcutlab.families.suite.explanations import ErrorJudge
from shortcutlab.metrics import mcnemar_exact
from shortcutlab.metrics.explanations import reasoning_steps, step_pairs
from shortcutlab.models import make_model
from shortcutlab.models.nli_scorers import JUDGE_PROMPT, LLMJudgeScorer, ModelNliScorer
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer
from tests.families.suite.suite_folders import hans_only_suite, write_suite
from tests.nli_helpers import nli_pairs, server_client
from tests.reports.tidy_columns import assert_explained

NLI = ["contradiction", "entailment", "neutral"]


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    return write_suite(tmp_path_factory.mktemp("suite") / "suite")


@pytest.fixture(scope="module")
def train_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("train") / "train.csv"
    nli_pairs(300, seed=0).to_csv(path, index=False)
    return path


def direct_predictions(train_file, frame):
    train = pd.read_csv(train_file)
    model = make_model("tfidf-logreg").fit(
        model_inputs(train), train["label"].map(NLI.index).to_numpy(), n_classes=3
    )
    return np.array(NLI, dtype=object)[model.predict(model_inputs(frame))]


def test_accuracy_changes_and_distributions_match_the_model(suite, train_file, tmp_path):
    evaluation = evaluate_suite(
        suite, model="tfidf-logreg", train=train_file, train_options={"text_pair_col": "text_pair"}
    )
    run = evaluation.results["strategies"][0]["sets"]
    standard = pd.read_csv(suite / "standard.csv")
    negation = pd.read_csv(suite / "negation.csv")
    overlap = pd.read_csv(suite / "lexical-overlap.csv")
    position = pd.read_csv(suite / "position.csv")
    right_standard = direct_predictions(train_file, standard) == standard["label"].to_numpy()
    right_negation = direct_predictions(train_file, negation) == negation["label"].to_numpy()
    assert run["standard"]["accuracy"] == pytest.approx(right_standard.mean())
    assert run["negation"]["accuracy"] == pytest.approx(right_negation.mean())
    # Negation rows keep their standard row: the exact McNemar test on the pairs.
    change = run["negation"]["change"]
    assert change["test"] == "mcnemar-exact" and change["rows_paired"] == len(negation)
    assert change["p_value"] == pytest.approx(
        mcnemar_exact(correct_a=right_standard, correct_b=right_negation)["p_value"]
    )
    # The 2-class set: 3-class predictions mapped to entailment / non-entailment, E and ¬E apart.
    mapped = np.where(
        direct_predictions(train_file, overlap) == "entailment", "entailment", "non-entailment"
    )
    right = mapped == overlap["label"].to_numpy()
    entail = overlap["label"].to_numpy() == "entailment"
    assert run["lexical-overlap"]["accuracy_entailment"] == pytest.approx(right[entail].mean())
    assert run["lexical-overlap"]["accuracy_non_entailment"] == pytest.approx(right[~entail].mean())
    assert run["lexical-overlap"]["change"]["test"] == "two-proportion-z"
    predicted = direct_predictions(train_file, negation)
    # A trained model's answers cannot be invalid: no count is printed for them.
    assert run["negation"]["label_distribution"] == {
        label: int((predicted == label).sum()) for label in NLI
    }
    assert run["negation"]["invalid"] is None
    right_position = direct_predictions(train_file, position) == position["label"].to_numpy()
    for name, accuracy in run["position"]["position_accuracy"].items():
        assert accuracy == pytest.approx(right_position[position["position"] == name].mean())
    assert "explanations" not in run["standard"]  # no chain of thought, no explanation scores
    table = evaluation.to_pandas().set_index(["split", "metric"])
    assert_explained(table.reset_index())
    assert table.at[("negation", "accuracy"), "estimate"] == run["negation"]["accuracy"]
    shown = table.loc[("negation", "accuracy_change")]
    assert (shown["estimate"], shown["p"], shown["n"]) == (
        change["delta"],
        change["p_value"],
        len(negation),
    )
    assert "\n" not in repr(evaluation) and len(repr(evaluation)) < 200
    first = save_suite_evaluation(evaluation, tmp_path / "a")
    again = evaluate_suite(
        suite, model="tfidf-logreg", train=train_file, train_options={"text_pair_col": "text_pair"}
    )
    second = save_suite_evaluation(again, tmp_path / "b")
    assert (first / "results.json").read_bytes() == (second / "results.json").read_bytes()
    tables = (first / "tables.md").read_text()
    assert "| model | " in tables and "lexical-overlap E | lexical-overlap ¬E" in tables
    assert f"{100 * right_standard.mean():.1f}" in tables
    assert "## Accuracy per position (Table 3)" in tables


@pytest.fixture(scope="module")
def server(train_file):
    answers = ClassifierAnswers.from_table(train_file, text_pair_col="text_pair")
    with ChatServer(project_backend(answers)) as running:
        yield running


def test_cot_explanations_are_scored_from_the_answers(suite, train_file, server, tmp_path):
    client = server_client(server, tmp_path)
    train = pd.read_csv(train_file)
    nli_model = make_model("tfidf-logreg").fit(
        model_inputs(train), train["label"].map(NLI.index).to_numpy(), n_classes=3
    )
    scorer = ModelNliScorer(nli_model, NLI)

    def embed(texts):  # word-count vectors: a transparent stand-in for the sentence encoder
        vocabulary = sorted({w for t in texts for w in t.lower().split()})
        index = {w: i for i, w in enumerate(vocabulary)}
        vectors = np.zeros((len(texts), len(vocabulary)))
        for row, text in enumerate(texts):
            for word in text.lower().split():
                vectors[row, index[word]] += 1
        return vectors

    evaluation = evaluate_suite(
        suite,
        model="llm-prompt",
        params={"client": client, "confidence": True},
        train=train_file,
        train_options={"text_pair_col": "text_pair"},
        strategies=["zero-shot", "zero-shot-cot"],
        nli_scorer=scorer,
        embed=embed,
        error_judge=ErrorJudge(client),
    )
    zero, cot = evaluation.results["strategies"]
    assert zero["strategy"] == "zero-shot" and "explanations" not in zero["sets"]["negation"]
    explained = cot["sets"]["negation"]["explanations"]
    # Recompute ICS from the server's answers: the same prompts reach the same cached answers.
    model = make_model(
        "llm-prompt", {"client": client, "confidence": True, "strategy": "zero-shot-cot"}
    )
    model.set_label_values(NLI)
    model.fit(model_inputs(train), train["label"].map(NLI.index).to_numpy(), n_classes=3)
    negation = pd.read_csv(suite / "negation.csv")
    model.predict_proba(model_inputs(negation))
    scores = []
    for output in model.prediction_details_["raw"]:
        steps = reasoning_steps(output)
        pairs = step_pairs(len(steps))
        p = scorer.contradiction_probabilities(
            [steps[i] for i, _ in pairs], [steps[j] for _, j in pairs]
        )
        scores.append(int(not (p > 1 / 3).any()))
    assert explained["ics"] == pytest.approx(np.mean(scores))
    assert explained["explanations"] == len(negation) and explained["steps_mean"] == 5
    assert 0 < explained["sfs"] < 1
    assert explained["eqs"] == pytest.approx(0.5 * explained["sfs"] + 0.5 * explained["ics"])
    assert explained["cfs"] == pytest.approx(np.nanmean(model.prediction_details_["confidence"]))
    errors = cot["sets"]["lexical-overlap"]["error_types"]
    wrong = round((1 - cot["sets"]["lexical-overlap"]["accuracy"]) * 48)
    assert sum(errors.values()) == wrong and errors["unparsed"] == 0


def test_bad_suite_input_is_refused(tmp_path, train_file, suite):
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="has no manifest.json"):
        evaluate_suite(tmp_path / "empty", model="tfidf-logreg", train=train_file)
    with pytest.raises(
        ConfigError, match=r"^strategies=\.\.\. applies to the llm-prompt model only"
    ):
        evaluate_suite(suite, model="tfidf-logreg", train=train_file, strategies=["zero-shot"])
    with pytest.raises(ConfigError, match="The tfidf-logreg model learns from training rows"):
        evaluate_suite(suite, model="tfidf-logreg")
    with pytest.raises(DataError, match=r"has no set\(s\) style"):
        evaluate_suite(suite, model="tfidf-logreg", train=train_file, sets=["standard", "style"])
    manifest = json.loads((suite / "manifest.json").read_text())
    assert "standard" in manifest["splits"]


def _judge_says(answer: str) -> float:
    """The p(contradiction) stated in one of the test server's judge answers."""
    return float(re.search(r"Contradiction:\s*([\d.]+)", answer).group(1)) / 100


def _one_step(prompt: str) -> bool:  # some CoT answers give the answer line alone
    return "step by step" in prompt and zlib.crc32(prompt.encode()) % 3 == 0


def _garbled(prompt: str) -> bool:  # some judge answers cannot be parsed
    return prompt.startswith("Statement A:") and zlib.crc32(prompt.encode()) % 7 == 0


def patchy_backend(train_file, *, judge_fails_always: bool = False):
    base = project_backend(ClassifierAnswers.from_table(train_file, text_pair_col="text_pair"))

    def respond(messages, params):
        prompt = messages[-1]["content"]
        if _garbled(prompt) or (judge_fails_always and prompt.startswith("Statement A:")):
            return "I cannot tell."
        answer = base(messages, params)
        return "\n".join(answer.splitlines()[-2:]) if _one_step(prompt) else answer

    return respond


def test_ics_leaves_out_explanations_the_judge_did_not_score(suite, train_file, tmp_path):
    """An unparseable judge answer must not read as "no contradiction" (ICS 1): those
    explanations are left out and counted; one-step explanations have no largest p."""
    train = pd.read_csv(train_file)
    with ChatServer(patchy_backend(train_file)) as running:
        client = server_client(running, tmp_path)
        params = {"client": client, "confidence": True}
        evaluation = evaluate_suite(
            suite,
            model="llm-prompt",
            params=params,
            train=train_file,
            train_options={"text_pair_col": "text_pair"},
            strategies=["zero-shot-cot"],
            sets=["standard", "negation"],
            nli_scorer=LLMJudgeScorer(client),
        )
        model = make_model("llm-prompt", {**params, "strategy": "zero-shot-cot"})
        model.set_label_values(NLI)
        model.fit(model_inputs(train), train["label"].map(NLI.index).to_numpy(), n_classes=3)
        negation = pd.read_csv(suite / "negation.csv")
        model.predict_proba(model_inputs(negation))
        outputs = model.prediction_details_["raw"]
        plain = project_backend(ClassifierAnswers.from_table(train_file, text_pair_col="text_pair"))
        scores, largest, unparsed = [], [], 0
        for output in outputs:
            steps = reasoning_steps(output)
            prompts = [
                JUDGE_PROMPT.format(first=steps[i], second=steps[j])
                for i, j in step_pairs(len(steps))
            ]
            garbled = sum(_garbled(p) for p in prompts)
            unparsed += garbled
            if garbled:
                continue
            p = np.array(
                [_judge_says(plain([{"role": "user", "content": q}], {})) for q in prompts]
            )
            scores.append(int(not (p > 1 / 3).any()))
            if len(p):
                largest.append(p.max())
    out = save_suite_evaluation(evaluation, tmp_path / "out")
    explained = json.loads((out / "results.json").read_text())["strategies"][0]["sets"]["negation"][
        "explanations"
    ]
    assert 0 < len(scores) < len(outputs) and 0 < len(largest) < len(scores) and unparsed > 0
    assert explained["ics"] == pytest.approx(np.mean(scores))
    assert explained["ics_explanations"] == len(scores)
    assert explained["ics_unparsed_pairs"] == unparsed
    assert explained["max_contradiction_mean"] == pytest.approx(np.mean(largest))
    assert explained["max_contradiction_explanations"] == len(largest)
    row = (
        f"| zero-shot-cot | negation | — | {100 * np.mean(scores):.1f} | {len(scores)} | "
        f"{unparsed} | {100 * np.mean(largest):.1f} | {len(largest)} | — |"
    )
    assert row in (out / "tables.md").read_text()


def test_ics_is_a_dash_when_the_judge_scored_no_explanation(suite, train_file, tmp_path):
    with ChatServer(patchy_backend(train_file, judge_fails_always=True)) as running:
        client = server_client(running, tmp_path)
        evaluation = evaluate_suite(
            suite,
            model="llm-prompt",
            params={"client": client},
            train=train_file,
            train_options={"text_pair_col": "text_pair"},
            strategies=["zero-shot-cot"],
            sets=["standard"],
            nli_scorer=LLMJudgeScorer(client),
        )
    out = save_suite_evaluation(evaluation, tmp_path / "out")
    explained = json.loads((out / "results.json").read_text())["strategies"][0]["sets"]["standard"][
        "explanations"
    ]
    assert explained["ics"] is None and explained["eqs"] is None
    assert explained["ics_explanations"] == 0 and explained["ics_unparsed_pairs"] > 0
    assert explained["max_contradiction_mean"] is None
    row = (
        f"| zero-shot-cot | standard | — | — | 0 | {explained['ics_unparsed_pairs']} | — | 0 | — |"
    )
    assert row in (out / "tables.md").read_text()


def test_a_folder_without_standard_is_scored_without_changes(suite, train_file, tmp_path):
    folder = hans_only_suite(suite, tmp_path / "hans")
    evaluation = evaluate_suite(
        folder, model="tfidf-logreg", train=train_file, train_options={"text_pair_col": "text_pair"}
    )
    out = save_suite_evaluation(evaluation, tmp_path / "out")
    results = json.loads((out / "results.json").read_text())
    overlap = pd.read_csv(folder / "lexical-overlap.csv")
    mapped = np.where(
        direct_predictions(train_file, overlap) == "entailment", "entailment", "non-entailment"
    )
    right = mapped == overlap["label"].to_numpy()
    scored = results["strategies"][0]["sets"]["lexical-overlap"]
    assert results["labels"] == NLI and "change" not in scored
    assert scored["accuracy"] == pytest.approx(right.mean())
    tables = (out / "tables.md").read_text()
    assert "## Change against standard" not in tables
    assert "no change against standard is measured" in tables
    assert f"| model | {100 * right[overlap['label'] == 'entailment'].mean():.1f} |" in tables


def test_without_standard_or_train_the_labels_are_the_sets(suite, train_file, tmp_path):
    folder = hans_only_suite(suite, tmp_path / "hans")
    with ChatServer(patchy_backend(train_file)) as running:
        evaluation = evaluate_suite(
            folder, model="llm-prompt", params={"client": server_client(running, tmp_path)}
        )
    out = save_suite_evaluation(evaluation, tmp_path / "out")
    results = json.loads((out / "results.json").read_text())
    assert results["labels"] == ["entailment", "non-entailment"]
    assert results["train"] == {"path": None, "rows": 48}
    assert (
        "the labels are those rows' (entailment, non-entailment)" in (out / "tables.md").read_text()
    )


def test_a_suite_build_object_is_scored_as_its_folder_is(train_file, tmp_path):
    from shortcutlab import InputOptions, build_suite_benchmark
    from shortcutlab.families.suite.build import SuiteBuild
    from tests.families.suite.suite_helpers import nli_frame

    options = dict(text_col="premise", text_pair_col="hypothesis")
    written = build_suite_benchmark(
        nli_frame(), sets="standard,position", size=90,
        inputs=InputOptions(**options, out=tmp_path / "suite"),
    )  # fmt: skip
    in_memory = SuiteBuild(sets=written.sets, manifest=written.manifest)  # never written
    scores = [
        evaluate_suite(source, model="tfidf-logreg", train=train_file).results["strategies"]
        for source in (tmp_path / "suite", written, in_memory)
    ]
    assert scores[0] == scores[1] == scores[2]
    assert "position" in str(scores[0])  # the sets were scored
