"""The grid engine: run, resume, failures, spec binding, executors."""

import json
import sqlite3

import numpy as np
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.errors import CellsFailedError, ConfigError, OutputExistsError
from shortcutlab.families import load_results, parse_spec, plan_run, run_experiment
from shortcutlab.families.maze.evaluate import evaluate_benchmark
from tests.conftest import tree_state
from tests.metrics.test_metrics import _holm_by_definition

SPEC = {
    "name": "grid",
    "data": {"builtin": "reviews", "train_size": 400, "test_size": 300},
    "shortcuts": ["single-term", "concept-correlation"],
    "strengths": [1.0, 0.6],
    "models": [{"name": "tfidf-logreg"}, {"name": "tfidf-svm", "id": "svm", "cv": 2}],
    "seeds": [0, 1],
    "bootstrap": 200,
}


def spec(**changes):
    return parse_spec({**SPEC, **changes})


def results_text(run_dir):
    from shortcutlab.families.maze import export as run_report

    loaded = load_results(run_dir)
    return run_report.tables(loaded, "md", "accuracy") + run_report.tables(
        loaded, "csv", "macro_f1"
    )


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "run"
    report = run_experiment(spec(), out)
    return out, report


def test_a_grid_runs_every_cell_and_stores_predictions(finished):
    out, report = finished
    assert (report.total, report.done, report.failed, report.skipped) == (16, 16, 0, 0)
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT count(*) FROM cells WHERE status = 'done'").fetchone()[0] == 16
        assert db.execute("SELECT count(*) FROM predictions").fetchone()[0] == 16 * 3
        shared = dict(
            db.execute("SELECT model, max(shared_fit) FROM cells GROUP BY model").fetchall()
        )
    assert shared == {
        "tfidf-logreg": 1,
        "svm": 0,
    }  # the svm depends on its seed, logistic regression does not
    assert len(list((out / "benchmarks").iterdir())) == 4
    assert json.loads((out / "spec.resolved.json").read_text())["name"] == "grid"


def test_resume_skips_finished_cells(finished):
    out, _ = finished
    before = results_text(out)
    report = run_experiment(spec(), out)
    assert (report.done, report.skipped) == (0, 16)
    assert results_text(out) == before


def test_grid_cells_match_evaluate_benchmark(finished):
    out, _ = finished
    loaded = load_results(out)
    cell = loaded.cells[(loaded.cells["model"] == "svm") & (loaded.cells["seed"] == 1)].iloc[0]
    bench = Benchmark.load(out / "benchmarks" / cell["benchmark_id"])
    single = evaluate_benchmark(
        bench, model="tfidf-svm", params={"cv": 2}, seeds=[1], bootstrap=100
    )
    assert single.runs[0]["splits"]["anti_test"]["accuracy"] == cell["anti_test_accuracy"]
    assert single.runs[0]["delta"]["macro_f1"] == cell["delta_macro_f1"]


def test_tables_and_holm(finished):
    loaded = load_results(finished[0])
    table1 = loaded.table1()
    assert table1.index.names == ["model", "dataset", "shortcut"] and len(table1) == 4
    assert list(table1.columns.get_level_values(1)[:3]) == ["Test", "Anti", "Δ"]
    strongest = loaded.groups[
        (loaded.groups.strength == 1.0) & (loaded.groups.shortcut == "concept-correlation")
    ]
    assert strongest["significant_accuracy"].all()
    for metric in ("accuracy", "macro_f1"):  # the family is every group of the grid
        raw = loaded.groups[f"p_{metric}"].to_numpy()
        assert loaded.groups[f"p_{metric}_holm"].tolist() == pytest.approx(
            _holm_by_definition(raw).tolist(), abs=1e-12
        )
    table9 = loaded.table9("macro_f1", marked=True)
    assert list(table9.columns) == [1.0, 0.6]
    assert str(table9.loc[("reviews", "tfidf-logreg", "concept-correlation", "Δ"), 1.0]).endswith(
        "*"
    )
    assert (loaded.groups["delta_accuracy_ci_low"] <= loaded.groups["delta_accuracy_mean"]).all()


@pytest.mark.slow
def test_local_pool_gives_identical_results(finished, tmp_path):
    run_experiment(spec(), tmp_path / "pool", jobs=2)
    assert results_text(tmp_path / "pool") == results_text(finished[0])


