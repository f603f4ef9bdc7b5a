"""A run killed with SIGKILL at an arbitrary point resumes to exactly the uninterrupted results."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shortcutlab.families import run_experiment
from tests.engine.test_runner import results_text

SPEC = """
name: killable
data: {builtin: reviews, train_size: 1500, test_size: 600}
shortcuts: [single-term, synonym, category]
strengths: [1.0, 0.6]
models: [{name: tfidf-svm, cv: 2}]
seeds: [0, 1, 2]
bootstrap: 200
"""


def _done(database):
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(database, timeout=1) as db:
            return db.execute("SELECT count(*) FROM cells WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def children(pid):
    """Process ids whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def run_and_kill(spec, run, *, after_cells, extra=(), launcher=("-m", "shortcutlab")):
    """Start 'shortcutlab run' in a subprocess and SIGKILL it once ``after_cells`` cells are
    stored; returns the process ids of its children (pool workers) at that moment. ``launcher``
    starts the CLI (a test module that registers test components first, say)."""
    command = [sys.executable, *launcher, "run", str(spec), "--out", str(run), *extra]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while (
        _done(run / "results.sqlite") < after_cells
        and process.poll() is None
        and time.monotonic() < deadline
    ):
        time.sleep(0.05)
    workers = children(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    return workers


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The results of SPEC run without a kill: what every resumed run must give (run once for
    the module, not once per test)."""
    folder = tmp_path_factory.mktemp("uninterrupted")
    (folder / "spec.yaml").write_text(SPEC)
    run_experiment(folder / "spec.yaml", folder / "clean")
    return results_text(folder / "clean")


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_kill_nine_then_resume(tmp_path, jobs, uninterrupted):
    (tmp_path / "spec.yaml").write_text(SPEC)
    run = tmp_path / "run"
    workers = run_and_kill(tmp_path / "spec.yaml", run, after_cells=3, extra=["--jobs", jobs])
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [w for w in workers if alive(w)], "pool workers outlived their killed coordinator"
    with sqlite3.connect(run / "results.sqlite") as db:
        done = db.execute("SELECT count(*) FROM cells").fetchone()[0]
        orphans = db.execute(
            "SELECT count(*) FROM predictions WHERE cell_id NOT IN (SELECT cell_id FROM cells)"
        ).fetchone()[0]
        partial = db.execute(
            "SELECT count(*) FROM cells c WHERE (SELECT count(*) FROM predictions p WHERE p.cell_id = c.cell_id) != 3"
        ).fetchone()[0]
    assert 3 <= done < 18, "the kill should land mid-run"
    assert orphans == 0 and partial == 0
    report = run_experiment(tmp_path / "spec.yaml", run)
    assert report.skipped == done and report.done == 18 - done
    assert results_text(run) == uninterrupted
