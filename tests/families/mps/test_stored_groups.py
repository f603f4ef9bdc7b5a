"""An MPS run stores its group statistics too: ``results`` and ``report`` write the same bytes
from them as computed afresh, and another ``--bootstrap`` recomputes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shortcutlab.families import load_results, run_experiment
from tests.engine import stored_groups_helpers as stored
from tests.families.mps.test_grid import write_spec

BOUND = "delta_isolated_ci_low"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mps-stored")
    assert run_experiment(write_spec(folder), folder / "run").failed == 0
    return folder / "run"


def test_every_group_is_stored_with_both_seeds(finished):
    rows = stored.rows(finished)
    assert sorted(json.loads(key)[1] for key in rows) == ["negation", "question"]
    assert [len(ids) for ids, _ in rows.values()] == [2, 2]


@pytest.mark.slow
def test_stored_and_fresh_statistics_write_the_same_bytes(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    from_store = stored.written(run, tmp_path / "stored")
    stored.sql(run, "DROP TABLE group_statistics")
    assert stored.written(run, tmp_path / "computed") == from_store


@pytest.mark.slow
def test_the_stored_row_is_served_unless_another_bootstrap_is_asked(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    stored.tamper_first_group(run, BOUND)
    assert stored.SENTINEL in load_results(run).groups[BOUND].tolist()
    assert stored.SENTINEL not in load_results(run, bootstrap=50).groups[BOUND].tolist()
    served = stored.tables(run, tmp_path / "served", "--bootstrap", "50")
    stored.sql(run, "DROP TABLE group_statistics")
    assert stored.tables(run, tmp_path / "computed", "--bootstrap", "50") == served