def test_failed_cells_are_recorded_and_the_grid_goes_on(tmp_path):
    broken = spec(
        models=[{"name": "tfidf-logreg", "min_df": 100000}, {"name": "majority"}],
        strengths=[1.0],
        shortcuts=["single-term"],
    )
    with pytest.raises(CellsFailedError) as info:
        run_experiment(broken, tmp_path / "run")
    assert str(info.value).startswith(
        "2 of 4 cells failed; the first, reviews single-term λ=1 tfidf-logreg seed 0: ValueError: "
    )
    assert str(info.value).endswith(
        f"This error's .report.errors lists every failure; the run folder {tmp_path / 'run'} "
        "keeps the finished cells, and running again retries the failed ones (pass "
        "raise_on_failure=False to get the report back instead)."
    )
    assert "\n" not in str(info.value)
    report = info.value.report
    assert (report.done, report.failed) == (2, 2)
    assert "ValueError" in report.errors[0][1]
    with sqlite3.connect(tmp_path / "run" / "results.sqlite") as db:
        assert (
            db.execute(
                "SELECT count(*) FROM cells WHERE status = 'failed' AND error IS NOT NULL"
            ).fetchone()[0]
            == 2
        )
    stopped = run_experiment(broken, tmp_path / "fast", fail_fast=True, raise_on_failure=False)
    assert (
        stopped.failed == 2 and stopped.done == 0
    )  # the failing fit comes first and stops the grid
    assert "failed=2" in repr(stopped) and "ValueError" not in repr(stopped)


@pytest.mark.slow
def test_a_different_spec_is_refused_unless_forced(finished, tmp_path):
    out, _ = finished
    before = tree_state(out)
    with pytest.raises(
        ConfigError,
        match=r"holds results of a different spec .* Use another out=\.\.\., or pass force=True",
    ):
        run_experiment(spec(seeds=[0, 1, 2]), out)
    assert tree_state(out) == before  # the shared run folder is left as it was
    copy = tmp_path / "copy"
    run_experiment(spec(shortcuts=["single-term"]), copy)
    report = run_experiment(spec(), copy, force=True)
    assert (report.skipped, report.done) == (8, 8)
    assert len(load_results(copy).cells) == 16


def test_a_foreign_folder_is_refused(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.txt").write_text("mine")
    with pytest.raises(OutputExistsError, match="is not a run folder"):
        run_experiment(spec(), tmp_path / "x")


def test_dry_run_lists_cells_with_their_status(finished, tmp_path):
    _, planned = plan_run(spec(), finished[0])
    assert len(planned) == 16 and all(p.finished for p in planned)
    _, fresh = plan_run(spec(), tmp_path / "new")
    assert not any(p.finished for p in fresh) and not (tmp_path / "new").exists()


def test_unreachable_ray_address_fails_before_anything_is_written(tmp_path):
    pytest.importorskip("ray")
    with pytest.raises(ConfigError, match="Cannot reach the Ray cluster at 127.0.0.1:9"):
        run_experiment(spec(), tmp_path / "run", executor="ray", address="127.0.0.1:9")
    assert not (tmp_path / "run").exists()
    with pytest.raises(ConfigError, match="Unknown executor 'rya'. Did you mean 'ray'"):
        run_experiment(spec(), tmp_path / "run", executor="rya")


@pytest.mark.slow
def test_ray_executor_gives_identical_results(finished, tmp_path):
    pytest.importorskip("ray")
    report = run_experiment(spec(), tmp_path / "ray", executor="ray", jobs=2)
    assert report.done == 16
    assert results_text(tmp_path / "ray") == results_text(finished[0])
    with sqlite3.connect(tmp_path / "ray" / "results.sqlite") as db:
        probabilities = dict(
            db.execute("SELECT cell_id || split, probabilities FROM predictions").fetchall()
        )
    with sqlite3.connect(finished[0] / "results.sqlite") as db:
        expected = dict(
            db.execute("SELECT cell_id || split, probabilities FROM predictions").fetchall()
        )
    assert probabilities.keys() == expected.keys()
    assert all(
        np.array_equal(
            np.frombuffer(probabilities[k], np.float32), np.frombuffer(expected[k], np.float32)
        )
        for k in expected
    )
