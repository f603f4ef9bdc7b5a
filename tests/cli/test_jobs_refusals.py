"""--jobs 0 is refused as --jobs -1 is (it ran with one worker), by every command with --jobs and
by the Python API; the refusal is the one Error: line (a run's progress bar printed a blank line
before it)."""

from __future__ import annotations

import pytest

from shortcutlab.engine.executors import LocalExecutor, make_executor
from shortcutlab.errors import ConfigError
from shortcutlab.families import run_experiment
from tests.cli.refusals import TINY_GRID, assert_refused


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_run_refuses_a_number_of_workers_below_one(tmp_path, jobs):
    (tmp_path / "spec.yaml").write_text(TINY_GRID)
    message = f"The number of workers must be a positive integer; --jobs {jobs} is not one."
    assert_refused(tmp_path, message, "run", tmp_path / "spec.yaml", "--out", tmp_path / "run",
                   "--jobs", jobs)  # fmt: skip
    assert_refused(tmp_path, message, "run", tmp_path / "spec.yaml", "--out", tmp_path / "run",
                   "--jobs", jobs, "--executor", "ray")  # fmt: skip


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_demo_refuses_a_number_of_workers_below_one(tmp_path, jobs):
    message = f"--jobs {jobs} is not one. Pass e.g. --jobs 2."
    assert_refused(tmp_path, message, "demo", "--out", tmp_path / "demo", "--jobs", jobs)


def test_the_python_api_refuses_zero_workers_naming_its_parameter(tmp_path):
    (tmp_path / "spec.yaml").write_text(TINY_GRID)
    expected = "The number of workers must be a positive integer; jobs=0 is not one"
    with pytest.raises(ConfigError, match=expected):
        run_experiment(tmp_path / "spec.yaml", tmp_path / "run", jobs=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]
    for make in (lambda: make_executor("local", jobs=0), lambda: LocalExecutor(jobs=0)):
        with pytest.raises(ConfigError, match=expected):
            make()
    assert make_executor("local").jobs == 1  # no --jobs: one worker
