"""run --track mlflow: every finished cell is one MLflow run, exactly once, even across a kill -9,
and no other run: the report lies in the experiment's artifact location, named by a tag.

What MLflow holds is read back with ``mlflow.search_runs`` (unfiltered) and MLflow's artifact API
from a local file store, as a user would; nothing here reaches a server (test_mlflow_stores.py
tests the other stores, a real server among them, and the stores that are refused).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from shortcutlab.families import run_experiment
from tests.cli.refusals import assert_refused, assert_user_error, invoke
from tests.engine.test_kill_resume import run_and_kill

mlflow = pytest.importorskip("mlflow")

TWO_CELLS = """
name: two-cells
data: {builtin: reviews, train_size: 1500, test_size: 600}
shortcuts: [single-term]
strengths: [1.0]
models: [{name: tfidf-svm, cv: 2}]
seeds: [0, 1]
bootstrap: 100
"""


@pytest.fixture(autouse=True)
def file_store_allowed(monkeypatch):
    """MLflow 3 refuses a file: store unless asked (the docs say so; a test below checks)."""
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(TWO_CELLS)
    return path


def store_uri(tmp_path, name="mlruns"):
    return (tmp_path / name).as_uri()


def logged_runs(uri, experiment="two-cells"):
    """Every run of the experiment, unfiltered, as mlflow.search_runs gives them."""
    mlflow.set_tracking_uri(uri)
    try:
        frame = mlflow.search_runs(experiment_names=[experiment])
    finally:
        mlflow.set_tracking_uri(None)
    return frame


def experiment_of(uri, experiment="two-cells"):
    return mlflow.tracking.MlflowClient(uri).get_experiment_by_name(experiment)


def stored_cells(run):
    with sqlite3.connect(run / "results.sqlite") as db:
        query = "SELECT cell_id, dataset, shortcut, strength, model, mitigation, seed, metrics FROM cells"
        return {row[0]: row[1:] for row in db.execute(query)}


def stored_spec_hash(run):
    with sqlite3.connect(run / "results.sqlite") as db:
        return db.execute("SELECT value FROM meta WHERE key = 'spec_hash'").fetchone()[0]


def assert_logged_once(uri, run):
    """The experiment holds exactly one finished run per stored cell, each tagged with its cell
    id and the run folder's spec fingerprint, and nothing else."""
    cells = logged_runs(uri)
    stored = stored_cells(run)
    assert len(cells) == len(stored) == 2
    assert sorted(cells["tags.shortcutlab.cell_id"]) == sorted(stored)
    assert set(cells["status"]) == {"FINISHED"}
    assert set(cells["tags.shortcutlab.spec_hash"]) == {stored_spec_hash(run)}
    return cells


def test_two_cells_log_two_runs_with_their_params_metrics_and_cell_ids(tmp_path, spec):
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    cells = assert_logged_once(uri, tmp_path / "run")
    stored = stored_cells(tmp_path / "run")
    for _, logged in cells.iterrows():
        dataset, shortcut, strength, model, mitigation, seed, metrics = stored[
            logged["tags.shortcutlab.cell_id"]
        ]
        metrics = json.loads(metrics)
        assert (logged["params.family"], logged["params.dataset"]) == ("maze", dataset)
        assert (logged["params.shortcut"], logged["params.strength"]) == (shortcut, str(strength))
        assert (logged["params.model"], logged["params.mitigation"]) == (model, mitigation)
        assert logged["params.seed"] == str(seed)
        for split in ("test", "anti_test", "original_test"):
            assert (
                logged[f"metrics.splits.{split}.accuracy"] == metrics["splits"][split]["accuracy"]
            )
        assert logged["metrics.delta.accuracy"] == metrics["delta"]["accuracy"]
    assert "tags.mlflow.parentRunId" not in cells.columns  # no grid run to nest under


def test_the_report_lies_in_the_experiments_artifact_location_named_by_a_tag(tmp_path, spec):
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    experiment = experiment_of(uri)
    report_uri = experiment.tags["shortcutlab.report"]
    assert report_uri == (
        f"{experiment.artifact_location}/report/{stored_spec_hash(tmp_path / 'run')}"
    )
    assert experiment.tags["shortcutlab.report_status"] == "complete"
    folder = Path(
        mlflow.artifacts.download_artifacts(
            artifact_uri=report_uri, dst_path=str(tmp_path / "down"), tracking_uri=uri
        )
    )
    assert "single-term" in (folder / "table1.md").read_text()
    assert (folder / "cells.csv").read_text().count("\n") == 3
    assert len(logged_runs(uri)) == 2  # the report added no run


def test_a_grid_with_a_failed_cell_says_its_report_is_incomplete(tmp_path, spec):
    spec.write_text(
        TWO_CELLS.replace("seeds: [0, 1]", "seeds: [0]").replace(
            "models: [{name: tfidf-svm, cv: 2}]",
            "models: [{name: tfidf-logreg, min_df: 100000}, majority]",
        )
    )
    uri = store_uri(tmp_path)
    report = run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}", raise_on_failure=False)
    assert (report.done, report.failed) == (1, 1)
    cells = logged_runs(uri)
    assert list(cells["params.model"]) == ["majority"]  # only the finished cell
    experiment = experiment_of(uri)
    assert experiment.tags["shortcutlab.report_status"] == "incomplete"
    folder = Path(
        mlflow.artifacts.download_artifacts(
            artifact_uri=experiment.tags["shortcutlab.report"], dst_path=str(tmp_path / "down")
        )
    )
    assert (folder / "cells.csv").read_text().count("\n") == 2  # the finished cell's row


