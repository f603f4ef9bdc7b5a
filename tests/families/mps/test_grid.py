"""MPS grids (family: mps): what the store holds, what results print, resume and Ray equality."""

import io
import json
import sqlite3

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.errors import GRID, caller
from shortcutlab.families import load_results, run_experiment
from shortcutlab.families.mps import export as mps_report
from shortcutlab.reports.tables import nothing_varied_note, tidy_text
from tests.families.mps.mps_helpers import mps_pool
from tests.metrics.test_metrics import _holm_by_definition

SPEC = """
family: mps
name: tiny-mps
data: {{name: toy, train: pool.csv}}
attributes: [negation, question]
mps: {{test_size: 120}}
models: [{{name: tfidf-svm, cv: 2}}]
seeds: {seeds}
vary: {vary}
bootstrap: 200
"""


def write_spec(folder, *, seeds="[0, 1]", vary="model", text=SPEC):
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "pool.csv").exists():
        mps_pool(800).to_csv(folder / "pool.csv", index=False)
    (folder / "spec.yaml").write_text(text.format(seeds=seeds, vary=vary))
    return folder / "spec.yaml"


def results_text(run_dir):
    loaded = load_results(run_dir)
    return mps_report.tables(loaded, "md") + mps_report.tables(loaded, "csv")


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mps")
    report = run_experiment(write_spec(folder), folder / "run")
    return folder, report


def _w_acc(truth, predicted):
    """The lowest per-label accuracy, written out plainly."""
    return min((predicted[truth == k] == k).mean() for k in np.unique(truth))


def _stored(run):
    with sqlite3.connect(run / "results.sqlite") as db:
        cells = db.execute(
            "SELECT cell_id, shortcut, strength, seed, benchmark_id FROM cells ORDER BY shortcut, seed"
        ).fetchall()
        names = {
            cell: sorted(
                n for (n,) in db.execute("SELECT split FROM predictions WHERE cell_id = ?", (cell,))
            )
            for cell, *_ in cells
        }
        rows = {
            (b, split): (np.frombuffer(ids, np.int64), np.frombuffer(labels, np.int32))
            for b, split, ids, labels in db.execute(
                "SELECT benchmark_id, split, row_ids, labels FROM rows"
            )
        }
    return cells, names, rows


def _predicted(run, cell_id, name):
    with sqlite3.connect(run / "results.sqlite") as db:
        k, blob = db.execute(
            "SELECT n_classes, probabilities FROM predictions WHERE cell_id = ? AND split = ?",
            (cell_id, name),
        ).fetchone()
    return np.frombuffer(blob, np.float32).reshape(-1, k).argmax(axis=1)


def test_a_cell_stores_both_fits_on_its_own_and_the_other_attributes_test_sets(finished):
    folder, report = finished
    run = folder / "run"
    assert (report.total, report.done, report.failed) == (4, 4, 0)
    cells, names, rows = _stored(run)
    assert [(c[1], c[3]) for c in cells] == [
        ("negation", 0),
        ("negation", 1),
        ("question", 0),
        ("question", 1),
    ]
    negation_cell = cells[0][0]
    assert names[negation_cell] == [
        "balanced/test",
        "balanced/test@question",
        "imbalanced/test",
        "imbalanced/test@question",
    ]
    for _, attribute, strength, _, build in cells:
        bench = Benchmark.load(run / "benchmarks" / build)
        assert bench.manifest["attribute"]["name"] == attribute
        assert strength == bench.manifest["dominance"]  # the resolved dominance
        assert np.array_equal(rows[(build, "test")][0], bench["test"]["row_id"].to_numpy())
        assert list(bench["test"].columns[:5]) == ["row_id", "text", "label", attribute, "group"]


def test_printed_gaps_are_those_of_the_stored_predictions(finished):
    """δ and Δ of the printed table, recomputed from the stored probabilities and rows by hand."""
    folder, _ = finished
    run = folder / "run"
    cells, _, rows = _stored(run)
    text = results_text(run)
    for attribute in ("negation", "question"):
        deltas, overall = [], []
        for cell_id, label, _, _, build in cells:
            if label != attribute:
                continue
            truth = rows[(build, "test")][1]
            imbalanced = _predicted(run, cell_id, "imbalanced/test")
            balanced = _predicted(run, cell_id, "balanced/test")
            deltas.append(_w_acc(truth, balanced) - _w_acc(truth, imbalanced))
            overall.append((balanced == truth).mean() - _w_acc(truth, imbalanced))
        line = next(
            line
            for line in text.splitlines()
            if line.startswith("|") and f"| {attribute} |" in line
        )
        assert f"{np.mean(deltas):.3f}" in line.split("|")[3]
        assert f"{np.mean(overall):.3f}" in line.split("|")[4]


