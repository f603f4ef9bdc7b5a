import json
from dataclasses import replace

import pandas as pd
import pytest

from shortcutlab.errors import ConfigError, DataError, InputFileError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.evaluate import evaluate_benchmark


@pytest.fixture(scope="module")
def strong(corpus):
    return build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="concept-correlation", strength=1.0, val_size=50
    )


def test_a_strong_shortcut_gives_a_significant_positive_drop(strong):
    result = evaluate_benchmark(strong, seeds=3, bootstrap=300)
    stats = result.statistics
    assert stats["delta_accuracy_mean"] > 0.1
    assert stats["delta_accuracy_ci_low"] > 0
    assert stats["significant_accuracy"] and stats["p_accuracy"] < 0.001
    assert stats["p_accuracy_holm"] == stats["p_accuracy"]  # one evaluation: a family of one
    assert stats["test_accuracy_mean"] > stats["original_test_accuracy_mean"]
    assert result.seeds == [0, 1, 2] and result.model["fits"] == 1  # tfidf-logreg ignores the seed
    assert set(result.runs[0]["splits"]) == {"test", "anti_test", "original_test"}
    # The three seeds are one fit: nothing varied, so no variance is reported (not a fake 0).
    assert (stats["seeds"], stats["distinct_fits"], stats["distinct_builds"]) == (3, 1, 1)
    assert stats["delta_accuracy_var"] is None and stats["test_accuracy_std"] is None
    assert stats["ci_resamples"] == "rows"


def test_a_text_blind_model_shows_no_significant_drop(strong):
    stats = evaluate_benchmark(strong, model="majority", seeds=1, bootstrap=200).statistics
    assert stats["delta_accuracy_mean"] == 0 and not stats["significant_accuracy"]


def test_results_files_are_deterministic(strong, tmp_path):
    first = evaluate_benchmark(strong, seeds=2, bootstrap=200).save(tmp_path / "a")
    second = evaluate_benchmark(strong, seeds=2, bootstrap=200).save(tmp_path / "b")
    assert (first / "results.json").read_bytes() == (second / "results.json").read_bytes()
    assert (first / "results.csv").read_bytes() == (second / "results.csv").read_bytes()
    payload = json.loads((first / "results.json").read_text())
    assert payload["model"]["name"] == "tfidf-logreg" and payload["labels"] == [1, 2, 3, 4, 5]
    table = pd.read_csv(first / "results.csv")
    assert len(table) == 1 and table.loc[0, "delta_accuracy_mean"] == pytest.approx(
        payload["statistics"]["delta_accuracy_mean"]
    )
    assert {"shortcut", "strength", "p_accuracy", "significant_macro_f1"} <= set(table.columns)
    # Re-saving into a folder holding only earlier results replaces them.
    evaluate_benchmark(strong, seeds=1, bootstrap=200).save(first)
    assert json.loads((first / "results.json").read_text())["seeds"] == [0]


def test_evaluate_reads_a_saved_benchmark(strong, tmp_path):
    folder = strong.save(tmp_path / "bench")
    result = evaluate_benchmark(folder, seeds=1, bootstrap=100)
    assert result.benchmark["path"] == str(folder)
    assert result.benchmark["shortcut"] == "concept-correlation"


def test_bad_arguments(strong, tmp_path):
    with pytest.raises(ConfigError, match="'seeds' parameter must be at least 1"):
        evaluate_benchmark(strong, seeds=0)
    with pytest.raises(ConfigError, match="'bootstrap' parameter must be an integer >= 100"):
        evaluate_benchmark(strong, bootstrap=5)
    with pytest.raises(ConfigError, match="'vary' parameter must be one of 'model', 'data'"):
        evaluate_benchmark(strong, vary="seeds")
    with pytest.raises(InputFileError, match="not a benchmark folder: it has no manifest.json"):
        evaluate_benchmark(tmp_path)
    # A copy without the anti-test: the module's benchmark stays whole for the other tests.
    splits = {name: frame for name, frame in strong.splits.items() if name != "anti_test"}
    with pytest.raises(DataError, match="needs 'test' and 'anti_test' splits"):
        evaluate_benchmark(replace(strong, splits=splits))
    assert "anti_test" in strong.splits
