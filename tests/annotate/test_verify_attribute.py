"""verify-attribute: an MPS run's attribute labels as items, the annotator method's accuracy per
annotator and per concept label, checked against counts worked out here."""

from __future__ import annotations

import pandas as pd
import pytest

from shortcutlab.annotate.export import export_task, load_summary
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.errors import DataError
from tests.annotate.task_sources import answer, create_task

KIND = task_kind("verify-attribute")


def test_items_show_the_text_and_the_label_the_build_gave_it(mps_run):
    plan = KIND.plan(mps_run, sample=6, seed=0)
    assert len(plan.items) == 12
    builds = {i.reference["build"] for i in plan.items}
    assert {b.split("-")[1] for b in builds} == {"negation", "question"}
    for item in plan.items:
        folder = mps_run / "benchmarks" / item.reference["build"]
        column = item.reference["attribute"]
        rows = pd.concat(pd.read_csv(p) for p in sorted(folder.glob("*.csv"))).set_index("row_id")
        row = rows.loc[[item.reference["row_id"]]].iloc[0]
        assert item.payload == {"text": row["text"], "concept": row[column]}
        assert item.reference["value"] == row[column]
    assert [c.value for c in plan.form.fields[0].choices] == ["yes", "no", "unsure"]


def test_accuracy_per_annotator_and_per_concept(mps_run, tmp_path):
    folder = tmp_path / "attr"
    plan = create_task("verify-attribute", mps_run, folder, sample=4)
    # ann: yes, yes, no, unsure on each build's four items (the items come build by build).
    answer(folder, "ann", lambda n, item: {"correct": ["yes", "yes", "no", "unsure"][n % 4]})
    export_task(folder)
    tables = load_summary(folder).tables
    accuracy = tables["accuracy"][1]
    for attribute in ("negation", "question"):
        row = accuracy.loc[("toy", attribute, "ann")]
        assert row[["items", "yes", "no", "unsure"]].tolist() == [4, 2, 1, 1]
        assert row["accuracy"] == pytest.approx(2 / 3)
    per_concept = tables["per_concept"][1]
    expected: dict[tuple[str, str, str], list[str]] = {}
    for n, item in enumerate(plan.items):
        key = ("toy", item.reference["attribute"], item.reference["value"])
        expected.setdefault(key, []).append(["yes", "yes", "no", "unsure"][n % 4])
    assert sorted(per_concept.index) == sorted(expected)
    for key, said in expected.items():
        judged = [s for s in said if s != "unsure"]
        share = judged.count("yes") / len(judged) if judged else None
        row = per_concept.loc[key]
        assert row["items"] == len(said)
        assert (pd.isna(row["accuracy"]) and share is None) or row["accuracy"] == pytest.approx(
            share
        )


def test_two_annotators_are_pooled_per_item_not_per_answer(mps_run, tmp_path):
    folder = tmp_path / "attr"
    plan = create_task("verify-attribute", mps_run, folder, sample=4)
    answer(folder, "ann", lambda n, item: {"correct": ["yes", "yes", "no", "unsure"][n % 4]})
    answer(folder, "bob", lambda n, item: {"correct": "yes"})
    export_task(folder)
    tables = load_summary(folder).tables
    assert sorted({who for *_, who in tables["accuracy"][1].index}) == ["ann", "bob"]
    pooled = tables["accuracy_pooled"][1]
    # Per build: yy, yy, ny (a tie), uy (yes): 3 items say yes, 1 has no majority.
    for attribute in ("negation", "question"):
        row = pooled.loc[("toy", attribute)]
        assert row[["items", "answers", "majority_yes", "majority_no", "no_majority"]].tolist() == [
            4,
            8,
            3,
            0,
            1,
        ]
        assert row["accuracy"] == 1.0
    per_concept = tables["per_concept"][1]
    assert per_concept["items"].sum() == len(plan.items)
    assert per_concept["answers"].sum() == 2 * len(plan.items)


def test_a_concept_build_shows_the_concept_and_its_description(concept_build, tmp_path):
    folder = tmp_path / "attr"
    plan = create_task("verify-attribute", concept_build, folder, sample=10)
    rows = pd.concat(pd.read_csv(p) for p in sorted(concept_build.glob("*.csv")))
    by_row = rows.drop_duplicates("row_id").set_index("row_id")
    described = {"Comedy": "humour and jokes", "Drama": "serious themes"}
    assert len(plan.items) == 10
    for item in plan.items:
        row = by_row.loc[item.reference["row_id"]]
        concept = row["sentence_concept"]
        assert item.item_id == f"build/{item.reference['row_id']}"
        assert item.payload == {
            "text": row["text"],
            "concept": concept,
            "description": described[concept],
        }
    assert item.reference["attribute"] == "sentence-concept (keywords)"
    # Right when the text holds the concept's keyword: the keywords method is right every time.
    answer(
        folder,
        "ann",
        lambda n, item: {
            "correct": "yes" if item.payload["concept"].lower() in item.payload["text"] else "no"
        },
    )
    export_task(folder)
    row = (
        load_summary(folder)
        .tables["accuracy"][1]
        .loc[("build", "sentence-concept (keywords)", "ann")]
    )
    assert row[["items", "yes", "no", "accuracy"]].tolist() == [10, 10, 0, 1.0]


def test_a_maze_run_has_no_attribute_labels(maze_run):
    with pytest.raises(DataError, match="is a maze run; verify-attribute needs an MPS build"):
        KIND.plan(maze_run, sample=5, seed=0)
    build = next((maze_run / "benchmarks").iterdir())
    with pytest.raises(DataError, match="holds no attribute labels; verify-attribute needs"):
        KIND.plan(build, sample=5, seed=0)