@pytest.mark.slow
def test_kill_nine_then_resume_still_logs_each_cell_once(tmp_path, spec):
    uri = store_uri(tmp_path)
    run = tmp_path / "run"
    run_and_kill(spec, run, after_cells=1, extra=["--track", f"mlflow:{uri}"])
    assert len(stored_cells(run)) < 2, "the kill should land mid-run"
    result = invoke("run", spec, "--out", run, "--track", f"mlflow:{uri}")
    assert result.exit_code == 0, result.output
    cells = assert_logged_once(uri, run)
    assert set(cells["params.seed"]) == {"0", "1"}
    assert set(cells["params.model"]) == {"tfidf-svm"}
    assert cells["metrics.delta.accuracy"].notna().all()
    assert experiment_of(uri).tags["shortcutlab.report_status"] == "complete"


def test_a_run_folder_left_half_created_by_a_kill_does_not_stop_the_resume(tmp_path, spec):
    """MLflow writes a run's meta.yaml in place: a kill -9 at that moment leaves it empty, and
    the file store then fails every search. The resume removes that folder and logs each cell
    once."""
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    experiment = experiment_of(uri).experiment_id
    half = tmp_path / "mlruns" / experiment / "0123456789abcdef0123456789abcdef"
    half.mkdir()
    (half / "meta.yaml").write_text("")
    with pytest.raises(AttributeError):  # what MLflow itself does with it
        logged_runs(uri)
    report = run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    assert report.skipped == 2 and not half.exists()
    assert_logged_once(uri, tmp_path / "run")


def test_a_run_killed_inside_create_run_before_its_tags_is_deleted_on_resume(tmp_path, spec):
    """A kill inside MLflow's create_run can leave a run with its name and none of its tags (the
    file store writes them one file at a time). The journal named it before the call: the
    resume deletes it; an untagged run the journal does not name (another tool's) stays."""
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run")  # both cells stored, nothing logged
    client = mlflow.tracking.MlflowClient(uri)
    experiment = client.create_experiment("two-cells")
    killed = client.create_run(experiment, run_name="killed-while-created").info.run_id
    other = client.create_run(experiment, run_name="another tool's").info.run_id
    journal = tmp_path / "run" / ".tracking-pending.json"
    journal.write_text(json.dumps({"runs": [], "creating": ["killed-while-created"]}))
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    names = set(logged_runs(uri)["tags.mlflow.runName"])
    assert "killed-while-created" not in names and "another tool's" in names
    assert client.get_run(killed).info.lifecycle_stage == "deleted"
    assert client.get_run(other).info.lifecycle_stage == "active"
    assert not journal.exists()


@pytest.mark.slow
def test_cells_stored_but_never_logged_are_logged_on_resume_once(tmp_path, spec):
    """The window a kill -9 can leave: the store committed, MLflow never told. A run killed
    while logging leaves an unfinished MLflow run behind; it is replaced, not counted."""
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run")  # both cells stored, nothing logged
    half_logged = sorted(stored_cells(tmp_path / "run"))[0]
    client = mlflow.tracking.MlflowClient(uri)
    experiment = client.create_experiment("two-cells")
    tags = {
        "shortcutlab.cell_id": half_logged,
        "shortcutlab.spec_hash": stored_spec_hash(tmp_path / "run"),
    }
    # Created, never finished: what a kill between create_run and set_terminated leaves.
    client.create_run(experiment, tags=tags)
    # Another spec's grid writing the same experiment right now: its RUNNING run is left alone.
    other = {"shortcutlab.cell_id": half_logged, "shortcutlab.spec_hash": "another spec"}
    theirs = client.create_run(experiment, tags=other).info.run_id
    for _ in range(2):  # the resume, then a second resume with nothing to do
        report = run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
        assert report.skipped == 2 and report.done == 0
        runs = logged_runs(uri)
        assert runs.loc[runs["run_id"] == theirs, "status"].item() == "RUNNING"
        client.delete_run(theirs)
        assert_logged_once(uri, tmp_path / "run")
        client.restore_run(theirs)


def test_runs_another_tool_left_in_the_experiment_are_left_alone(tmp_path, spec):
    """Only runs tagged with a cell id are shortcutlab's: an unfinished run of the user's own
    is neither deleted nor counted as a cell."""
    uri = store_uri(tmp_path)
    client = mlflow.tracking.MlflowClient(uri)
    experiment = client.create_experiment("two-cells")
    theirs = client.create_run(experiment, run_name="a notebook's run").info.run_id
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    runs = logged_runs(uri)
    assert len(runs) == 3 and theirs in set(runs["run_id"])
    assert runs.loc[runs["run_id"] == theirs, "status"].item() == "RUNNING"
    assert sorted(runs["tags.shortcutlab.cell_id"].dropna()) == sorted(
        stored_cells(tmp_path / "run")
    )


