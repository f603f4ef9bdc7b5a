"""Build folders of killed processes are removed by the next build or run; those in flight stay."""

import os
import subprocess
import sys

from shortcutlab.data.partials import remove_stale_partials
from shortcutlab.data.writing import atomic_output_dir
from shortcutlab.families import run_experiment
from tests.cli.refusals import invoke


def _ended_pid():
    """The PID of a process that has ended."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _plant(parent, name, pid):
    folder = parent / f".{name}.{pid}.ab1_cd2e.partial"
    folder.mkdir(parents=True)
    (folder / "train.csv").write_text("text,label\n")
    return folder


def test_the_build_folder_is_named_after_its_process(tmp_path):
    with atomic_output_dir(tmp_path / "out") as building:
        assert building.name.startswith(f".out.{os.getpid()}.")
        assert building.name.endswith(".partial")
        assert remove_stale_partials(tmp_path, "out") == []  # in flight: kept


def test_a_build_removes_the_folders_killed_builds_left(tmp_path, corpus_files):
    dead = _ended_pid()
    stale = _plant(tmp_path, "out", dead)
    in_flight = _plant(tmp_path, "out", os.getpid())
    other_output = _plant(tmp_path, "out.v2", dead)  # another output's: not this build's to judge
    result = invoke(
        "build", "maze", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--shortcut", "single-term", "--strength", "1", "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert in_flight.exists() and other_output.exists()
    assert (tmp_path / "out" / "manifest.json").exists()


def test_a_run_removes_the_build_folders_a_killed_run_left(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "data: {builtin: reviews, train_size: 200, test_size: 100}\n"
        "shortcuts: [single-term]\nstrengths: [1.0]\nmodels: [majority]\nseeds: [0]\n"
    )
    run = tmp_path / "run"
    run_experiment(spec, run)
    stale = _plant(run / "benchmarks", "reviews-single-term-l1-x", _ended_pid())
    in_flight = _plant(run / "benchmarks", "reviews-single-term-l1-y", os.getpid())
    report = run_experiment(spec, run)
    assert report.skipped == 1
    assert not stale.exists() and in_flight.exists()
