"""``shortcutlab explain`` on the command line: a benchmark folder, a run folder, and every bad
input refused in one line with exit code 2 and nothing written."""

from __future__ import annotations

import io
import json
import shutil

import pandas as pd
import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.families import parse_spec, run_experiment
from shortcutlab.families.maze.build import build_maze_benchmark
from tests.cli.refusals import assert_refused, invoke
from tests.explain.conftest import short_reviews


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("run")
    for name, seed, n in (("train", 0, 60), ("test", 1, 30)):
        short_reviews(n, seed=seed).to_csv(root / f"{name}.csv", index=False)
    spec = parse_spec(
        {
            "name": "explain",
            "data": {
                "name": "short",
                "train": str(root / "train.csv"),
                "test": str(root / "test.csv"),
            },
            "shortcuts": ["single-term"],
            "strengths": [1.0],
            "models": [{"name": "tfidf-logreg", "id": "linear", "C": 5.0}],
            "seeds": [0],
            "val_size": 0.2,
            "bootstrap": 100,
        }
    )
    run_experiment(spec, root / "out")
    return root / "out"


def test_a_benchmark_folder_prints_table_4_and_the_checks(cue_build, tmp_path):
    result = invoke(
        "explain", cue_build, "--model", "tfidf-logreg", "--rows", "6", "--out", tmp_path / "x"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert (
        lines[0].startswith("tfidf-logreg (fit seed 0) on ")
        and "6 test rows carrying the cue (of 45)" in lines[0]
    )
    assert (
        "Mean SHAP per label (Maze Table 4)" in result.stdout
        and "Mean |SHAP| per label" in result.stdout
    )
    written = json.loads((tmp_path / "x" / "results.json").read_text())
    erm = written["methods"]["erm"]
    assert f"cue tokens' mean |SHAP| {erm['mean_abs_shap']['cue']:.4f}" in result.stdout
    assert (
        f"occlusion agrees in sign with SHAP on {100 * erm['sign_agreement']['share']:.0f} % of 6 rows"
        in result.stdout
    )
    assert (
        "seconds per row: SHAP" in result.stdout
        and lines[-1] == f"Wrote {tmp_path / 'x' / 'results.json'}"
    )


def test_csv_stacks_both_token_tables_and_sends_the_rest_to_stderr(cue_build, tmp_path):
    out = tmp_path / "x"
    args = ("explain", cue_build, "--model", "tfidf-logreg", "--rows", "6", "--out", out)
    result = invoke(*args, "--format", "csv")
    assert result.exit_code == 0, result.output
    tidy = pd.read_csv(io.StringIO(result.stdout))
    assert list(tidy.columns[:4]) == ["table", "method", "tokens", "count"]
    written = json.loads((out / "results.json").read_text())
    label = str(written["labels"][0])
    expected = written["methods"]["erm"]["table_abs"]["others"]
    others = tidy.set_index(["table", "method", "tokens"]).loc[
        ("Mean |SHAP| per label", "erm", "others")
    ]
    assert others["count"] == expected["count"]
    assert others[label] == pytest.approx(expected[written["labels"][0]])
    assert "carrying the cue" in result.stderr and "cue tokens' mean |SHAP|" in result.stderr


def test_a_run_folder_refits_the_cell_on_its_benchmark(run_folder, tmp_path):
    result = invoke(
        "explain", run_folder, "--model", "linear", "--rows", "5", "--out", tmp_path / "run"
    )
    assert result.exit_code == 0, result.output
    from_run = json.loads((tmp_path / "run" / "results.json").read_text())
    assert from_run["source"]["kind"] == "run" and from_run["source"]["model_id"] == "linear"
    assert from_run["config"]["params"] == {"C": 5.0} and from_run["config"]["fit_seed"] == 0
    # The same as explaining the run's build folder with the cell's model and parameters.
    (build,) = (run_folder / "benchmarks").iterdir()
    direct = invoke(
        "explain",
        build,
        "--model",
        "tfidf-logreg",
        "-p",
        "C=5",
        "--rows",
        "5",
        "--out",
        tmp_path / "b",
    )
    assert direct.exit_code == 0, direct.output
    from_build = json.loads((tmp_path / "b" / "results.json").read_text())
    assert from_run["methods"] == from_build["methods"] and from_run["rows"] == from_build["rows"]


def _style_build(folder):
    build_maze_benchmark(
        short_reviews(20, 0),
        short_reviews(10, 1),
        shortcut="register",
        inputs=InputOptions(out=folder),
    )


def test_bad_inputs_are_one_line_errors_and_write_nothing(cue_build, run_folder, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(cue_build, work / "bench")
    _style_build(work / "style")
    mps = work / "mps"
    shutil.copytree(cue_build, mps)
    manifest = json.loads((mps / "manifest.json").read_text())
    (mps / "manifest.json").write_text(json.dumps({**manifest, "kind": "mps"}))
    out = work / "out"
    bench = work / "bench"
    cases = [
        (
            (bench, "--model", "tfidf-logrge"),
            "Unknown model 'tfidf-logrge'. Did you mean 'tfidf-logreg'",
        ),
        (
            (bench, "--model", "tfidf-logreg", "--split", "original_test"),
            "No original_test row carries a recorded cue",
        ),
        ((bench, "--model", "tfidf-logreg", "--split", "dev"), "The benchmark has no split 'dev'"),
        ((work / "style", "--model", "tfidf-logreg"), "The register shortcut rewrites whole texts"),
        (
            (mps, "--model", "tfidf-logreg"),
            "explain needs a Shortcut Maze build with an inserted cue",
        ),
        ((work / "nothing", "--model", "tfidf-logreg"), "is neither a benchmark folder"),
        (
            (bench, "--model", "tfidf-logreg", "--rows", "0"),
            "'rows' parameter of explain must be a positive integer",
        ),
        (
            (bench, "--model", "tfidf-logreg", "--max-evals", "2"),
            "'max_evals' parameter of explain",
        ),
        ((bench, "--model", "tfidf-logreg", "--mitigation", "nope"), "Unknown mitigation 'nope'"),
        (
            (bench, "--model", "tfidf-logreg", "--benchmark", "x"),
            "--benchmark picks a build inside a run folder",
        ),
    ]
    for args, message in cases:
        assert_refused(work, message, "explain", *args, "--out", out)
    (out / "kept.txt").parent.mkdir()
    (out / "kept.txt").write_text("mine")
    assert_refused(
        work, "exists and is not empty", "explain", bench, "--model", "tfidf-logreg", "--out", out
    )


def test_run_folder_refusals_name_what_the_run_holds(run_folder, tmp_path):
    watched = tmp_path / "w"
    shutil.copytree(run_folder, watched / "run")
    run = watched / "run"
    out = watched / "out"
    for args, message in [
        (
            ("--model", "tfidf-logreg"),
            "The run has no model 'tfidf-logreg'; its model ids: linear.",
        ),
        (("--model", "linear", "--seed", "3"), "The run has no seed 3 for linear; its seeds: 0."),
        (
            ("--model", "linear", "-p", "C=1"),
            "--param applies to a benchmark; a run folder's cell brings",
        ),
        (
            ("--model", "linear", "--benchmark", "other"),
            "The run has no benchmark 'other' for linear seed 0",
        ),
    ]:
        assert_refused(watched, message, "explain", run, *args, "--out", out)