def test_results_print_every_table_with_its_notes(finished):
    folder, _ = finished
    text = results_text(folder / "run")
    for title in (
        "### δ and Δ per dataset × attribute (Tables 2-3)",
        "### W-ACC of the Imbalanced and Balanced fits",
        "### ACC of the Imbalanced and Balanced fits",
        "### Traditional worst-group accuracy over (label, value) groups",
        "### Cross-testing: W-ACC and ACC, Balanced / Imbalanced (A.7, Table 9)",
        "### Mean normalised label entropy per attribute value (Table 11)",
    ):
        assert title in text
    assert "| model | attribute | toy δ | toy Δ | toy ζ |" in text
    assert "| tfidf-svm | toy | negation |" in text  # a cross-testing row
    assert "over the 2 δ tests of this table" in text
    # tfidf-svm takes a seed but its two fits predict the same labels: one measurement.
    assert "95 % percentile bootstrap over the test rows, the same rows for both fits" in text


@pytest.mark.slow
def test_seeds_whose_fits_predict_the_same_labels_print_no_spread(finished):
    """The issue's case: tfidf-svm with seeds [0, 1] is two fits by id but one measurement, so
    every spread is — with the Maze tables' footnote, and empty in the csv/json output."""
    folder, _ = finished
    run = folder / "run"
    cells, _, _ = _stored(run)
    negation = [c[0] for c in cells if c[1] == "negation"]
    assert len(set(negation)) == 2  # two cells, two fits by id ...
    for name in ("imbalanced/test", "balanced/test"):  # ... that predict the same labels
        assert np.array_equal(
            _predicted(run, negation[0], name), _predicted(run, negation[1], name)
        )
    printed = CliRunner().invoke(app, ["results", str(run), "--format", "md", "--details"])
    assert printed.exit_code == 0, printed.output
    assert "± —" in printed.stdout and "± 0.000" not in printed.stdout
    with caller(GRID):  # results names the spec key (vary: data)
        assert nothing_varied_note("the spread") in printed.stdout
    for fmt in ("csv", "json"):
        tidy = CliRunner().invoke(app, ["results", str(run), "--format", fmt])
        frame = (
            pd.read_csv(io.StringIO(tidy.stdout))
            if fmt == "csv"
            else pd.DataFrame(json.loads(tidy.stdout))
        )
        assert (frame["distinct_fits"] == 1).all() and (frame["ci_resamples"] == "rows").all()
        spreads = [c for c in frame if c.endswith("_std")]
        assert frame[spreads].isna().all().all(), frame[spreads]
    cross = pd.read_csv(io.StringIO(tidy_text(load_results(run).cross, "csv")))
    assert cross[[c for c in cross if c.endswith("_std")]].isna().all().all()


def test_cross_testing_scores_the_other_test_set(finished):
    folder, _ = finished
    run = folder / "run"
    cells, _, rows = _stored(run)
    loaded = load_results(run)
    cross = loaded.cross.set_index(["attribute", "tested_on"])
    negation_build = next(c[4] for c in cells if c[1] == "negation")
    question_build = next(c[4] for c in cells if c[1] == "question")
    scored_ids, truth = rows[(negation_build, "test@question")]
    expected = np.mean(
        [
            _w_acc(truth, _predicted(run, c[0], "balanced/test@question"))
            for c in cells
            if c[1] == "negation"
        ]
    )
    assert cross.loc[("negation", "question"), "w_acc_balanced_mean"] == pytest.approx(expected)
    # only the question test rows whose text the negation build never trained on are scored
    own = Benchmark.load(run / "benchmarks" / negation_build)
    seen = set(own["imbalanced"]["text"]) | set(own["balanced"]["text"])
    question_test = Benchmark.load(run / "benchmarks" / question_build)["test"]
    unseen = question_test[~question_test["text"].isin(seen)]
    assert 0 < len(unseen) < len(question_test)
    assert np.array_equal(scored_ids, unseen["row_id"].to_numpy())


def test_label_distribution_figure_and_its_data(finished):
    folder, _ = finished
    run = folder / "run"
    loaded = load_results(run)
    written = mps_report.write(loaded, folder / "report", "md")
    figure = folder / "report" / "figures" / "label_distribution-toy-negation.png"
    assert figure in written and figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert figure.stat().st_size > 5000
    plotted = pd.read_csv(folder / "report" / "label_distribution.csv")
    build = loaded.cells.loc[loaded.cells["attribute"] == "negation", "benchmark_id"].iloc[0]
    imbalanced = Benchmark.load(run / "benchmarks" / build)["imbalanced"]
    shares = imbalanced.groupby("negation")["label"].value_counts(normalize=True)
    part = plotted[(plotted["attribute"] == "negation") & (plotted["split"] == "imbalanced")]
    for row in part.itertuples():
        assert row.share == pytest.approx(shares.get((row.value, row.label), 0.0))
    # the Imbalanced shares lean to one label per value; the Balanced ones do not
    assert part["share"].max() >= 0.7
    balanced = plotted[(plotted["attribute"] == "negation") & (plotted["split"] == "balanced")]
    assert balanced["share"].between(0.45, 0.55).all()


