"""Group statistics stored by the run and read by ``results`` and ``report``: the same bytes as
computed afresh, recomputed when a cell or ``--bootstrap`` changes, filled in on resume or by the
first reader of a folder that lacks them; the report's figures drawn once, then read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.stored_groups import StoredGroup
from shortcutlab.families import load_results, parse_spec, run_experiment
from tests.engine import stored_groups_helpers as stored

SPEC = {
    "name": "stored-groups",
    "data": {"builtin": "reviews", "train_size": 400, "test_size": 300},
    "shortcuts": ["single-term"],
    "strengths": [1.0, 0.6],
    "models": [{"name": "tfidf-logreg"}, {"name": "tfidf-svm", "id": "svm", "cv": 2}],
    "seeds": [0, 1],
    "bootstrap": 200,
}
GROUPS = 4  # 2 strengths x 2 models, each over 2 seeds
BOUND = "delta_accuracy_ci_low"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stored-groups") / "run"
    assert run_experiment(parse_spec(SPEC), out).failed == 0
    return out


def test_a_finished_run_stores_the_statistics_of_every_group(finished):
    rows = stored.rows(finished)
    assert len(rows) == GROUPS
    assert sorted(len(ids) for ids, _ in rows.values()) == [2] * GROUPS  # both seeds
    loaded = load_results(finished)
    assert sorted(json.loads(key)[1] for key in rows) == sorted(loaded.groups["model"])


@pytest.mark.slow
def test_stored_and_fresh_statistics_write_the_same_bytes(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    from_store = stored.written(run, tmp_path / "stored")
    stored.sql(run, "DROP TABLE group_statistics")  # a run folder written before the table existed
    computed = stored.written(run, tmp_path / "computed")
    assert {"groups.csv", "report.html"} <= set(from_store)
    assert computed == from_store
    # The first reader stored what it computed: the rows the run stores itself.
    assert stored.rows(run) == stored.rows(finished)


def test_a_reader_stores_nothing_when_another_connection_wrote_meanwhile(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    stored.sql(run, "DELETE FROM group_statistics")
    with ResultStore.for_run(run) as store:
        read_at = store.data_version()
        stored.sql(run, "INSERT INTO meta VALUES ('another', 'writer')")
        groups = [StoredGroup("[]", ("cell",), {}, {})]
        assert not store.save_group_statistics("maze", groups, read_at=read_at)
        assert store.save_group_statistics("maze", groups, read_at=store.data_version())
    assert list(stored.rows(run)) == ["[]"]


def test_another_bootstrap_is_not_stored_in_place_of_the_runs_rows(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    stored.sql(run, "DELETE FROM group_statistics")
    load_results(run, bootstrap=50)
    assert stored.rows(run) == {}
    load_results(run)
    assert stored.rows(run) == stored.rows(finished)


@pytest.mark.slow
def test_the_report_draws_its_figures_once_and_then_reads_them(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    first = stored.written(run, tmp_path / "first")["report.html"]
    assert stored.written(run, tmp_path / "second")["report.html"] == first
    figures = stored.figures(run)
    assert len(figures) == 2  # accuracy and macro-F1 against λ
    stored.sql(run, "UPDATE figures SET markup = '<svg>stored</svg>'")
    assert b"<svg>stored</svg>" in stored.written(run, tmp_path / "read")["report.html"]


def test_the_stored_row_is_what_results_shows_while_it_holds(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    stored.tamper_first_group(run, BOUND)
    assert stored.SENTINEL in load_results(run).groups[BOUND].tolist()


def test_another_bootstrap_recomputes_instead_of_serving_the_stored_rows(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    stored.tamper_first_group(run, BOUND)
    assert stored.SENTINEL not in load_results(run, bootstrap=50).groups[BOUND].tolist()
    served = stored.tables(run, tmp_path / "served", "--bootstrap", "50")
    stored.sql(run, "DROP TABLE group_statistics")
    assert stored.tables(run, tmp_path / "computed", "--bootstrap", "50") == served


def test_a_cell_run_again_replaces_the_row_of_its_group(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    key = stored.tamper_first_group(run, BOUND)
    cell_ids, _ = stored.rows(run)[key]
    stored.sql(
        run, f"DELETE FROM cells WHERE cell_id = '{cell_ids[-1]}'"
    )  # as if it never finished
    report = run_experiment(parse_spec(SPEC), run)
    assert (report.done, report.skipped) == (1, 2 * GROUPS - 1)
    assert stored.rows(run) == stored.rows(finished)  # the tampered row dropped, recomputed
    assert stored.SENTINEL not in load_results(run).groups[BOUND].tolist()


def test_a_resumed_run_fills_in_the_rows_a_folder_lacks(finished, tmp_path):
    run = stored.copy(finished, tmp_path)
    stored.sql(
        run, "DROP TABLE group_statistics"
    )  # an older store, or a run killed before its rows
    report = run_experiment(parse_spec(SPEC), run)
    assert (report.done, report.skipped) == (0, 2 * GROUPS)
    assert stored.rows(run) == stored.rows(finished)
