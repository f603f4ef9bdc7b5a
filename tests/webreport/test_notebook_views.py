"""Run results and audits in a notebook: ``_repr_html_`` shows the tables of their report
section (read back from the HTML and checked against the results' own numbers), and
``load_results(path).to_pandas(wide=True)`` is the table ``shortcutlab results --format csv`` prints."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import shortcutlab
from shortcutlab.families.maze.report_tables import table_blocks
from shortcutlab.reports.html.document import Table
from tests.cli.refusals import invoke
from tests.reports.tidy_columns import assert_explained
from tests.reports.view_html import View, assert_csv_holds
from tests.webreport.conftest import SPEC_NAME

IMAGE = '"><img src=x onerror=alert(1)>'


def test_the_wide_table_is_the_table_results_prints_as_csv(maze_run: Path):
    table = shortcutlab.load_results(maze_run).to_pandas(wide=True)
    printed = invoke("results", maze_run, "--format", "csv")
    assert printed.exit_code == 0, printed.output
    assert len(table) == 4  # 2 shortcuts × 2 λ: one row per group
    assert_csv_holds(printed.stdout, table)


def test_to_pandas_is_the_long_table_of_the_wide_groups(maze_run: Path):
    run = shortcutlab.load_results(maze_run)
    table = run.to_pandas()
    assert_explained(table)
    assert len(table) == 4 * 8  # 4 groups × (test, anti_test, original_test, delta) × 2 metrics
    assert table["mitigation"].isna().all()  # the spec asks for none: no made-up "erm"
    for _, group in run.groups.iterrows():
        rows = table[
            (table["shortcut"] == group["shortcut"]) & (table["strength"] == group["strength"])
        ]
        rows = rows.set_index(["split", "metric"])
        assert rows.at[("anti_test", "accuracy"), "estimate"] == group["anti_test_accuracy_mean"]
        drop = rows.loc[("delta", "accuracy")]
        assert (drop["ci_low"], drop["ci_high"], drop["p_adjusted"]) == (
            group["delta_accuracy_ci_low"],
            group["delta_accuracy_ci_high"],
            group["p_accuracy_holm"],
        )
        assert drop["interval"] == "bootstrap over rows and fits"  # vary: both
    per_seed = run.to_pandas(per_seed=True)
    assert_explained(per_seed)
    cell = run.cells.iloc[0]
    seed = per_seed[(per_seed["seed"] == cell["seed"]) & (per_seed["shortcut"] == cell["shortcut"])]
    seed = seed[seed["strength"] == cell["strength"]].set_index(["split", "metric", "label"])
    assert seed.at[("test", "predicted_share", "1"), "estimate"] == cell["test_share:1"]
    drops = run.delta_frame("reviews", "accuracy")
    assert list(drops.columns) == list(table.columns) and set(drops["split"]) == {"delta"}
    assert repr(run) == f"RunResults(family='maze', folder='{maze_run}', cells=8, groups=4)"


def test_the_run_view_shows_the_report_tables_with_the_run_numbers(maze_run: Path):
    run = shortcutlab.load_results(maze_run)
    view = View(run._repr_html_())
    assert view.headings[0] == f"Run {SPEC_NAME}"
    report_tables = [block for block in table_blocks(run) if isinstance(block, Table)]
    assert [view.tables[t.name].caption for t in report_tables] == [t.title for t in report_tables]
    assert set(view.tables) == {t.name for t in report_tables}
    # Table 9 of accuracy: a column per λ; each shortcut's Test row holds its mean accuracies,
    # the shortcuts in the order of the run's groups.
    table9 = view.tables["table9-accuracy"].rows
    strengths = [float(s) for s in table9[1]]  # the row below the spanning λ header
    test_rows = [row[-len(strengths) :] for row in table9[2:] if row[-len(strengths) - 1] == "Test"]
    groups = run.groups.set_index(["shortcut", "strength"])["test_accuracy_mean"]
    expected = [
        [f"{groups[shortcut, strength]:.3f}" for strength in strengths]
        for shortcut in run.groups["shortcut"].unique()
    ]
    assert test_rows == expected
    assert view.headings[1] == "Run"  # the facts block: folder, family, cells, groups
    assert view.loading == []


def test_the_audit_view_shows_its_candidates_escaped():
    labels = [i % 2 for i in range(160)]
    rows = pd.DataFrame(
        {
            "text": [f"item {i} value" for i in range(160)],
            "label": labels,
            "source": [IMAGE if label and i % 5 else "plain" for i, label in enumerate(labels)],
        }
    )
    result = shortcutlab.audit_dataset(rows, metadata=["source"])
    text = result._repr_html_()
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    view = View(text)
    assert view.loading == [] and view.headings[0] == "Shortcut audit: in-memory table"
    candidates = view.tables["audit-candidates"]
    shown = candidates.column("candidate")
    expected = result.table.sort_values("rank").head(len(shown))
    assert list(shown.values()) == [str(c) for c in expected["candidate"]]
    assert shown["1"] == f"source = {IMAGE}"
    assert candidates.column("support")["1"] == str(expected["support"].iloc[0])
