"""The Suite collector on a real evaluation of the fixture Suite folder: its tables are those of
the written tables.md, and each strategy's label distribution is a figure."""

from __future__ import annotations

import json

import pytest

from shortcutlab.experiments.suite_eval import evaluate_suite, save_suite_evaluation
from shortcutlab.reports.html.document import Facts, Figure, Paragraphs, Table
from shortcutlab.webreport import cat, suite
from shortcutlab.webreport.inputs import ReportInput
from tests.experiments.suite_folders import write_suite
from tests.nli_helpers import nli_pairs


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
