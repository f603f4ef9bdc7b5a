"""Maze grids crossed with mitigations: the spec keys, cell ids, up-front refusals, the mitigated
fit path, the store, fit sharing and the comparison with erm on the same rows."""

import dataclasses
import sqlite3

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.pairs import model_inputs
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.engine.store import ResultStore
from shortcutlab.errors import ConfigError
from shortcutlab.families import load_results, parse_spec, run_experiment
from shortcutlab.families.maze import export as run_report
from shortcutlab.families.maze.grid import plan_grid
from shortcutlab.metrics import bootstrap_contrast, bootstrap_deltas
from shortcutlab.mitigations.groups import group_codes
from shortcutlab.models import make_model
from tests.families.maze.mitigation_doubles import registered as doubles_registered
from tests.metrics.test_metrics import _holm_by_definition

BASE = {
    "name": "mitigated",
    "data": {"builtin": "reviews", "train_size": 400, "test_size": 300},
    "shortcuts": ["single-term"],
    "strengths": [1.0],
    "models": [{"name": "tfidf-logreg"}],
    "seeds": [0, 1],
    "val_size": 0.2,
    "bootstrap": 200,
}
MITIGATIONS = [
    "erm",
    "test-downsample",
    {"name": "test-held-out", "id": "held"},
    {"name": "test-plain-copy", "id": "copy"},
]


@pytest.fixture
def registered():
    with doubles_registered():
        yield


def spec(**changes):
    return parse_spec({**BASE, **changes})


def results_text(run_dir):
    loaded = load_results(run_dir)
    return "".join(
        run_report.tables(loaded, fmt, metric)
        for fmt, metric in (("md", "accuracy"), ("md", "macro_f1"), ("csv", "accuracy"))
    ) + loaded.comparisons.to_csv(index=False)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    with doubles_registered():  # for this module's tests only
        out = tmp_path_factory.mktemp("mitigated") / "run"
        report = run_experiment(spec(mitigations=MITIGATIONS), out)
        yield out, report


def test_a_spec_without_mitigations_keeps_its_resolved_form_and_erm_cell_ids():
    plain = spec()
    assert not {"mitigations", "groups", "group_labels"} & set(plain.resolved())
    _, cells = plan_grid(plain)
    for cell in cells:  # today's formula, written out
        expected = {
            "benchmark": cell.benchmark.config,
            "model": {"name": "tfidf-logreg", "params": {}},
        }
        assert cell.id == canonical_hash({**expected, "seed": cell.fit_seed})
        assert cell.mitigation.id == "erm"


