"""A toy model and a toy mitigation, each one test module and one registry line
(tests/models/toy_model.py, tests/mitigations/toy_mitigation.py), run in a tiny Maze grid through
the public API: planned, fitted, stored and tabled like the packaged components."""

import numpy as np

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.pairs import model_inputs
from shortcutlab.engine.store import ResultStore
from shortcutlab.families import load_results, parse_spec, run_experiment
from shortcutlab.models import make_model
from tests.mitigations.toy_mitigation import registered as mitigation_registered
from tests.models.toy_model import registered as model_registered

SPEC = {
    "name": "toys",
    "data": {"builtin": "reviews", "train_size": 400, "test_size": 300},
    "shortcuts": ["single-term"],
    "strengths": [1.0],
    "models": [{"name": "toy-centroid", "id": "centroid"}],
    "mitigations": ["erm", "toy-half-sample"],
    "seeds": [0, 1],
    "bootstrap": 200,
}


def test_a_toy_model_and_mitigation_run_in_a_grid_and_reach_the_results(tmp_path):
    with model_registered() as model, mitigation_registered() as mitigation:
        report = run_experiment(parse_spec(SPEC), tmp_path / "run")
        assert (report.total, report.done, report.failed) == (4, 4, 0)
        loaded = load_results(tmp_path / "run")
        cells = loaded.cells.set_index(["mitigation", "seed"])
        # The toy model is declared seed-independent, so erm's seeds share one fit; the toy
        # mitigation draws with its seed, so its seeds are fitted apart.
        for method, shared in (("erm", True), (mitigation, False)):
            first, second = (cells.loc[(method, seed), "fit_id"] for seed in (0, 1))
            assert (first == second) is shared
        assert set(loaded.cells["model"]) == {"centroid"}
        # At λ = 1 the single term marks the label, so the centroids lean on it: the anti-test
        # (cue reversed) is answered worse than the test.
        erm = cells.loc[("erm", 0)]
        assert erm["test_accuracy"] > erm["anti_test_accuracy"]
        # The stored predictions are the toy's own: refitted here on the same build, it
        # predicts the same probabilities; the toy mitigation's half of the rows gives others.
        bench = Benchmark.load(tmp_path / "run" / "benchmarks" / erm["benchmark_id"])
        train = bench["train"]
        refit = make_model(model).fit(
            model_inputs(train), bench.labels.ranks(train["label"]), n_classes=len(bench.labels)
        )
        expected = refit.predict_proba(model_inputs(bench["test"])).astype(np.float32)
        with ResultStore(tmp_path / "run" / "results.sqlite") as store:
            np.testing.assert_array_equal(store.probabilities(erm["cell_id"], "test"), expected)
            half = cells.loc[(mitigation, 0), "cell_id"]
            assert not np.array_equal(store.probabilities(half, "test"), expected)
