"""The label task: items drawn from real runs and builds, the models' predictions read from the
store, and the Table 5 summary checked against numbers worked out here from the answers."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pandas as pd
import pytest

from shortcutlab.annotate.export import export_task, load_summary
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.errors import ConfigError, DataError
from tests.annotate.task_sources import answer, create_task
from tests.cli.refusals import assert_refused
from tests.conftest import tree_state

LABEL = task_kind("label")


def _wrong(item, labels):
    return next(v for v in labels if v != item.reference["label"])


def _by_hand(pairs):
    """(W-ACC, ACC) of (truth, said) pairs: the lowest per-label accuracy, and accuracy."""
    per_label = {}
    for truth, said in pairs:
        per_label.setdefault(truth, []).append(truth == said)
    return min(np.mean(v) for v in per_label.values()), np.mean([t == s for t, s in pairs])


def test_items_are_seeded_test_rows_with_their_gold_label_and_the_models_predictions(maze_run):
    plan = LABEL.plan(maze_run, sample=8, seed=0)
    again = LABEL.plan(maze_run, sample=8, seed=0)
    other = LABEL.plan(maze_run, sample=8, seed=1)
    assert [i.item_id for i in plan.items] == [i.item_id for i in again.items]
    assert [i.item_id for i in plan.items] != [i.item_id for i in other.items]
    (build,) = {i.reference["build"] for i in plan.items}
    test = pd.read_csv(maze_run / "benchmarks" / build / "test.csv")
    by_row = test.set_index("row_id")
    connection = sqlite3.connect(maze_run / "results.sqlite")
    cell_id, blob, n_classes = connection.execute(
        "SELECT c.cell_id, p.probabilities, p.n_classes FROM cells c JOIN predictions p "
        "ON p.cell_id = c.cell_id WHERE p.split = 'test'"
    ).fetchone()
    ids = np.frombuffer(
        connection.execute(
            "SELECT row_ids FROM rows WHERE benchmark_id = ? AND split = 'test'", (build,)
        ).fetchone()[0],
        dtype=np.int64,
    )
    predicted = np.frombuffer(blob, dtype=np.float32).reshape(-1, n_classes).argmax(axis=1)
    labels = plan.facts["labels"]
    assert [c.value for c in plan.form.fields[0].choices] == labels == ["1", "2", "3", "4", "5"]
    assert [c.key for c in plan.form.fields[0].choices] == ["1", "2", "3", "4", "5"]
    for item in plan.items:
        row_id = item.reference["row_id"]
        assert item.item_id == f"{build}/{row_id}"
        assert item.payload == {"text": by_row.loc[row_id, "text"]}
        assert item.reference["label"] == str(by_row.loc[row_id, "label"])
        position = int(np.flatnonzero(ids == row_id)[0])
        assert item.reference["models"] == {"tfidf-logreg": [labels[predicted[position]]]}


def test_table5_puts_people_next_to_the_model_on_the_same_rows(maze_run, tmp_path):
    folder = tmp_path / "label"
    plan = create_task("label", maze_run, folder, sample=8)
    labels = plan.facts["labels"]
    answer(
        folder,
        "ann",
        lambda n, item: {"label": _wrong(item, labels) if n < 2 else item.reference["label"]},
    )
    answer(folder, "bob", lambda n, item: {"label": item.reference["label"]}, first=4)
    export_task(folder)
    table = load_summary(folder).tables["table5"][1]
    (shortcut,) = table.index.get_level_values("shortcut").unique()
    truth = [i.reference["label"] for i in plan.items]
    ann = [_wrong(i, labels) if n < 2 else i.reference["label"] for n, i in enumerate(plan.items)]
    model = [i.reference["models"]["tfidf-logreg"][0] for i in plan.items]
    expected = {
        "Human: ann": (*_by_hand(list(zip(truth, ann, strict=True))), 8),
        "Human: bob": (1.0, 1.0, 4),
        "tfidf-logreg": (*_by_hand(list(zip(truth, model, strict=True))), 8),
    }
    assert list(table.index) == [(shortcut, who) for who in expected]
    assert list(table.columns) == [("reviews", m) for m in ("W-ACC", "ACC", "rows")]
    for who, (w_acc, acc, rows) in expected.items():
        assert table.loc[(shortcut, who)].tolist() == pytest.approx([w_acc, acc, rows])
    assert table.loc[(shortcut, "Human: ann"), ("reviews", "ACC")] == 0.75


def test_an_mps_run_gives_both_fits_per_model_and_one_block_per_attribute(mps_run, tmp_path):
    folder = tmp_path / "label"
    plan = create_task("label", mps_run, folder, sample=5)
    assert len(plan.items) == 10
    answer(folder, "ann", lambda n, item: {"label": item.reference["label"]})
    export_task(folder)
    summary = load_summary(folder)
    table = summary.tables["table5"][1]
    assert list(table.index) == [
        (attribute, who)
        for attribute in ("negation", "question")
        for who in ("Human: ann", "tfidf-svm (Balanced)", "tfidf-svm (Imbalanced)")
    ]
    assert table[("toy", "ACC")].iloc[0] == 1.0
    assert any("(Imbalanced) / (Balanced)" in note for note in summary.notes)


def test_a_benchmark_folder_gives_people_only(maze_run, tmp_path):
    build = next((maze_run / "benchmarks").iterdir())
    folder = tmp_path / "label"
    plan = create_task("label", build, folder, sample=3)
    assert [i.item_id for i in plan.items] == [str(i.reference["row_id"]) for i in plan.items]
    answer(folder, "ann", lambda n, item: {"label": item.reference["label"]})
    export_task(folder)
    table = load_summary(folder).tables["table5"][1]
    assert [who for _, who in table.index] == ["Human: ann"]


def test_answers_outside_the_form_are_refused(maze_run):
    plan = LABEL.plan(maze_run, sample=2, seed=0)
    assert LABEL.check_answer(plan.form, {"label": "3"}) == {"label": "3"}
    with pytest.raises(DataError, match="'label' takes one of 1, 2, 3, 4, 5; got '9'"):
        LABEL.check_answer(plan.form, {"label": "9"})
    with pytest.raises(DataError, match="exactly the fields label; missing label"):
        LABEL.check_answer(plan.form, {})
    with pytest.raises(DataError, match="unknown extra"):
        LABEL.check_answer(plan.form, {"label": "3", "extra": "1"})
    with pytest.raises(DataError, match="an object"):
        LABEL.check_answer(plan.form, ["3"])


def test_bad_sources_and_samples_are_refused_with_the_fix(maze_run, cat_run, tmp_path):
    with pytest.raises(
        DataError, match="is a cat run; the label task needs a Shortcut Maze or MPS run"
    ):
        LABEL.plan(cat_run, sample=5, seed=0)
    with pytest.raises(DataError, match="neither a run folder .* or a benchmark folder"):
        LABEL.plan(tmp_path, sample=5, seed=0)
    with pytest.raises(ConfigError, match="--sample must be a whole number >= 1. Got 0"):
        LABEL.plan(maze_run, sample=0, seed=0)
    with pytest.raises(ConfigError, match="has no build 'nope'; its builds: reviews-single-term"):
        LABEL.plan(maze_run, sample=5, seed=0, benchmark="nope")


def test_export_is_deterministic_and_refuses_a_task_without_answers(maze_run, tmp_path):
    folder = tmp_path / "label"
    create_task("label", maze_run, folder, sample=4)
    before = tree_state(folder)
    with pytest.raises(DataError, match="has no answers yet"):
        export_task(folder)
    assert tree_state(folder) == before
    answer(folder, "ann", lambda n, item: {"label": item.reference["label"]})
    paths = export_task(folder)
    assert [p.name for p in paths] == ["answers.csv", "summary.json", "summary.md"]
    first = {p.name: p.read_bytes() for p in paths}
    assert {p.name: p.read_bytes() for p in export_task(folder)} == first
    answers = pd.read_csv(folder / "answers.csv")
    assert list(answers.columns[:5]) == ["item_id", "annotator", "field", "value", "answered_at"]
    assert len(answers) == 4 and "ref_label" in answers and "ref_models" in answers
    assert (answers["value"].astype(str) == answers["ref_label"].astype(str)).all()
    assert json.loads(first["summary.json"])["format"] == "shortcutlab-annotations"
    assert "| single-term | Human: ann | 1.000 | 1.000 | 4 |" in first["summary.md"].decode()


def test_label_names_are_the_buttons_words_and_answers_keep_the_values(maze_run):
    names = "awful,poor,fine,good,great"
    plan = LABEL.plan(maze_run, sample=2, seed=0, label_names=names)
    choices = plan.form.fields[0].choices
    assert [(c.value, c.text, c.key) for c in choices] == [
        ("1", "awful", "1"),
        ("2", "poor", "2"),
        ("3", "fine", "3"),
        ("4", "good", "4"),
        ("5", "great", "5"),
    ]
    assert LABEL.check_answer(plan.form, {"label": "4"}) == {"label": "4"}
    with pytest.raises(ConfigError, match="--label-names gives 2 names for the 5 labels 1, 2, 3"):
        LABEL.plan(maze_run, sample=2, seed=0, label_names="bad,good")


def test_one_name_for_two_labels_is_refused_by_the_cli(maze_run, tmp_path):
    """Two buttons with one word: an answer could not say which label was meant."""
    assert_refused(
        tmp_path,
        "--label-names gives the name 'bad' to more than one of the labels 1, 2, 3, 4, 5",
        "annotate", "serve", maze_run, "--task", "label", "--label-names",
        "awful,bad,bad,good,great", "--folder", tmp_path / "task", "--port", "0",
    )  # fmt: skip