def test_an_added_mitigation_only_adds_cells(registered):
    _, before = plan_grid(spec())
    extended = spec(mitigations=MITIGATIONS, groups="shortcut")
    _, after = plan_grid(extended)
    assert {c.id for c in before} < {c.id for c in after} and len(after) == 4 * len(before)
    assert [c.mitigation.id for c in after] == [
        "erm",
        "erm",
        "test-downsample",
        "test-downsample",
        "held",
        "held",
        "copy",
        "copy",
    ]
    downsample = next(c for c in after if c.mitigation.id == "test-downsample")
    assert downsample.config["mitigation"] == {"name": "test-downsample", "params": {}}
    assert (downsample.config["groups"], downsample.config["group_labels"]) == ("shortcut", "train")
    assert extended.resolved()["mitigations"][1] == {
        "id": "test-downsample",
        "name": "test-downsample",
    }
    assert extended.resolved()["groups"] == "shortcut"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"mitigations": ["erm", "test-downsample"], "models": [{"name": "transformer"}]},
            "mitigations[1] (test-downsample): The test-downsample mitigation does not support "
            "the transformer model. Models it supports: bow-mlp, majority, object, "
            "sentence-encoder, sklearn, tfidf-logreg, tfidf-svm.",
        ),
        (
            {"mitigations": ["test-downsample"], "group_labels": "validation"},
            "needs group labels on the training rows, but group_labels is 'validation'",
        ),
        (
            {"mitigations": ["test-downsample"], "groups": "topic"},
            "reads groups from the column 'topic', which the builds do not have. Columns that "
            "would do: shortcut",
        ),
        (
            {"mitigations": ["test-held-out"], "val_size": 0},
            "fits on held-out rows, but the builds have no validation split. Set val_size",
        ),
        ({"mitigations": ["test-downsampel"]}, "Did you mean 'test-downsample'"),
        (
            {"mitigations": [{"name": "test-downsample", "min_rows": 0}]},
            "mitigations[0] (test-downsample): min_rows must be an integer >= 1. Got 0.",
        ),
        (
            {"mitigations": [{"name": "test-downsample", "rows": 3}]},
            "The test-downsample mitigation has no parameter 'rows'",
        ),
        (
            {"mitigations": ["erm", {"name": "erm"}]},
            "Each id in spec: mitigations must be unique. Got 'erm' twice. Give two configs",
        ),
        (  # a method's checks see the model's parameters before anything runs
            {"mitigations": [{"name": "jtt", "first_params": {"Cx": 1}}]},
            "mitigations[0] (jtt): The tfidf-logreg model has no parameter 'Cx'",
        ),
        (
            {"group_labels": "heldout"},
            "The 'group_labels' key in spec must be one of 'train', 'validation'",
        ),
        (
            {"mitigations": "erm"},
            "The 'mitigations' key in spec must be a non-empty list. Got 'erm' instead.",
        ),
    ],
)
def test_unsupported_pairs_are_refused_when_the_spec_is_read(registered, changes, message):
    with pytest.raises(ConfigError, match=None) as caught:
        spec(**changes)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_held_out_method_may_run_with_validation_group_labels(registered):
    held = spec(mitigations=["erm", "test-held-out"], group_labels="validation")
    _, cells = plan_grid(held)
    assert cells[-1].config["group_labels"] == "validation"
    assert cells[0].id in {c.id for c in plan_grid(spec())[1]}  # erm reads no groups: same id


@pytest.mark.slow
def test_store_fit_sharing_and_group_provenance(finished):
    out, report = finished
    assert (report.total, report.done, report.failed) == (8, 8, 0)
    with sqlite3.connect(out / "results.sqlite") as db:
        rows = db.execute(
            "SELECT mitigation, seed, shared_fit, metrics FROM cells ORDER BY mitigation, seed"
        ).fetchall()
        assert db.execute("SELECT count(*) FROM predictions").fetchone()[0] == 8 * 3
    shared = {(m, s): bool(f) for m, s, f, _ in rows}
    # tfidf-logreg ignores its seed; the subsample draws with it, so its seeds are fitted apart.
    assert shared == {
        ("erm", 0): True,
        ("erm", 1): True,
        ("held", 0): True,
        ("held", 1): True,
        ("copy", 0): True,
        ("copy", 1): True,
        ("test-downsample", 0): False,
        ("test-downsample", 1): False,
    }
    groups = load_results(out).groups.set_index("mitigation")
    assert groups.loc["test-downsample", "group_source"] == "shortcut"
    assert groups.loc["test-downsample", "group_rows"] == "train"
    assert groups.loc["held", "group_rows"] == "validation"
    assert groups.loc["erm", "group_source"] == ""


def test_the_mitigated_fit_predicts_with_the_methods_own_predictor(finished):
    out, _ = finished
    loaded = load_results(out)
    cell = loaded.cells[(loaded.cells["mitigation"] == "held") & (loaded.cells["seed"] == 0)].iloc[
        0
    ]
    bench = Benchmark.load(out / "benchmarks" / cell["benchmark_id"])
    # The held-out double, written out: train rows plus the largest held-out group's rows.
    codes, _ = group_codes({"train": bench["train"], "validation": bench["validation"]}, "shortcut")
    largest = np.bincount(codes["validation"]).argmax()
    extra = bench["validation"][codes["validation"] == largest]
    rows = pd.concat([bench["train"], extra])
    model = make_model("tfidf-logreg", {}, seed=0)
    model.fit(model_inputs(rows), bench.labels.ranks(rows["label"]), n_classes=len(bench.labels))
    expected = model.predict_proba(model_inputs(bench["test"])).astype(np.float32)
    with ResultStore(out / "results.sqlite") as store:
        stored = store.probabilities(cell["cell_id"], "test")
        erm = loaded.cells[loaded.cells["mitigation"] == "erm"]["cell_id"].iloc[0]
        assert not np.array_equal(store.probabilities(erm, "test"), stored)
    np.testing.assert_array_equal(stored, expected)


