"""An MPS run killed with SIGKILL mid-run resumes to exactly the uninterrupted tables."""

import sqlite3

import pytest

from shortcutlab.families import run_experiment
from tests.engine.test_kill_resume import run_and_kill
from tests.families.mps.test_grid import results_text, write_spec


@pytest.mark.slow
def test_mps_run_killed_then_resumed_gives_the_clean_tables(tmp_path):
    spec = write_spec(tmp_path, seeds="[0, 1, 2]")
    run = tmp_path / "run"
    run_and_kill(spec, run, after_cells=2)
    with sqlite3.connect(run / "results.sqlite") as db:
        done = db.execute("SELECT count(*) FROM cells").fetchone()[0]
        partial = db.execute(
            "SELECT count(*) FROM cells c WHERE (SELECT count(*) FROM predictions p "
            "WHERE p.cell_id = c.cell_id) != 4"
        ).fetchone()[0]
    assert 2 <= done < 6, "the kill should land mid-run"
    assert partial == 0  # every stored cell has its four predictions (2 fits x 2 test sets)
    report = run_experiment(spec, run)
    assert report.skipped == done and report.done == 6 - done
    run_experiment(spec, tmp_path / "clean")
    assert results_text(run) == results_text(tmp_path / "clean")
