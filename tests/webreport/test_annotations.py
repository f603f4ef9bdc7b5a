"""The report's annotation collector: an exported task folder becomes a section whose tables hold
the numbers summary.json holds, and a broken summary a paragraph saying how to export again."""

from __future__ import annotations

import json

import pytest

from shortcutlab.annotate.export import export_task
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Paragraphs, Table
from shortcutlab.webreport import annotations
from tests.annotate.task_sources import answer, cat_output, create_task, maze_run  # noqa: F401


@pytest.fixture
def exported(maze_run, tmp_path):  # noqa: F811
    folder = tmp_path / "annotations" / "label"
    create_task("label", maze_run, folder, sample=4)
    answer(folder, "ann", lambda n, item: {"label": item.reference["label"]})
    answer(folder, '"><img src=x onerror=alert(1)>', lambda n, item: {"label": "1"}, first=2)
    export_task(folder)
    return folder


def test_an_exported_task_folder_becomes_a_section_of_its_tables(exported, maze_run):  # noqa: F811
    assert annotations.recognises(exported)
    assert not annotations.recognises(maze_run) and not annotations.recognises(exported.parent)
    (section,) = annotations.sections(ReportInput(annotations.KIND, exported))
    stored = json.loads((exported / "summary.json").read_text())
    assert section.id == "annotations-label" and section.title == stored["title"]
    facts, *tables, notes = section.blocks
    assert isinstance(facts, Facts) and ("kind", "label") in facts.items
    (build,) = stored["facts"]["builds"]
    assert (
        f"builds: {build}",
        "dataset reviews; models tfidf-logreg; sampled 4; shortcut single-term; test_rows 200",
    ) in facts.items
    assert all(isinstance(t, Table) for t in tables) and isinstance(notes, Paragraphs)
    assert [t.name for t in tables] == [f"annotations-label-{n}" for n in stored["tables"]]
    for table, record in zip(tables, stored["tables"].values(), strict=True):
        assert table.title == record["title"]
        cells = [[None if v != v else v for v in row] for row in table.frame.values.tolist()]
        assert cells == record["data"]
        assert [list(k) if isinstance(k, tuple) else k for k in table.frame.index] == record[
            "index"
        ]
    table5 = tables[0].frame
    assert table5.loc[("single-term", "Human: ann"), ("reviews", "ACC")] == 1.0
    # Names from data stay plain text in the document (the renderer escapes them).
    assert ("single-term", 'Human: "><img src=x onerror=alert(1)>') in table5.index
    assert notes.texts == stored["notes"]


def test_a_broken_summary_gives_a_paragraph_with_the_fix(exported):
    record = json.loads((exported / "summary.json").read_text())
    del record["tables"]
    (exported / "summary.json").write_text(json.dumps(record))
    assert annotations.recognises(exported)
    (section,) = annotations.sections(ReportInput(annotations.KIND, exported))
    (paragraphs,) = section.blocks
    assert "run 'shortcutlab annotate export" in paragraphs.texts[0]


def test_the_pooled_rate_is_its_own_table_beside_an_annotator_named_all_annotators(
    cat_output,  # noqa: F811
    tmp_path,
):
    folder = tmp_path / "annotations" / "verify-counterfactual"
    create_task("verify-counterfactual", cat_output, folder, sample=6)
    holds = "default_label_holds"
    answer(folder, "all annotators", lambda n, item: {holds: "yes"}, first=4)
    answer(folder, "bob", lambda n, item: {holds: "no"})
    export_task(folder)
    (section,) = annotations.sections(ReportInput(annotations.KIND, folder))
    tables = {
        t.name.removeprefix(f"{section.id}-"): t for t in section.blocks if isinstance(t, Table)
    }
    per_annotator = tables["assumption"].frame
    assert per_annotator.loc["all annotators", ["items", "yes"]].tolist() == [4, 4]
    assert per_annotator.loc["bob", ["items", "no"]].tolist() == [6, 6]
    pooled = tables["assumption_pooled"]
    assert pooled.title == "Assumption rate, all annotators pooled"
    assert pooled.frame.loc["all annotators", ["items", "answers", "majority_no"]].tolist() == [
        6,
        10,
        2,
    ]
    (notes,) = [b for b in section.blocks if isinstance(b, Paragraphs)]
    assert any("ignores the annotators' disagreement on an item" in t for t in notes.texts)
