"""A grid with mitigations stores each setting's comparisons with erm: ``results`` and ``report``
write the same bytes from them as computed afresh, and another ``--bootstrap`` recomputes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from shortcutlab.engine.store import DATABASE
from shortcutlab.families import load_results, parse_spec, run_experiment
from tests.engine import stored_groups_helpers as stored
from tests.families.maze.mitigation_doubles import registered
from tests.families.maze.test_mitigation_grid import BASE

MITIGATIONS = ["erm", "test-downsample", {"name": "test-plain-copy", "id": "copy"}]
BOUND = "delta_change_accuracy_ci_low"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with registered():  # the test mitigations, for this module's tests only
        out = tmp_path_factory.mktemp("stored-comparisons") / "run"
        assert run_experiment(parse_spec({**BASE, "mitigations": MITIGATIONS}), out).failed == 0
        yield out


def tamper_comparisons(run: Path) -> None:
    """Store the sentinel as the first stored comparison's interval bound."""
    with sqlite3.connect(run / DATABASE) as db:
        key, text = db.execute(
            "SELECT group_key, statistics FROM group_statistics WHERE family = 'maze-vs-erm'"
        ).fetchone()
        statistics = json.loads(text)
        statistics["rows"][0][BOUND] = stored.SENTINEL
        db.execute(
            "UPDATE group_statistics SET statistics = ? WHERE family = 'maze-vs-erm' AND "
            "group_key = ?",
            (json.dumps(statistics), key),
        )


def test_the_run_stores_the_setting_s_comparisons_with_erm(finished):
    (cell_ids, statistics), *others = stored.rows(finished, "maze-vs-erm").values()
    assert not others and len(cell_ids) == 3 * 2  # every method's seeds in the one setting
    assert [row["mitigation"] for row in json.loads(statistics)["rows"]] == [
        "test-downsample",
        "copy",
    ]


@pytest.mark.slow
def test_stored_and_fresh_comparisons_write_the_same_bytes(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    with registered():
        from_store = stored.written(run, tmp_path / "stored")
        stored.sql(run, "DROP TABLE group_statistics")
        assert stored.written(run, tmp_path / "computed") == from_store


def test_stored_comparisons_are_served_unless_another_bootstrap_is_asked(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    tamper_comparisons(run)
    with registered():
        assert stored.SENTINEL in load_results(run).comparisons[BOUND].tolist()
        assert stored.SENTINEL not in load_results(run, bootstrap=50).comparisons[BOUND].tolist()
