"""``vary``: what each seed re-draws, and the statistics that follow (one engine for evaluate and results)."""

import io

import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.engine.summary import records
from shortcutlab.errors import GRID, ConfigError, DataError, InputFileError, caller
from shortcutlab.families import load_results, parse_spec, run_experiment
from shortcutlab.families.maze import export as run_report
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.evaluate import evaluate_benchmark
from shortcutlab.families.maze.grid import plan_grid
from shortcutlab.families.maze.redraw import redraw_from_manifest
from shortcutlab.reports.tables import maze_table, nothing_varied_note, result_table
from tests.cli.refusals import invoke


@pytest.fixture(scope="module")
def files(tmp_path_factory, corpus):
    folder = tmp_path_factory.mktemp("data")
    for name, frame in corpus.items():
        frame.to_csv(folder / f"{name}.csv", index=False)
    return folder


@pytest.fixture(scope="module")
def saved(files, tmp_path_factory):
    bench = build_maze_benchmark(
        files / "train.csv", files / "test.csv", shortcut="single-term", strength=0.8, val_size=50
    )
    return bench.save(tmp_path_factory.mktemp("bench") / "b")


def grid_spec(files, **changes):
    return parse_spec(
        {
            "name": "vary",
            "data": {"train": str(files / "train.csv"), "test": str(files / "test.csv")},
            "shortcuts": ["single-term"],
            "strengths": [0.8],
            "models": [{"name": "tfidf-logreg"}],
            "seeds": [0, 1, 2, 3, 4],
            "bootstrap": 200,
            **changes,
        }
    )


def test_the_manifest_redraw_reproduces_the_saved_benchmark_with_its_own_seed(saved):
    original = Benchmark.load(saved)
    again = redraw_from_manifest(original)(0)
    for split in original.splits:
        assert again[split]["text"].tolist() == original[split]["text"].tolist()
    other = redraw_from_manifest(original)(1)
    assert other["train"]["shortcut"].tolist() != original["train"]["shortcut"].tolist()
    assert other["test"]["row_id"].tolist() == original["test"]["row_id"].tolist()


def test_the_redraw_of_a_cue_on_the_second_text_keeps_it_there(tmp_path):
    """A redraw rebuilds with the recorded ``inject_on`` (it once put the cue on the premise)."""
    from tests.families.suite.suite_helpers import TEST_FIRST, tautology_on_hypothesis, write_nli

    test = write_nli(tmp_path, first=TEST_FIRST, name="test.tsv")
    built = tautology_on_hypothesis(tmp_path / "b", data=write_nli(tmp_path), test=test)  # files
    redrawn = redraw_from_manifest(built)(1)
    assert redrawn.manifest["arguments"]["inject_on"] == "text_pair"
    original = built["original_test"].set_index("row_id")
    for split in ("test", "anti_test"):
        rows = redrawn[split].set_index("row_id")
        assert (rows["text"] == original.loc[rows.index, "text"]).all()  # the premise untouched
        cued = rows["shortcut"] != ""
        assert cued.any()
        assert (rows.loc[cued, "text_pair"] != original.loc[rows.index[cued], "text_pair"]).all()


def test_vary_data_redraws_each_seed_and_measures_the_variance(saved):
    result = evaluate_benchmark(saved, seeds=3, bootstrap=200, vary="data")
    stats = result.statistics
    assert [(r["build_seed"], r["fit_seed"]) for r in result.runs] == [(0, 0), (1, 0), (2, 0)]
    assert (stats["distinct_fits"], stats["distinct_builds"]) == (3, 3)
    assert stats["delta_accuracy_var"] > 0 and stats["ci_resamples"] == "rows,fits"
    assert len({r["delta"]["accuracy"] for r in result.runs}) > 1
    assert sorted(p.name for p in (saved / "redraws").iterdir()) == ["seed-1", "seed-2"]
    table = result_table(result)
    assert table.loc["VAR(Δ)", "Accuracy"] == f"{stats['delta_accuracy_var']:.2g}"

    def refuse(seed):
        raise AssertionError(f"build seed {seed} was drawn again instead of reused")

    cached = evaluate_benchmark(saved, seeds=3, bootstrap=200, vary="both", rebuild=refuse)
    assert [r["fit_seed"] for r in cached.runs] == [0, 1, 2]
    assert cached.statistics["delta_accuracy_mean"] == stats["delta_accuracy_mean"]


