"""``shortcutlab evaluate --train T --test S --anti-test A --out DIR``: split files evaluated as
they are, with the printout and files of a built benchmark; refusals in one line; earlier results
kept unless --overwrite; the closing line names every file written."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from tests.cli.refusals import assert_refused, invoke
from tests.conftest import GOEMOTIONS, tree_state
from tests.data.release_files import write_release


def split_args(folder: Path, out: Path, *extra: object) -> list[object]:
    return [
        "evaluate",
        "--train", folder / "train.csv",
        "--dev", folder / "dev.csv",
        "--test", folder / "test.csv",
        "--anti-test", folder / "test_anti-shortcut.csv",
        "--seeds", 1, "--bootstrap", 100,
        "--out", out,
        *extra,
    ]  # fmt: skip


def plain_sklearn_delta(folder: Path) -> float:
    """Test minus anti-test accuracy of tfidf-logreg's settings, in plain pandas + scikit-learn."""
    train, test, anti = (
        pd.read_csv(folder / f"{name}.csv") for name in ("train", "test", "test_anti-shortcut")
    )
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    model = LogisticRegression(C=10.0, max_iter=1000, random_state=0)
    model.fit(vectorizer.fit_transform(train.text), train.label)
    test_acc, anti_acc = (
        (model.predict(vectorizer.transform(f.text)) == f.label).mean() for f in (test, anti)
    )
    return float(test_acc - anti_acc)


def test_release_files_evaluate_with_one_command_and_the_delta_of_plain_sklearn(tmp_path):
    folder = write_release(tmp_path / "lambda1")
    result = invoke(*split_args(folder, tmp_path / "out", "--details"))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith(
        "tfidf-logreg on the split files of lambda1 (shortcut —, λ —), seeds 0..0"
    )
    assert "Anti-Test" in result.stdout and "McNemar" in result.stdout
    record = json.loads((tmp_path / "out" / "results.json").read_text())
    statistics = record["statistics"]
    assert (statistics["dataset"], statistics["shortcut"], statistics["strength"]) == (
        "lambda1",
        None,
        None,
    )
    assert record["benchmark"]["splits"] == {
        "train": 60, "validation": 12, "test": 30, "anti_test": 30
    }  # fmt: skip
    assert statistics["delta_accuracy_mean"] == pytest.approx(
        plain_sklearn_delta(folder), abs=1e-12
    )
    assert statistics["delta_accuracy_mean"] > 0.2  # the cue helps on test, misleads on anti-test


def test_the_closing_line_names_every_file_written(tmp_path):
    folder = write_release(tmp_path / "r")
    out = tmp_path / "out"
    result = invoke(*split_args(folder, out))
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir())
    assert written == ["predictions.csv", "results.csv", "results.json"]
    closing = next(line for line in result.stdout.splitlines() if line.startswith("Results: "))
    assert (
        closing
        == f"Results: {out / 'results.json'}, {out / 'results.csv'}, {out / 'predictions.csv'}"
    )


def test_csv_format_names_every_file_on_stderr(tmp_path):
    folder = write_release(tmp_path / "r")
    result = invoke(*split_args(folder, tmp_path / "out", "--format", "csv"))
    assert result.exit_code == 0, result.output
    assert "predictions.csv" in result.stderr
    assert pd.read_csv(tmp_path / "out" / "results.csv")["strength"].isna().all()


def test_earlier_results_are_kept_unless_overwrite(tmp_path):
    folder = write_release(tmp_path / "r")
    out = tmp_path / "out"
    assert invoke(*split_args(folder, out)).exit_code == 0
    assert_refused(
        tmp_path,
        f"The output folder '{out}' exists and is not empty. Choose another --out or pass --overwrite.",
        *split_args(folder, out, "--model", "majority"),
    )
    replaced = invoke(*split_args(folder, out, "--model", "majority", "--overwrite"))
    assert replaced.exit_code == 0, replaced.output
    assert json.loads((out / "results.json").read_text())["model"]["name"] == "majority"


