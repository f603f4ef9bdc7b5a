"""A failed run leaves nothing that blocks the fix: numbers are checked when the spec is read, and
a fresh run folder that ends without a finished cell is removed, whatever stopped it."""

import errno
import math

import pytest
import yaml

from shortcutlab.engine.store import ResultStore
from shortcutlab.families import run_experiment
from tests.cli.refusals import assert_refused, invoke
from tests.families.cat.cat_data import write_pair_files

BIG = 99999999999999999999  # past SQLite's 64-bit integers
INT64 = "9223372036854775807"
MAZE = {
    "name": "grid",
    "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
    "shortcuts": ["single-term"],
    "strengths": [1.0, 0.5],
    "models": ["majority"],
    "seeds": [0],
    "bootstrap": 100,
}
MPS = {
    "family": "mps",
    "data": {"builtin": "reviews", "train_size": 400, "test_size": 100},
    "attributes": ["negation"],
    "models": ["majority"],
    "seeds": [0],
}
CAT = {
    "family": "cat",
    "data": {
        "train": "train.csv",
        "test": "test.csv",
        "text": "premise",
        "text_pair": "hypothesis",
    },
    "models": ["tfidf-logreg"],
    "seeds": [0],
}
SPECS = {"maze": MAZE, "mps": MPS, "cat": CAT}

HOSTILE = [
    (
        "maze",
        {"seeds": [BIG]},
        f"The 'seeds[0]' key in spec.yaml must be an integer in [0, {INT64}]. Got {BIG} instead.",
    ),
    (
        "maze",
        {"val_size": math.inf},
        "The 'val_size' key in spec.yaml must be 0, a fraction in (0, 1) or a row count in "
        f"[1, {INT64}]. Got inf instead.",
    ),
    ("maze", {"val_size": 1.5}, "The 'val_size' key in spec.yaml must be 0, a fraction in (0, 1)"),
    ("maze", {"build_seed": 2**63}, f"The 'build_seed' key in spec.yaml must be an integer in [0, {INT64}]"),
    ("maze", {"bootstrap": 10**7}, "The 'bootstrap' key in spec.yaml must be an integer in [100, 1000000]"),
    (
        "maze",
        {"data": {"builtin": "reviews", "train_size": 10**9}},
        "The 'train_size' key in spec.yaml: data must be an integer in [10, 10000000]",
    ),
    (
        "maze",
        {"models": [{"name": "majority", "resources": {"cpus": math.inf}}]},
        "The 'cpus' key in spec.yaml: models[0]: resources must be a number in (0, 1024]. Got inf",
    ),
    (
        "maze",
        {"models": [{"name": "majority", "resources": {"gpus": math.nan}}]},
        "The 'gpus' key in spec.yaml: models[0]: resources must be a number in [0, 1024]. Got nan",
    ),
    (
        "maze",
        {"models": [{"name": "tfidf-logreg", "C": math.inf}]},
        "The 'C' key in spec.yaml: models[0] must be a finite number. Got inf instead.",
    ),
    (
        "maze",
        {"shortcuts": [{"name": "single-term", "term": -BIG}]},
        "The 'term' key in spec.yaml: shortcuts[0] must be an integer in "
        f"[-9223372036854775808, {INT64}]. Got -{BIG} instead.",
    ),
    ("mps", {"seeds": [2**63]}, f"The 'seeds[0]' key in spec.yaml must be an integer in [0, {INT64}]"),
    ("mps", {"mps": {"size": BIG}}, f"The 'size' key in spec.yaml: mps must be an integer in [1, {INT64}]"),
    ("mps", {"min_group_size": BIG}, "The 'min_group_size' key in spec.yaml must be an integer in"),
    ("mps", {"mps": {"validation_size": math.nan}}, "The 'validation_size' key in spec.yaml: mps must be 0, a fraction"),
    ("mps", {"mps": {"dominance": math.inf}}, "The 'dominance' key in spec.yaml: mps must be a number in (0, 1]. Got inf"),
    ("cat", {"cat": {"k": BIG}}, f"The 'k' key in spec.yaml: cat must be an integer in [1, {INT64}]"),
    ("cat", {"seeds": [BIG]}, f"The 'seeds[0]' key in spec.yaml must be an integer in [0, {INT64}]"),
]  # fmt: skip


def _write_spec(folder, family, changes, name="spec.yaml"):
    if family == "cat":
        write_pair_files(folder)
    (folder / name).write_text(yaml.safe_dump({**SPECS[family], **changes}))
    return folder / name


@pytest.mark.parametrize("family, changes, message", HOSTILE, ids=lambda v: str(v)[:40])
def test_each_number_out_of_range_is_refused_when_the_spec_is_read(
    tmp_path, family, changes, message
):
    spec = _write_spec(tmp_path, family, changes)
    assert_refused(tmp_path, message, "run", spec, "--out", tmp_path / "run")


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("given", ["missing", "empty"])
def test_a_fresh_run_failing_on_anything_leaves_nothing_and_the_fixed_spec_runs(
    tmp_path, monkeypatch, given
):
    run = tmp_path / "run"
    if given == "empty":
        run.mkdir()
    spec = _write_spec(tmp_path, "maze", {})
    monkeypatch.setattr("shortcutlab.families.maze.runner.build_benchmark", _full_disk)
    result = invoke("run", spec, "--out", run)
    assert result.exit_code != 0
    # The folder is as it was: absent, or the empty folder given.
    assert (not run.exists()) if given == "missing" else list(run.iterdir()) == []
    monkeypatch.undo()
    fixed = _write_spec(tmp_path, "maze", {"seeds": [0, 1]}, "fixed.yaml")
    result = invoke("run", fixed, "--out", run)  # no --force: nothing of the failed run is left
    assert result.exit_code == 0, result.output
    assert "4 cells done, 0 already finished" in result.output


def test_an_interrupted_fresh_run_keeps_its_finished_cells_to_resume(tmp_path, monkeypatch):
    record = ResultStore.record
    calls = []

    def record_then_stop(store, records):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        record(store, records)

    monkeypatch.setattr(ResultStore, "record", record_then_stop)
    spec = _write_spec(tmp_path, "maze", {"seeds": [0, 1]})
    with pytest.raises(KeyboardInterrupt):
        run_experiment(spec, tmp_path / "run")
    monkeypatch.undo()
    report = run_experiment(spec, tmp_path / "run")
    # The first fit's two cells (majority shares its fit across seeds) came before Ctrl-C.
    assert (report.skipped, report.done) == (2, 2)


def test_an_interrupted_fresh_run_without_finished_cells_leaves_nothing(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("shortcutlab.families.maze.runner.build_benchmark", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(_write_spec(tmp_path, "maze", {}), tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_a_store_without_finished_cells_does_not_block_another_spec(tmp_path):
    """What a fresh run killed (kill -9) before its first cell leaves: a store and no results."""
    run = tmp_path / "run"
    run.mkdir()
    with ResultStore(run / "results.sqlite") as store:
        store.write_spec({"name": "killed"}, "0" * 64, ["a-cell"])
    result = invoke("run", _write_spec(tmp_path, "maze", {}), "--out", run)
    assert result.exit_code == 0, result.output
