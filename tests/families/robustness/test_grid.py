"""A robustness grid through the engine and the CLI: every cell equals one build's evaluation on
the build the run wrote, a second run resumes with nothing left to do, and results and report
show the per-class table."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from shortcutlab import evaluate_robustness
from shortcutlab.cli.app import app
from tests.reports.tidy_columns import assert_explained

runner = CliRunner()


def write_spec(folder: Path, files: dict[str, Path]) -> Path:
    spec = folder / "grid.yaml"
    spec.write_text(
        "family: robustness\nname: rgrid\n"
        f"data: {{name: reviews, train: {files['train']}, test: {files['test']}, "
        "labels: [neg, pos]}\n"
        "models: [tfidf-logreg, majority]\n"
        "perturbations: [case-upper, {typos-swap: {rate: 0.1}}]\n"
        "seeds: [0, 1]\nbootstrap: 200\n",
        encoding="utf-8",
    )
    return spec


def test_a_grid_runs_resumes_and_matches_one_build_evaluations(review_files, tmp_path):
    spec, run = write_spec(tmp_path, review_files), tmp_path / "run"
    first = runner.invoke(app, ["run", str(spec), "--out", str(run), "--jobs", "1"])
    assert first.exit_code == 0, first.output
    assert "8 cells done" in first.stdout
    again = runner.invoke(app, ["run", str(spec), "--out", str(run), "--jobs", "1"])
    assert again.exit_code == 0 and "0 cells done, 8 already finished" in again.stdout

    tidy = runner.invoke(app, ["results", str(run), "--format", "csv"])
    assert tidy.exit_code == 0, tidy.output
    table = pd.read_csv(io.StringIO(tidy.stdout))
    assert_explained(table)
    builds = sorted((run / "benchmarks").iterdir())
    assert [b.name for b in builds] == ["reviews-seed0", "reviews-seed1"]
    alone = evaluate_robustness(builds[1], model="tfidf-logreg", seed=1, bootstrap=200)
    expected = alone.to_pandas()
    chosen = table[(table["model"] == "tfidf-logreg") & (table["seed"] == 1)]
    for metric in ("accuracy_drop", "flip_rate", "accuracy_perturbed"):
        ours = chosen[(chosen["split"] == "typos-swap") & (chosen["metric"] == metric)].iloc[0]
        theirs = expected[(expected["split"] == "typos-swap") & (expected["metric"] == metric)]
        assert ours["estimate"] == pytest.approx(theirs["estimate"].iloc[0], abs=1e-12)
        assert ours["p_adjusted"] == pytest.approx(theirs["p_adjusted"].iloc[0], nan_ok=True)

    shown = runner.invoke(app, ["results", str(run)])
    assert "Per perturbation class" in shown.stdout and "typos-swap" in shown.stdout
    reported = runner.invoke(app, ["report", str(run)])
    assert reported.exit_code == 0, reported.output
    page = (run / "report.html").read_text(encoding="utf-8")
    assert "Perturbation robustness" in page and "Rows whose prediction flipped" in page


@pytest.mark.slow
def test_a_grid_on_ray_tracked_in_mlflow_shows_what_the_local_run_shows(
    review_files, tmp_path, monkeypatch
):
    pytest.importorskip("ray")
    mlflow = pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    spec, uri = write_spec(tmp_path, review_files), (tmp_path / "mlruns").as_uri()
    tables = {}
    for name, extra in {
        "local": ["--jobs", "1"],
        "ray": ["--executor", "ray", "--jobs", "2", "--track", f"mlflow:{uri}"],
    }.items():
        done = runner.invoke(app, ["run", str(spec), "--out", str(tmp_path / name), *extra])
        assert done.exit_code == 0, done.output
        tidy = runner.invoke(app, ["results", str(tmp_path / name), "--format", "csv"])
        tables[name] = tidy.stdout
    assert tables["ray"] == tables["local"]  # in spec order, whichever worker finished first
    table = pd.read_csv(io.StringIO(tables["local"]))
    drops = table[table["metric"] == "accuracy_drop"]
    mlflow.set_tracking_uri(uri)
    try:
        logged = mlflow.search_runs(experiment_names=["rgrid"])
    finally:
        mlflow.set_tracking_uri(None)
    assert len(logged) == len(drops) == 8
    key = ["params.model", "params.seed", "params.shortcut"]  # the store's column for the class
    logged = logged.assign(**{"params.seed": logged["params.seed"].astype(int)}).sort_values(key)
    drops = drops.sort_values(["model", "seed", "split"])
    assert logged["params.shortcut"].tolist() == drops["split"].tolist()
    assert logged["metrics.drop"].tolist() == pytest.approx(drops["estimate"].tolist())
