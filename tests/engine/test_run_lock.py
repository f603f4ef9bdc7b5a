"""One run per run folder at a time: a second run, and readers, answer with the lock's holder."""

import errno
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from shortcutlab.engine.run_lock import LOCK_FILE, check_not_in_use, run_folder_lock
from shortcutlab.errors import FolderInUseError, ShortcutlabWarning
from tests.cli.refusals import assert_user_error, invoke

GATED_SPEC = """
name: gated
data: {{builtin: reviews, train_size: 200, test_size: 100}}
shortcuts: [single-term]
strengths: [1.0, 0.5]
models: [{{name: test-gated, gate: '{gate}'}}]
seeds: [0]
bootstrap: 100
"""
LAUNCHER = (sys.executable, "-m", "tests.engine.gated_run")


def _start_run(spec, run):
    return subprocess.Popen(
        [*LAUNCHER, "run", str(spec), "--out", str(run)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_until_locked(run, process):
    """Until a run in another process holds ``run``'s lock (its record written)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        try:
            check_not_in_use(run)
        except FolderInUseError as error:
            if f"PID {process.pid} " in str(error):
                return
        time.sleep(0.05)
    raise AssertionError(f"the first run never held the lock: {process.communicate()}")


@pytest.fixture
def run_in_flight(tmp_path):
    """A gated run holding its folder's lock; the test opens the gate to let it finish."""
    gate = tmp_path / "gate"
    (tmp_path / "spec.yaml").write_text(GATED_SPEC.format(gate=gate))
    run = tmp_path / "run"
    first = _start_run(tmp_path / "spec.yaml", run)
    try:
        _wait_until_locked(run, first)
        yield run, first, gate
    finally:
        gate.touch()
        first.wait(timeout=120)


@pytest.mark.slow
def test_a_second_run_on_a_locked_folder_is_refused_and_the_first_finishes(run_in_flight):
    run, first, gate = run_in_flight
    second = subprocess.run(
        [*LAUNCHER, "run", str(run.parent / "spec.yaml"), "--out", str(run)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = second.stderr.strip().splitlines()
    assert second.returncode == 2, second.stderr
    assert len(lines) == 1 and "Traceback" not in second.stderr, second.stderr
    assert lines[0].startswith(f"Error: The run folder '{run}' is in use: a run holds its lock")
    assert f"PID {first.pid} on host " in lines[0] and ", started 20" in lines[0]
    assert "Wait until it finishes" in lines[0]
    gate.touch()
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    with sqlite3.connect(run / "results.sqlite") as db:
        done = db.execute("SELECT count(*) FROM cells WHERE status = 'done'").fetchone()[0]
    assert done == 2  # both cells of the first run, nothing lost to the second
    assert not (run / LOCK_FILE).exists()  # the lock file goes with the run
    assert not list((run / "benchmarks").glob(".*.partial"))


@pytest.mark.slow
def test_results_and_report_on_a_folder_being_written_name_the_holder(run_in_flight):
    run, first, _ = run_in_flight
    for command in (["results", run], ["report", run]):
        result = invoke(*command)
        assert_user_error(result, f"The run folder '{run}' is in use: a run holds its lock")
        assert f"PID {first.pid} on host " in result.stderr
        assert "Wait until that run finishes (or stop it), then read its results." in result.stderr
    assert not (run / "report.html").exists() and not (run / "figures").exists()


def test_the_lock_is_held_for_its_block_and_released_after(tmp_path):
    run = tmp_path / "run"
    with run_folder_lock(run) as created:
        assert created and (run / LOCK_FILE).exists()
        check_not_in_use(run)  # this process's own run may read its folder
        holder = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; "
                "from shortcutlab.engine.run_lock import check_not_in_use; "
                "check_not_in_use(Path(sys.argv[1]))",
                str(run),
            ],
            capture_output=True,
            text=True,
        )
        assert f"FolderInUseError: The run folder '{run}' is in use" in holder.stderr
        assert f"PID {os.getpid()} on host" in holder.stderr
    assert not (run / LOCK_FILE).exists()
    check_not_in_use(run)
    with run_folder_lock(run) as created:  # taken again, on the existing folder
        assert not created


def test_a_file_system_without_locks_warns_and_runs(tmp_path, monkeypatch):
    def no_locks(descriptor, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr("shortcutlab.engine.run_lock.fcntl.flock", no_locks)
    run = tmp_path / "run"
    with pytest.warns(ShortcutlabWarning, match="cannot lock files .* one run at a time"):
        with run_folder_lock(run) as created:
            assert created
            check_not_in_use(run)  # nobody can hold a lock there: readers read
