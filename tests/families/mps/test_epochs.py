"""average_last_epochs: each of the last N epochs' predictions is stored and the metrics are
their mean (paper 002 §3 trains 10 epochs and averages the last five)."""

import sqlite3

import numpy as np
import pytest

from shortcutlab.families import load_results, run_experiment
from shortcutlab.families.mps import export as mps_report
from tests.families.mps.test_grid import SPEC, _predicted, _stored, _w_acc, write_spec

EPOCH_SPEC = SPEC.replace(
    "attributes: [negation, question]", "attributes: [negation]\ncross_test: false"
).replace(
    "models: [{{name: tfidf-svm, cv: 2}}]",
    "models: [{{name: bow-mlp, epochs: 3, min_count: 1, average_last_epochs: 2}}]",
)


def test_the_last_epochs_are_stored_and_averaged(tmp_path):
    spec = write_spec(tmp_path, seeds="[0]", text=EPOCH_SPEC)
    report = run_experiment(spec, tmp_path / "run")
    assert report.done == 1, report.errors
    run = tmp_path / "run"
    cells, names, rows = _stored(run)
    cell_id, build = cells[0][0], cells[0][4]
    assert names[cell_id] == [
        "balanced/test/epoch-2",
        "balanced/test/epoch-3",
        "imbalanced/test/epoch-2",
        "imbalanced/test/epoch-3",
    ]
    truth = rows[(build, "test")][1]
    per_epoch = {
        fit: [_w_acc(truth, _predicted(run, cell_id, f"{fit}/test/epoch-{e}")) for e in (2, 3)]
        for fit in ("imbalanced", "balanced")
    }
    loaded = load_results(run)
    group = loaded.groups.iloc[0]
    assert group["w_acc_imbalanced_mean"] == pytest.approx(np.mean(per_epoch["imbalanced"]))
    assert group["delta_isolated_mean"] == pytest.approx(
        np.mean(per_epoch["balanced"]) - np.mean(per_epoch["imbalanced"])
    )
    text = mps_report.tables(loaded, "md")
    assert "bow-mlp: every metric is the mean over its last 2 epochs" in text
    with sqlite3.connect(run / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM predictions").fetchone()[0] == 4