def test_a_redraw_needs_the_recorded_unchanged_inputs(corpus, files, tmp_path):
    in_memory = build_maze_benchmark(corpus["train"], corpus["test"], shortcut="single-term")
    with pytest.raises(ConfigError, match="built from an in-memory table"):
        evaluate_benchmark(in_memory, seeds=2, bootstrap=100, vary="data")
    copy = tmp_path / "train.csv"
    copy.write_bytes((files / "train.csv").read_bytes())
    bench = build_maze_benchmark(copy, files / "test.csv", shortcut="single-term").save(
        tmp_path / "b"
    )
    copy.write_text(copy.read_text().replace("great", "grand", 1))
    with pytest.raises(DataError, match="has changed since the benchmark was built"):
        evaluate_benchmark(bench, seeds=2, bootstrap=100, vary="both")
    copy.unlink()
    with pytest.raises(InputFileError, match=r"needs its train input '.*train\.csv'"):
        evaluate_benchmark(bench, seeds=2, bootstrap=100, vary="both")
    assert not (tmp_path / "b" / "redraws").exists()


def test_vary_model_keeps_the_papers_grid_and_its_cell_ids(files):
    _, model_cells = plan_grid(grid_spec(files))
    benchmarks, both_cells = plan_grid(grid_spec(files, vary="both"))
    assert len({c.benchmark.id for c in model_cells}) == 1 and len(benchmarks) == 5
    assert [c.fit_seed for c in both_cells] == [0, 1, 2, 3, 4]
    assert model_cells[0].id == both_cells[0].id  # seed 0 re-draws nothing: the cell is shared
    _, data_cells = plan_grid(grid_spec(files, vary="data"))
    assert [c.fit_seed for c in data_cells] == [0] * 5
    with pytest.raises(
        ConfigError,
        match="The 'vary' key in spec must be one of 'model', 'data', 'both'. Got 'seeds' instead",
    ):
        grid_spec(files, vary="seeds")


@pytest.fixture(scope="module")
def grids(files, tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    for vary in ("model", "both"):
        run_experiment(grid_spec(files, vary=vary), root / vary)
    return root


def test_a_seed_independent_model_shows_variance_only_when_the_data_varies(grids):
    model = run_report.tables(load_results(grids / "model"), "md", "accuracy")
    both = run_report.tables(load_results(grids / "both"), "md", "accuracy")
    assert "| VAR(Δ) | — |" in model and "— : nothing varied between seeds" in model
    var_row = next(line for line in both.splitlines() if "VAR(Δ)" in line)
    assert "—" not in var_row and float(var_row.split("|")[-2]) > 0
    assert "two-level percentile bootstrap over the paired test rows and the distinct fits" in both
    assert len(list((grids / "both" / "benchmarks").iterdir())) == 5


@pytest.mark.parametrize("vary", ["model", "both"])
def test_evaluate_and_a_one_cell_grid_give_the_same_delta_interval_and_star(grids, vary):
    loaded = load_results(grids / vary)
    first_build = loaded.cells.loc[loaded.cells["seed"] == 0, "benchmark_id"].iloc[0]
    single = evaluate_benchmark(
        grids / vary / "benchmarks" / first_build, seeds=5, bootstrap=200, vary=vary
    )
    from_grid = maze_table(loaded.groups, marked=True).droplevel([0, 1, 2])
    from_evaluate = result_table(single)["Accuracy"]
    for row in ("Δ", "VAR(Δ)", "Δ 95% CI"):
        assert from_evaluate[row] == from_grid.loc[row, 0.8]
    # Every statistic, not only the printed ones (the dataset is named by the spec in a grid,
    # whose identity also names the mitigation: the plain fit evaluate makes).
    from_grid_row = records(loaded.groups)[0]
    assert from_grid_row.pop("mitigation") == "erm"
    assert {**from_grid_row, "dataset": None} == {**single.statistics, "dataset": None}


def test_a_seeded_model_whose_fits_agree_shows_no_variance(files, tmp_path):
    """tfidf-svm takes its seed, but its two fits predict the same labels: one measurement, so
    VAR(Δ) is — with its footnote through 'shortcutlab results', and empty in the csv."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "name: svm\n"
        f"data: {{train: '{files / 'train.csv'}', test: '{files / 'test.csv'}'}}\n"
        "shortcuts: [single-term]\nstrengths: [0.8]\nmodels: [tfidf-svm]\nseeds: [0, 1]\n"
        "bootstrap: 100\n"
    )
    assert invoke("run", spec, "--out", tmp_path / "run").exit_code == 0
    printed = invoke("results", tmp_path / "run", "--format", "md", "--details")
    assert printed.exit_code == 0, printed.output
    assert "| VAR(Δ) | — |" in printed.stdout
    with caller(GRID):  # results names the spec key (vary: data), not evaluate's option
        assert nothing_varied_note("VAR(Δ)") in printed.stdout
    tidy = pd.read_csv(io.StringIO(invoke("results", tmp_path / "run", "--format", "csv").stdout))
    assert tidy[["seeds", "distinct_fits"]].values.tolist() == [[2, 1]]
    assert tidy["delta_accuracy_var"].isna().all() and tidy["delta_accuracy_std"].isna().all()