def _accuracies(out, cell_id, benchmark_id):
    with ResultStore(out / "results.sqlite") as store:
        found = {}
        for split in ("test", "anti_test"):
            _, truth = store.rows(benchmark_id, split)
            found[split] = predicted_labels(store.probabilities(cell_id, split)) == truth
    return found


def test_each_mitigation_against_erm_on_the_same_rows(finished):
    out, _ = finished
    loaded = load_results(out)
    comparisons = loaded.comparisons.set_index("mitigation")
    assert list(comparisons.index) == ["test-downsample", "held", "copy"]
    assert comparisons["same_predictions"].tolist() == [False, False, True]
    assert np.isnan(comparisons.loc["copy", "p_delta_change_accuracy"])
    assert comparisons.loc["copy", "delta_change_accuracy_mean"] == 0.0
    cells = loaded.cells.set_index(["mitigation", "seed"])
    for mitigation, pairs in (("test-downsample", [0, 1]), ("held", [0])):
        changes, tests, p_values = [], [], []
        for seed in pairs:
            mine = _accuracies(
                out,
                cells.loc[(mitigation, seed), "cell_id"],
                cells.loc[(mitigation, seed), "benchmark_id"],
            )
            erm = _accuracies(
                out, cells.loc[("erm", seed), "cell_id"], cells.loc[("erm", seed), "benchmark_id"]
            )
            drop = {
                k: v["test"].mean() - v["anti_test"].mean() for k, v in (("m", mine), ("e", erm))
            }
            changes.append(drop["m"] - drop["e"])
            tests.append(mine["test"].mean() - erm["test"].mean())
            b = int((mine["test"] & ~erm["test"]).sum())
            c = int((~mine["test"] & erm["test"]).sum())
            p_values.append(1.0 if b + c == 0 else binomtest(min(b, c), b + c, 0.5).pvalue)
        row = comparisons.loc[mitigation]
        assert row["distinct_pairs"] == len(pairs)
        assert row["delta_change_accuracy_mean"] == pytest.approx(np.mean(changes), abs=1e-12)
        assert row["test_change_accuracy_mean"] == pytest.approx(np.mean(tests), abs=1e-12)
        assert row["p_test_change_accuracy"] == pytest.approx(max(p_values), abs=1e-12)
        assert row["delta_change_accuracy_ci_low"] <= row["delta_change_accuracy_ci_high"]
        assert row["ci_resamples"] == ("rows,fits" if len(pairs) > 1 else "rows")
    tested = loaded.comparisons[~loaded.comparisons["same_predictions"]]
    for column in ("p_delta_change_accuracy", "p_test_change_macro_f1"):  # every tested one
        raw = tested[column].to_numpy()
        assert tested[f"{column}_holm"].tolist() == pytest.approx(
            _holm_by_definition(raw).tolist(), abs=1e-12
        )


def test_results_print_table3_and_the_comparison(finished):
    loaded = load_results(finished[0])
    text = run_report.tables(loaded, "md", "accuracy")
    assert "### Table 3 layout, accuracy: Test / Anti / Δ per mitigation" in text
    assert (
        "| dataset | model | shortcut | λ | erm Test | erm Anti | erm Δ | test-downsample Test"
        in text
    )
    assert "### Each mitigation against erm on the same rows, accuracy" in text
    assert (
        "| Δ change | 95% CI | CI over | p | p Holm | Test change | Test p | Test p Holm |" in text
    )
    assert "| rows, fits |" in text and "| rows |" in text
    assert (
        "Groups: (label, value) from the 'shortcut' column, group_labels: train; read by "
        "test-downsample on the train rows; held on the validation rows." in text
    )
    assert "CI over rows: percentile bootstrap over the paired test / anti-test rows" in text
    assert "| copy | 0 (same predictions) | — | — | — | — | 0 (same predictions) | — | — |" in text
    assert "over the 2 comparisons of this run" in text
    table3 = loaded.table3("accuracy", marked=False)
    groups = loaded.groups.set_index("mitigation")
    assert table3[("held", "Anti")].iloc[0] == groups.loc["held", "anti_test_accuracy_mean"]
    assert "Table 1" not in text and "| mitigation | shortcut | row |" in text  # Table 9 per method


