"""``shortcutlab evaluate BENCH`` evaluates a build the way its own family does: the manifest's
kind picks the family in the registry, and that family's record names the command."""

from __future__ import annotations

import json

import pytest

from tests.cli.refusals import assert_refused, build_args, invoke
from tests.families.suite.suite_folders import write_suite
from tests.nli_helpers import nli_pairs


@pytest.fixture
def suite(tmp_path):
    folder = write_suite(tmp_path / "suite", rows=24)
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({"kind": "shortcut-suite", **manifest}))
    nli_pairs(240, seed=0).to_csv(tmp_path / "train.csv", index=False)
    return folder


def test_a_suite_build_is_evaluated_as_suite_evaluate_does(suite, tmp_path):
    options = ["--model", "majority", "--train", tmp_path / "train.csv"]
    options += ["--text-pair-col", "text_pair"]
    alias = invoke("evaluate", suite, "--out", tmp_path / "alias", *options)
    assert alias.exit_code == 0, alias.output
    direct = invoke("suite", "evaluate", suite, "--out", tmp_path / "direct", *options)
    assert direct.exit_code == 0, direct.output
    assert alias.stdout.replace("alias", "direct") == direct.stdout
    for name in ("results.json", "tables.md"):
        assert (tmp_path / "alias" / name).read_text() == (tmp_path / "direct" / name).read_text()
    # Options before the folder are read with the Suite's options too (--details takes no value).
    first = invoke("evaluate", "--details", *options, suite, "--out", tmp_path / "first")
    assert first.exit_code == 0, first.output
    assert (tmp_path / "first" / "results.json").read_text() == (
        tmp_path / "direct" / "results.json"
    ).read_text()


def test_a_maze_option_on_a_suite_build_names_the_suite_command(suite, tmp_path):
    assert_refused(
        tmp_path,
        "No such option: --seeds (Possible options: --seed, --sets). "
        "See 'shortcutlab suite evaluate --help'.",
        "evaluate", suite, "--out", tmp_path / "out", "--seeds", "3",
    )  # fmt: skip


def test_an_mps_build_names_what_measures_it(tmp_path):
    from tests.conftest import THREE, negation_rows

    negation_rows(THREE, seed=2).to_csv(tmp_path / "pool.csv", index=False)
    built = invoke("build", "mps", "--train", tmp_path / "pool.csv", "--out", tmp_path / "mps")
    assert built.exit_code == 0, built.output
    assert_refused(
        tmp_path,
        f"The MPS build in '{tmp_path / 'mps'}' is measured by a grid that fits on Imbalanced and "
        "on Balanced, not on its own: write a spec with 'family: mps' and run 'shortcutlab run "
        "SPEC' (docs/tutorials/mps-study.md).",
        "evaluate", tmp_path / "mps", "--seeds", "1",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("manifest", "named"),
    [
        ({"splits": {}}, "no kind of build"),
        ({"kind": "foo"}, "the kind 'foo', which no family builds"),
    ],
)
def test_a_folder_of_no_known_kind_is_refused(tmp_path, manifest, named):
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "manifest.json").write_text(json.dumps(manifest))
    assert_refused(
        tmp_path,
        f"'{tmp_path / 'bench' / 'manifest.json'}' names {named}: evaluate reads the builds of "
        "'shortcutlab build maze|robustness|suite' (shortcut-maze, robustness, shortcut-suite). Pass a folder one of "
        "them wrote, or restore the manifest.json it wrote.",
        "evaluate", tmp_path / "bench",
    )  # fmt: skip


def test_a_maze_build_is_still_evaluated_by_evaluate(corpus_files, tmp_path):
    assert (
        invoke(*build_args(corpus_files, tmp_path / "b", "--shortcut", "single-term")).exit_code
        == 0
    )
    result = invoke("evaluate", tmp_path / "b", "--seeds", 1, "--bootstrap", 100)
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "b" / "results" / "tfidf-logreg" / "results.json").read_text())


def test_split_files_saved_as_they_are_are_evaluated_by_evaluate(corpus_files, tmp_path):
    """``load_splits(...).save(folder)`` writes kind existing-splits, which Maze's evaluate reads
    (docs/how-to/released-splits.md)."""
    from shortcutlab.data.existing_splits import load_splits

    load_splits(corpus_files["train"], corpus_files["test"], corpus_files["test"]).save(
        tmp_path / "saved"
    )
    result = invoke("evaluate", tmp_path / "saved", "--seeds", 1, "--bootstrap", 100)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "saved" / "results" / "tfidf-logreg" / "results.json").is_file()


def test_evaluate_benchmark_in_python_names_evaluate_suite_for_a_suite_build(suite):
    from shortcutlab import ConfigError, evaluate_benchmark

    with pytest.raises(ConfigError) as refused:
        evaluate_benchmark(suite, seeds=1, bootstrap=100)
    message = str(refused.value)
    assert "\n" not in message
    assert "'shortcut-suite' build" in message and "evaluate_suite(folder, model=...)" in message
