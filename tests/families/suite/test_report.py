"""The Suite collector on a real evaluation of the fixture Suite folder: its tables are those of
the written tables.md, and each strategy's label distribution is a figure."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.data.pairs import model_inputs
from shortcutlab.families.cat import report as cat
from shortcutlab.families.suite import report as suite
from shortcutlab.families.suite.evaluate import evaluate_suite, save_suite_evaluation
from shortcutlab.families.suite.explanations import ErrorJudge
from shortcutlab.models import make_model
from shortcutlab.models.nli_scorers import ModelNliScorer
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Figure, Paragraphs, Table
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.server import ChatServer
from tests.families.suite.suite_folders import write_suite
from tests.nli_helpers import nli_pairs, server_client

NLI = ["contradiction", "entailment", "neutral"]


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("suite-report")
    train = folder / "train.csv"
    nli_pairs(300, seed=0).to_csv(train, index=False)
    evaluation = evaluate_suite(
        write_suite(folder / "suite"),
        model="tfidf-logreg",
        train=train,
        train_options={"text_pair_col": "text_pair"},
    )
    return save_suite_evaluation(evaluation, folder / "out")


def _markdown_rows(table: Table) -> list[str]:
    """The table's rows as tables.md writes them (index columns first)."""
    frame = table.frame.reset_index()
    return ["| " + " | ".join(map(str, row)) + " |" for row in frame.itertuples(index=False)]


def test_suite_outputs_are_recognised(evaluated, tmp_path):
    assert suite.recognises(evaluated) and not cat.recognises(evaluated)
    assert not suite.recognises(tmp_path)


def test_the_tables_are_those_of_tables_md(evaluated):
    written = (evaluated / "tables.md").read_text(encoding="utf-8")
    (section,) = suite.sections(ReportInput("suite", evaluated))
    tables = [b for b in section.blocks if isinstance(b, Table)]
    assert [t.name for t in tables] == [
        "suite-accuracy",
        "suite-change",
        "suite-label-distribution",
        "suite-position",
    ]
    for table in tables:
        header = "| " + " | ".join([*table.frame.index.names, *table.frame.columns]) + " |"
        assert header in written, table.name
        for row in _markdown_rows(table):
            assert row in written, (table.name, row)
    accuracy = tables[0].frame
    assert sorted(accuracy.columns) == sorted(
        ["standard", "negation", "position", "lexical-overlap E", "lexical-overlap ¬E"]
    )
    results = json.loads((evaluated / "results.json").read_text(encoding="utf-8"))
    standard = results["strategies"][0]["sets"]["standard"]["accuracy"]
    assert accuracy.loc["model", "standard"] == f"{100 * standard:.1f}"
    facts = next(b for b in section.blocks if isinstance(b, Facts))
    assert ("labels", "contradiction, entailment, neutral") in facts.items
    assert any(isinstance(b, Paragraphs) for b in section.blocks) == bool(results["notes"])


def test_each_strategy_has_a_label_distribution_figure(evaluated):
    (section,) = suite.sections(ReportInput("suite", evaluated))
    (figure,) = [b for b in section.blocks if isinstance(b, Figure)]
    assert figure.title == "Predicted labels per set (model)"
    assert figure.svg.startswith("<svg") and "lexical-overlap" in figure.svg
    for label in ("contradiction", "entailment", "neutral"):
        assert label in figure.svg
    (again,) = suite.sections(ReportInput("suite", evaluated))  # same folder, same figure bytes
    assert [b.svg for b in again.blocks if isinstance(b, Figure)] == [figure.svg]


@pytest.fixture(scope="module")
def cot_evaluated(tmp_path_factory):
    """An llm-prompt evaluation with a chain-of-thought strategy, scored by a TF-IDF NLI model
    and word-count embeddings (stand-ins for the real scorers), wrong answers typed by the judge."""
    folder = tmp_path_factory.mktemp("suite-cot-report")
    train = folder / "train.csv"
    frame = nli_pairs(300, seed=0)
    frame.to_csv(train, index=False)
    nli_model = make_model("tfidf-logreg").fit(
        model_inputs(frame), frame["label"].map(NLI.index).to_numpy(), n_classes=3
    )

    def embed(texts):
        vocabulary = {w: i for i, w in enumerate(sorted({w for t in texts for w in t.split()}))}
        vectors = np.zeros((len(texts), len(vocabulary)))
        for row, text in enumerate(texts):
            for word in text.split():
                vectors[row, vocabulary[word]] += 1
        return vectors

    answers = ClassifierAnswers.from_table(train, text_pair_col="text_pair")
    with ChatServer(project_backend(answers)) as server:
        client = server_client(server, folder)
        evaluation = evaluate_suite(
            write_suite(folder / "suite", rows=16),
            model="llm-prompt",
            params={"client": client, "confidence": True},
            train=train,
            train_options={"text_pair_col": "text_pair"},
            strategies=["zero-shot", "zero-shot-cot"],
            nli_scorer=ModelNliScorer(nli_model, NLI),
            embed=embed,
            error_judge=ErrorJudge(client),
        )
    return save_suite_evaluation(evaluation, folder / "out")


def test_explanation_scores_and_error_types_are_those_of_tables_md(cot_evaluated):
    written = (cot_evaluated / "tables.md").read_text(encoding="utf-8")
    (section,) = suite.sections(ReportInput("suite", cot_evaluated))
    tables = {b.name: b for b in section.blocks if isinstance(b, Table)}
    assert {"suite-explanations", "suite-error-types"} <= set(tables)
    for name in ("suite-explanations", "suite-error-types", "suite-label-distribution"):
        for row in _markdown_rows(tables[name]):
            assert row in written, (name, row)
    explained = tables["suite-explanations"].frame
    assert {"SFS", "ICS", "EQS", "CFS"} <= set(explained.columns)
    assert set(explained.index.get_level_values("strategy")) == {"zero-shot-cot"}
    figures = [b.title for b in section.blocks if isinstance(b, Figure)]
    assert figures == [
        "Predicted labels per set (zero-shot)",
        "Predicted labels per set (zero-shot-cot)",
    ]