def test_without_erm_the_comparison_is_named_missing(finished):
    loaded = load_results(finished[0])
    alone = dataclasses.replace(loaded, comparisons=loaded.comparisons.iloc[:0])
    text = run_report.tables(alone, "md", "accuracy")
    assert "against erm" not in text and "No comparison with erm: the grid has no plain erm" in text


@pytest.mark.slow
def test_killed_and_resumed_grid_with_mitigations_gives_the_clean_tables(finished, tmp_path):
    from tests.engine.test_kill_resume import run_and_kill

    (tmp_path / "spec.yaml").write_text(
        "name: mitigated\n"
        "data: {builtin: reviews, train_size: 400, test_size: 300}\n"
        "shortcuts: [single-term]\nstrengths: [1.0]\nmodels: [{name: tfidf-logreg}]\n"
        "mitigations: [erm, test-downsample, {name: test-held-out, id: held},\n"
        "  {name: test-plain-copy, id: copy}]\n"
        "seeds: [0, 1]\nval_size: 0.2\nbootstrap: 200\n"
    )
    run = tmp_path / "run"
    run_and_kill(
        tmp_path / "spec.yaml",
        run,
        after_cells=2,
        extra=["--jobs", "2"],
        launcher=("-m", "tests.families.maze.mitigation_doubles"),
    )
    with sqlite3.connect(run / "results.sqlite") as db:
        done = db.execute("SELECT count(*) FROM cells").fetchone()[0]
        stored = {m for (m,) in db.execute("SELECT DISTINCT mitigation FROM cells")}
    assert 2 <= done < 8, "the kill should land mid-run"
    assert stored <= {"erm", "test-downsample", "held", "copy"}
    report = run_experiment(tmp_path / "spec.yaml", run)
    assert report.skipped == done and report.done == 8 - done
    assert results_text(run) == results_text(finished[0])


def test_a_store_written_before_mitigations_gains_the_column(tmp_path):
    path = tmp_path / "results.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE cells (cell_id TEXT PRIMARY KEY, dataset TEXT NOT NULL, shortcut TEXT "
            "NOT NULL, strength REAL NOT NULL, model TEXT NOT NULL, seed INTEGER NOT NULL, "
            "benchmark_id TEXT NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL, metrics TEXT, "
            "error TEXT, fit_seconds REAL, predict_seconds REAL, total_seconds REAL, shared_fit "
            "INTEGER NOT NULL DEFAULT 0, versions TEXT, finished_at TEXT NOT NULL DEFAULT 'now')"
        )
        db.execute(
            "INSERT INTO cells (cell_id, dataset, shortcut, strength, model, seed, benchmark_id, "
            "config, status, metrics) VALUES ('c', 'd', 's', 1.0, 'm', 0, 'b', '{}', 'done', '{}')"
        )
    with ResultStore(path) as store:
        assert store.cells()[["cell_id", "mitigation"]].values.tolist() == [["c", "erm"]]
        assert store.finished() == {"c"}


def test_the_change_of_a_drop_is_the_difference_of_two_paired_drops():
    rng = np.random.default_rng(3)
    truth = rng.integers(3, size=80)
    test_m, anti_m, test_e, anti_e = (rng.integers(3, size=(2, 80)) for _ in range(4))
    options = dict(n_classes=3, n_resamples=50, seed=5)
    change = bootstrap_contrast(
        y_true=truth,
        terms=[(1.0, test_m), (-1.0, anti_m), (-1.0, test_e), (1.0, anti_e)],
        **options,
    )
    mine = bootstrap_deltas(y_true=truth, pred_a=test_m, pred_b=anti_m, **options)
    theirs = bootstrap_deltas(y_true=truth, pred_a=test_e, pred_b=anti_e, **options)
    for metric in ("accuracy", "macro_f1"):  # the same row draws for every term
        np.testing.assert_allclose(change[metric], mine[metric] - theirs[metric], atol=1e-12)
