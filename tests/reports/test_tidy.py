"""Every result's ``to_pandas()`` is one long table (cell × split × metric) whose figures are the
wide table's, whose columns the glossary explains, and whose values need no decoding."""

from __future__ import annotations

import pandas as pd
import pytest

import shortcutlab as sl
from shortcutlab.reports.plots import delta_frame
from shortcutlab.reports.tidy import CELL_COLUMNS, FIGURE_COLUMNS
from tests.reports.tidy_columns import assert_explained


@pytest.fixture(scope="module")
def evaluation():
    corpus = sl.generate_corpus(train_size=300, test_size=200)
    bench = sl.build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="single-term", strength=0.8
    )
    return sl.evaluate_benchmark(bench, seeds=2, bootstrap=100)


def test_the_long_table_holds_the_wide_rows_figures(evaluation):
    table = evaluation.to_pandas()
    wide = evaluation.statistics
    assert list(table.columns) == [*CELL_COLUMNS, *FIGURE_COLUMNS]
    assert len(table) == 8  # (3 splits + Δ) × (accuracy, macro-F1): one row per split × metric
    rows = table.set_index(["split", "metric"])
    anti = rows.loc[("anti_test", "accuracy")]
    assert anti["estimate"] == wide["anti_test_accuracy_mean"]
    assert pd.isna(anti["ci_low"]) and pd.isna(anti["p"]) and pd.isna(anti["interval"])
    drop = rows.loc[("delta", "accuracy")]
    assert drop[["estimate", "ci_low", "ci_high", "p", "p_adjusted"]].tolist() == [
        wide["delta_accuracy_mean"],
        wide["delta_accuracy_ci_low"],
        wide["delta_accuracy_ci_high"],
        wide["p_accuracy"],
        wide["p_accuracy_holm"],
    ]
    assert (
        drop["n"] == wide["paired_rows"] == 200
        and drop["significant"] == wide["significant_accuracy"]
    )
    # tfidf-logreg ignores its seed: one distinct fit, so the interval covers rows only.
    assert wide["ci_resamples"] == "rows" and drop["seeds"] == 2 and drop["distinct_fits"] == 1
    assert drop["interval"] == "bootstrap over rows only (one fit: fit variance not included)"
    assert table["mitigation"].isna().all()  # none was asked for: no made-up "erm"
    assert_explained(table)


def test_the_wide_table_stays_and_delta_frame_is_a_slice_of_the_long_one(evaluation):
    pd.testing.assert_frame_equal(evaluation.to_pandas(wide=True), evaluation.to_frame())
    drops = delta_frame([evaluation], "macro_f1")
    long = evaluation.to_pandas()
    expected = long[(long["split"] == "delta") & (long["metric"] == "macro_f1")]
    pd.testing.assert_frame_equal(drops, expected.reset_index(drop=True))
    with pytest.raises(sl.ConfigError, match="'per_seed' and 'wide' parameters"):
        evaluation.to_pandas(per_seed=True, wide=True)


def test_per_seed_rows_hold_each_seeds_scores_and_label_shares(evaluation):
    table = evaluation.to_pandas(per_seed=True)
    assert_explained(table)
    assert sorted(table["seed"].unique()) == evaluation.seeds
    for run in evaluation.runs:
        seed = table[table["seed"] == run["seed"]].set_index(["split", "metric", "label"])
        anti = run["splits"]["anti_test"]
        assert seed.loc[("anti_test", "accuracy", None), "estimate"] == anti["accuracy"]
        shares = seed.xs(("anti_test", "predicted_share"), level=["split", "metric"])["estimate"]
        rows = anti["rows"]
        assert shares.to_dict() == {k: v / rows for k, v in anti["label_distribution"].items()}
        drop = seed.loc[("delta", "accuracy", None)]
        assert drop["estimate"] == run["delta"]["accuracy"]
        assert drop["p"] == run["mcnemar"]["p_value"]
    assert not any(":" in str(m) for m in table["metric"])  # no "test_share:0" names


def test_an_audit_gives_the_same_shape_with_its_candidates(evaluation):
    corpus = sl.generate_corpus(train_size=300, test_size=200)
    result = sl.audit_dataset(corpus["train"], corpus["test"])
    table = result.to_pandas()
    assert_explained(table)
    assert list(table.columns[: len(CELL_COLUMNS)]) == list(CELL_COLUMNS)
    assert list(table.columns[-len(FIGURE_COLUMNS) :]) == list(FIGURE_COLUMNS)
    first = result.table[result.table["rank"] == 1].iloc[0]
    lift = table[(table["candidate"] == first["candidate"]) & (table["metric"] == "lift")]
    scan = lift[lift["split"] == "train"].iloc[0]
    assert (scan["estimate"], scan["p"], scan["n"]) == (
        first["lift"],
        first["p_value"],
        first["support"],
    )
    pd.testing.assert_frame_equal(result.to_pandas(wide=True), result.table)


def test_result_reprs_are_one_short_line(evaluation):
    corpus = sl.generate_corpus(train_size=300, test_size=200)
    audit = sl.audit_dataset(corpus["train"])
    for shown in (repr(evaluation), repr(audit)):
        assert "\n" not in shown and len(shown) < 200, shown
        assert "manifest" not in shown and "array(" not in shown
    assert repr(evaluation).startswith(
        "EvaluationResult(model='tfidf-logreg', shortcut='single-term'"
    )


def test_an_audit_with_a_model_gives_each_candidates_flip_rates_with_exact_intervals():
    corpus = sl.generate_corpus(train_size=300, test_size=200)
    result = sl.audit_dataset(corpus["train"], corpus["test"], model="tfidf-logreg")
    table = result.to_pandas()
    assert_explained(table)
    flips = table[table["metric"] == "insertion_flip_rate"]
    assert len(flips) > 0
    wide = result.table.set_index("candidate")
    for row in flips.itertuples():
        measured = wide.loc[row.candidate]
        assert (row.estimate, row.ci_low, row.ci_high, row.n) == (
            measured["insertion_changed"],
            measured["insertion_changed_low"],
            measured["insertion_changed_high"],
            measured["insertion_rows"],
        )
        assert row.interval == "exact (Clopper–Pearson) over rows"