def test_evaluating_a_built_benchmark_again_needs_overwrite(tmp_path):
    folder = write_release(tmp_path / "r")
    bench = tmp_path / "bench"
    from shortcutlab import load_splits

    load_splits(folder / "train.csv", folder / "test.csv", folder / "test_anti-shortcut.csv").save(
        bench
    )
    first = invoke("evaluate", bench, "--seeds", 1, "--bootstrap", 100)
    assert first.exit_code == 0, first.output
    results = bench / "results" / "tfidf-logreg"
    closing = next(line for line in first.stdout.splitlines() if line.startswith("Results: "))
    assert closing.endswith(f"{results / 'predictions.csv'}")
    assert_refused(
        tmp_path, "exists and is not empty. Choose another --out or pass --overwrite.",
        "evaluate", bench, "--seeds", 1, "--bootstrap", 100,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--vary", "data"], "Split files evaluated as they are cannot be re-drawn per seed"),
        (["--dev", "nowhere.csv"], "The validation file 'nowhere.csv' (--dev) does not exist."),
    ],
)
def test_bad_split_options_are_refused_before_anything_is_written(tmp_path, extra, message):
    folder = write_release(tmp_path / "r")
    assert_refused(tmp_path, message, *split_args(folder, tmp_path / "out", *extra))


def test_what_to_evaluate_must_be_named_once(tmp_path):
    folder = write_release(tmp_path / "r")
    assert_refused(tmp_path, "Name what to evaluate", "evaluate", "--out", tmp_path / "o")
    assert_refused(
        tmp_path, "not both", "evaluate", folder, "--train", folder / "train.csv",
    )  # fmt: skip
    assert_refused(
        tmp_path, "Evaluating split files needs --out DIR",
        *split_args(folder, tmp_path / "o")[:-2],
    )  # fmt: skip
    assert_refused(
        tmp_path, "--test, --anti-test are missing",
        "evaluate", "--train", folder / "train.csv", "--out", tmp_path / "o",
    )  # fmt: skip


def test_a_split_file_given_as_the_benchmark_names_the_split_options(tmp_path):
    folder = write_release(tmp_path / "r")
    named = (
        f"--train {folder / 'train.csv'} --test {folder / 'test.csv'} "
        f"--anti-test {folder / 'test_anti-shortcut.csv'} --out DIR."
    )
    assert_refused(
        tmp_path,
        f"Error: '{folder / 'train.csv'}' is a file, not a benchmark folder. Pass a folder written "
        f"by 'shortcutlab build maze', or evaluate split files as they are: {named}",
        "evaluate", folder / "train.csv",
    )  # fmt: skip
    assert_refused(
        tmp_path, f"'{folder}' is not a benchmark folder: it has no manifest.json. Pass a folder "
        f"written by 'shortcutlab build maze', or evaluate split files as they are: {named}",
        "evaluate", folder,
    )  # fmt: skip
    lone = tmp_path / "lone.csv"
    lone.write_text("label,text\n0,a\n")
    assert_refused(
        tmp_path, "is a file, not a benchmark folder. Pass a folder written by 'shortcutlab build "
        "maze', or evaluate split files as they are: --train FILE --test FILE --anti-test FILE "
        "--out DIR.",
        "evaluate", lone,
    )  # fmt: skip


@pytest.mark.skipif(
    not (GOEMOTIONS / "single-term" / "lambda1" / "train.csv").exists(),
    reason="GoEmotions Maze release not present",
)
def test_the_released_lambda1_folder_gives_the_delta_of_plain_sklearn(tmp_path):
    folder = GOEMOTIONS / "single-term" / "lambda1"
    before = tree_state(folder)
    result = invoke(*split_args(folder, tmp_path / "out"))
    assert result.exit_code == 0, result.output
    statistics = json.loads((tmp_path / "out" / "results.json").read_text())["statistics"]
    assert statistics["paired_rows"] == 685
    assert statistics["delta_accuracy_mean"] == pytest.approx(
        plain_sklearn_delta(folder), abs=1e-12
    )
    assert tree_state(folder) == before