def test_a_run_killed_inside_mlflows_file_writes_is_removed_on_resume(tmp_path, spec):
    """A kill -9 while MLflow's file store writes a metric leaves an empty metric file, and then
    no search of the experiment reads back; the run folder's journal names that run."""
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run")
    client = mlflow.tracking.MlflowClient(uri)
    experiment = client.create_experiment("two-cells")
    cell_id = sorted(stored_cells(tmp_path / "run"))[0]
    torn = client.create_run(experiment, tags={"shortcutlab.cell_id": cell_id}).info.run_id
    (tmp_path / "mlruns" / experiment / torn / "metrics" / "delta.accuracy").write_text("")
    with pytest.raises(ValueError, match="malformed"):
        logged_runs(uri)  # what the kill left: the experiment no longer reads back
    (tmp_path / "run" / ".tracking-pending.json").write_text(json.dumps({"runs": [torn]}))
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    cells = assert_logged_once(uri, tmp_path / "run")
    assert torn not in set(cells["run_id"])
    assert not (tmp_path / "run" / ".tracking-pending.json").exists()


@pytest.mark.slow
def test_the_spec_key_tracks_and_the_option_wins(tmp_path, spec):
    spec.write_text(TWO_CELLS + f"tracking: mlflow:{store_uri(tmp_path, 'from-spec')}\n")
    result = invoke("run", spec, "--out", tmp_path / "run")
    assert result.exit_code == 0, result.output
    assert len(logged_runs(store_uri(tmp_path, "from-spec"))) == 2
    other = store_uri(tmp_path, "from-option")
    result = invoke("run", spec, "--out", tmp_path / "run2", "--track", f"mlflow:{other}")
    assert result.exit_code == 0, result.output
    assert len(logged_runs(other)) == 2
    assert len(logged_runs(store_uri(tmp_path, "from-spec"))) == 2  # untouched


@pytest.mark.parametrize(
    ("track", "message"),
    [
        ("mlfow", "--track: Unknown tracker 'mlfow'. Did you mean 'mlflow'?"),
        ("mlflow:ftp://host/runs", "--track must be a URI the mlflow tracker takes: file:, "),
        ("mlflow:http://", "--track must be an http URI with a host. Got 'http://' instead."),
        ("mlflow:file:", "--track must be a file: URI with a folder"),
        ("", "--track must be a tracker name or NAME:URI"),
    ],
)
def test_a_bad_track_is_refused_before_anything_runs(tmp_path, spec, track, message):
    assert_refused(tmp_path, message, "run", spec, "--out", tmp_path / "run", "--track", track)


def test_a_bad_tracking_key_names_the_spec(tmp_path, spec):
    spec.write_text(TWO_CELLS + "tracking: 3\n")
    assert_refused(
        tmp_path,
        "The 'tracking' key in spec.yaml must be a tracker name or NAME:URI",
        "run",
        spec,
        "--out",
        tmp_path / "run",
    )


def test_without_mlflow_installed_the_option_says_how_to_install_it(tmp_path, spec, monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow.tracking", None)  # import mlflow.tracking fails
    result = invoke("run", spec, "--out", tmp_path / "run", "--track", "mlflow")
    assert_user_error(result, "--track mlflow needs MLflow. Install it with: pip install")
    assert not (tmp_path / "run").exists()


def test_mlflow_loads_only_for_a_tracked_run(tmp_path, spec):
    spec.write_text(TWO_CELLS + "tracking: mlflow\n")
    code = (
        "import sys, shortcutlab.cli.app\n"
        f"from shortcutlab.families import load_spec; load_spec({str(spec)!r})\n"
        "print('mlflow' in sys.modules)"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"


def test_an_mps_cell_logs_its_attribute_and_worst_group_metrics(tmp_path):
    from tests.families.mps.test_grid import write_spec

    spec = write_spec(tmp_path, seeds="[0]")
    uri = store_uri(tmp_path)
    run_experiment(spec, tmp_path / "run", track=f"mlflow:{uri}")
    cells = logged_runs(uri, experiment="tiny-mps")
    assert len(cells) == len(stored_cells(tmp_path / "run"))
    stored = stored_cells(tmp_path / "run")
    assert sorted(cells["tags.shortcutlab.cell_id"]) == sorted(stored)
    assert set(cells["params.family"]) == {"mps"}
    assert set(cells["params.shortcut"]) == {"negation", "question"}
    for _, logged in cells.iterrows():
        test = json.loads(stored[logged["tags.shortcutlab.cell_id"]][-1])["tests"]["test"]
        for name in ("w_acc_imbalanced", "w_acc_balanced", "delta_isolated", "zeta"):
            assert logged[f"metrics.tests.test.{name}"] == test[name]
        cross = "negation" if logged["params.shortcut"] == "question" else "question"
        # MLflow refuses '@' and '|' in a key: test@question is logged as test_question
        assert f"metrics.tests.test_{cross}.w_acc_balanced" in cells.columns