def test_resume_skips_finished_cells_and_keeps_the_tables(finished):
    folder, _ = finished
    before = results_text(folder / "run")
    report = run_experiment(folder / "spec.yaml", folder / "run")
    assert (report.done, report.skipped) == (0, 4)
    assert results_text(folder / "run") == before


@pytest.mark.slow
def test_ray_executor_gives_identical_tables(finished, tmp_path):
    pytest.importorskip("ray")
    folder, _ = finished
    report = run_experiment(folder / "spec.yaml", tmp_path / "ray", executor="ray", jobs=2)
    assert report.done == 4
    assert results_text(tmp_path / "ray") == results_text(folder / "run")


def test_one_fit_prints_no_spread_and_says_what_the_interval_resamples(tmp_path):
    run_experiment(write_spec(tmp_path, seeds="[0]"), tmp_path / "run")
    text = results_text(tmp_path / "run")
    assert "± —" in text and "± 0.000" not in text
    assert "— : nothing varied between seeds" in text
    assert (
        "conditional on the fitted models: training and data-draw variance are not included" in text
    )
    tidy = load_results(tmp_path / "run").groups
    assert tidy["delta_isolated_std"].isna().all()


def test_vary_data_rebuilds_per_seed_and_bootstraps_each_build(tmp_path):
    run_experiment(write_spec(tmp_path, seeds="[0, 1]", vary="data"), tmp_path / "run")
    loaded = load_results(tmp_path / "run")
    assert loaded.groups["distinct_builds"].tolist() == [2, 2]
    cells, _, rows = _stored(tmp_path / "run")
    builds = [c[4] for c in cells if c[1] == "negation"]
    assert not np.array_equal(
        rows[(builds[0], "test")][0], rows[(builds[1], "test")][0]
    )  # two different test sets
    assert loaded.groups["delta_isolated_std"].notna().all()
    assert (loaded.groups["ci_resamples"] == "rows,fits").all()


def test_stars_follow_holm_over_every_delta_of_the_table(finished):
    folder, _ = finished
    groups = load_results(folder / "run").groups
    adjusted = _holm_by_definition(groups["p_delta_isolated"].to_numpy())
    assert np.allclose(groups["p_delta_isolated_holm"], adjusted)
    assert "p_delta_overall_holm" not in groups and groups["p_delta_overall"].notna().all()
    table = load_results(folder / "run").gap_table()
    for row in groups.itertuples():
        shown = table.loc[("tfidf-svm", row.attribute), ("toy", "δ")]
        assert shown.startswith(
            f"{row.delta_isolated_mean:.3f}{'*' if adjusted[row.Index] < 0.05 else ''} "
        )
        overall = table.loc[("tfidf-svm", row.attribute), ("toy", "Δ")]
        assert overall.startswith(f"{row.delta_overall_mean:.3f} ± ")  # never starred


@pytest.mark.slow
def test_cli_results_and_dry_run(finished, tmp_path):
    folder, _ = finished
    run = folder / "run"
    runner = CliRunner()
    printed = runner.invoke(app, ["results", str(run), "--format", "md"])
    assert printed.exit_code == 0, printed.output
    assert "### δ and Δ per dataset × attribute (Tables 2-3)" in printed.stdout
    assert (run / "figures" / "label_distribution-toy-question.png").stat().st_size > 5000
    tidy = runner.invoke(app, ["results", str(run), "--format", "csv"])
    frame = pd.read_csv(io.StringIO(tidy.stdout))
    assert frame[["dataset", "attribute", "model"]].values.tolist() == [
        ["toy", "negation", "tfidf-svm"],
        ["toy", "question", "tfidf-svm"],
    ]
    written = runner.invoke(app, ["results", str(run), "--out", str(tmp_path / "report")])
    assert written.exit_code == 0
    for name in ("gaps.md", "cross_test.md", "groups.csv", "cross_test.csv", "cells.csv"):
        assert (tmp_path / "report" / name).stat().st_size > 0
    dry = runner.invoke(app, ["run", str(folder / "spec.yaml"), "--out", str(run), "--dry-run"])
    assert dry.exit_code == 0
    assert "attribute" in dry.stdout and "0 of 4 cells to run over 2 benchmarks" in dry.stdout
