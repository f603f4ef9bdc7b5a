"""verify-counterfactual: CAT check pairs as items, the assumption rate (CAT §4.2) and the
agreement between annotators, checked against numbers worked out by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from shortcutlab.annotate.export import export_task, load_summary
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.errors import DataError
from tests.annotate.task_sources import answer, create_task

KIND = task_kind("verify-counterfactual")
FIELD = "default_label_holds"


def _pattern(text):
    codes = {"y": "yes", "n": "no", "u": "unsure"}
    return lambda n, item: {FIELD: codes[text[n]]}


def test_items_are_the_check_pairs_with_their_texts(cat_output):
    plan = KIND.plan(cat_output, sample=5, seed=0)
    check = pd.read_csv(cat_output / "check.csv", dtype=str, keep_default_na=False)
    assert len(plan.items) == 5 and plan.facts["pairs"] == 12
    by_row = check.set_index("row_id")
    for item in plan.items:
        row = by_row.loc[item.reference["row_id"]]
        assert item.item_id == f"{item.reference['row_id']}<-{row['donor_row_id']}"
        assert item.payload == {
            "text": row["text"],
            "text_pair": row["text_pair"],
            "default_label": "neutral",
        }
        assert item.reference["predicted_label"] == row["predicted_label"] != "neutral"
    assert "'neutral'" in plan.form.fields[0].prompt
    assert [c.key for c in plan.form.fields[0].choices] == ["y", "n", "u"]


def test_assumption_rate_leaves_unsure_out_and_gives_a_wilson_interval(cat_output, tmp_path):
    folder = tmp_path / "cf"
    create_task("verify-counterfactual", cat_output, folder, sample=12)
    answer(folder, "ann", _pattern("yyyyyyyyynnu"))
    export_task(folder)
    summary = load_summary(folder)
    row = summary.tables["assumption"][1].loc["ann"]
    assert row[["items", "yes", "no", "unsure"]].tolist() == [12, 9, 2, 1]
    assert row["assumption_rate"] == pytest.approx(9 / 11)
    # Wilson 95 %: centre (p + z²/2n) / (1 + z²/n), half-width z √(p(1-p)/n + z²/4n²) / (1 + z²/n).
    z, n, p = 1.959963984540054, 11, 9 / 11
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    assert [row["ci_low"], row["ci_high"]] == pytest.approx([centre - half, centre + half])
    assert "agreement" not in summary.tables  # one annotator: nothing to agree on


def test_two_annotators_give_cohens_kappa_and_a_pooled_rate(cat_output, tmp_path):
    folder = tmp_path / "cf"
    create_task("verify-counterfactual", cat_output, folder, sample=12)
    answer(folder, "ann", _pattern("yyyyynnnnn"), first=10)
    answer(folder, "bob", _pattern("yyyynnnnny"), first=10)
    export_task(folder)
    tables = load_summary(folder).tables
    # p_o = 8/10; each says yes half the time: p_e = 0.5; κ = (0.8 - 0.5) / 0.5 = 0.6.
    agreement = tables["agreement"][1].loc[FIELD]
    assert agreement["method"] == "Cohen's κ"
    assert agreement[["items", "dropped", "observed", "kappa"]].tolist() == pytest.approx(
        [10, 0, 0.8, 0.6]
    )
    rates = tables["assumption"][1]
    assert list(rates.index) == ["ann", "bob"]
    # Pooled, each pair once by its majority: 4 yes (yy), 4 no (nn), 2 ties (yn, ny) left out.
    pooled = tables["assumption_pooled"][1].loc["all annotators"]
    assert pooled[["items", "answers", "majority_yes", "majority_no", "no_majority"]].tolist() == [
        10,
        20,
        4,
        4,
        2,
    ]
    assert pooled["assumption_rate"] == pytest.approx(0.5)
    z, n = 1.959963984540054, 8  # Wilson over the 8 decided pairs, not the 20 answers
    half = z * ((0.25 / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    assert [pooled["ci_low"], pooled["ci_high"]] == pytest.approx([0.5 - half, 0.5 + half])
    progress = tables["progress"][1]
    assert progress.loc["ann", ["answered", "items"]].tolist() == [10, 12]


def test_an_annotator_named_all_annotators_keeps_their_row(cat_output, tmp_path):
    folder = tmp_path / "cf"
    create_task("verify-counterfactual", cat_output, folder, sample=12)
    answer(folder, "all annotators", _pattern("yyyy"), first=4)
    answer(folder, "bob", _pattern("nnnnnn"), first=6)
    export_task(folder)
    tables = load_summary(folder).tables
    rates = tables["assumption"][1]
    assert rates.loc["all annotators", ["items", "yes", "no"]].tolist() == [4, 4, 0]
    assert rates.loc["bob", ["items", "yes", "no"]].tolist() == [6, 0, 6]
    pooled = tables["assumption_pooled"][1].loc["all annotators"]
    assert pooled[["items", "answers", "majority_yes", "majority_no"]].tolist() == [6, 10, 0, 2]
    markdown = (folder / "summary.md").read_text(encoding="utf-8")
    assert "## Assumption rate per annotator (CAT §4.2)" in markdown
    assert "## Assumption rate, all annotators pooled" in markdown
    assert "each item counts once, by the majority of its yes / no answers" in markdown


def test_three_annotators_give_fleiss_kappa_on_the_items_all_three_judged(cat_output, tmp_path):
    folder = tmp_path / "cf"
    create_task("verify-counterfactual", cat_output, folder, sample=12)
    answer(folder, "ann", _pattern("yyyyyn" + "yyyy"), first=10)
    answer(folder, "bob", _pattern("yyyynn" + "nnnn"), first=10)
    answer(folder, "cat", _pattern("yynnnn"), first=6)
    export_task(folder)
    agreement = load_summary(folder).tables["agreement"][1].loc[FIELD]
    # Six items with three raters, (yes, no): (3,0) (3,0) (2,1) (2,1) (1,2) (0,3); four items with
    # two raters are dropped. P̄ = (1 + 1 + 1/3 + 1/3 + 1/3 + 1) / 6 = 2/3; p_yes = 11/18, so
    # p_e = (121 + 49) / 324 and κ = (216 - 170) / (324 - 170) = 46 / 154.
    assert agreement["method"] == "Fleiss' κ"
    assert agreement[["annotators", "raters_per_item", "items", "dropped"]].tolist() == [3, 3, 6, 4]
    assert agreement["observed"] == pytest.approx(2 / 3)
    assert agreement["kappa"] == pytest.approx(46 / 154)


def test_a_cat_run_gives_the_pairs_the_run_scored(cat_run, cat_output):
    """The run's first counterfactual set, redrawn: the same pairs 'shortcutlab cat' exported
    for the same data, seed and model."""
    plan = KIND.plan(cat_run, sample=1000, seed=0)
    check = pd.read_csv(cat_output / "check.csv", dtype=str, keep_default_na=False)
    by_row = {item.reference["row_id"]: item for item in plan.items}
    assert len(plan.items) > len(check) and plan.facts["default_label"] == "neutral"
    for row in check.to_dict("records"):
        item = by_row[row["row_id"]]
        assert item.item_id == f"cue/{row['row_id']}<-{row['donor_row_id']}"
        assert item.payload == {
            "text": row["text"],
            "text_pair": row["text_pair"],
            "default_label": "neutral",
        }
        assert item.reference["predicted_label"] == row["predicted_label"]
        assert item.reference["gold_label"] == row["gold_label"]
    assert all(i.reference["predicted_label"] != "neutral" for i in plan.items)


def test_a_source_without_cat_pairs_is_refused_with_the_fix(maze_run, cat_output, tmp_path):
    with pytest.raises(
        DataError, match=r"holds no CAT pairs; .*CAT run folder .*--export-check 50"
    ):
        KIND.plan(maze_run, sample=5, seed=0)
    bare = tmp_path / "cat"
    bare.mkdir()
    (bare / "results.json").write_text((cat_output / "results.json").read_text())
    with pytest.raises(DataError, match="holds a CAT output without check.csv"):
        KIND.plan(bare, sample=5, seed=0)
