"""``shortcutlab build mps``: the same files as the Python API, the printed summary, and
every documented bad input (exit 2, one line, nothing written)."""

import json

import pytest

from shortcutlab.attributes import ATTRIBUTES
from shortcutlab.data.options import InputOptions
from shortcutlab.families.mps.build import build_mps_benchmark
from tests.cli.refusals import assert_refused, invoke
from tests.conftest import THREE, Topic, folder_bytes, negation_rows


@pytest.fixture
def pool(tmp_path):
    path = tmp_path / "pool.csv"
    negation_rows(THREE, seed=2).to_csv(path, index=False)
    return path


def mps(pool, out, *extra):
    return ["build", "mps", "--train", pool, "--out", out, *extra]


def test_cli_build_writes_what_the_api_writes_and_prints_the_shares(tmp_path, pool):
    result = invoke(
        *mps(pool, tmp_path / "cli"),
        "--attribute-option", "lexicon=paper",
        "--dominance", "0.6",
        "--dominant", "with_negation=a",
        "--dominant", "without_negation=b",
        "--validation-size", "30",
        "--test-size", "0.1",
        "--seed", "3",
        "--file-format", "jsonl",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Label shares per value (* dominant)" in result.stdout
    assert "with_negation" in result.stdout and "validation 30 (10 per label)" in result.stdout
    build_mps_benchmark(
        pool,
        attribute_options={"lexicon": "paper"},
        dominance=0.6,
        dominant={"with_negation": ["a"], "without_negation": ["b"]},
        validation_size=30,
        test_size=0.1,
        seed=3,
        inputs=InputOptions(out=tmp_path / "api", fmt="jsonl"),
    )
    assert folder_bytes(tmp_path / "cli") == folder_bytes(tmp_path / "api")
    manifest = json.loads((tmp_path / "cli" / "manifest.json").read_text())
    assert manifest["attribute"]["lexicon"] == "paper"
    assert manifest["dominant"] == {"without_negation": ["b"], "with_negation": ["a"]}
    # The printed shares are those of the written rows: 0.6 of with_negation is label a.
    counts = manifest["splits"]["imbalanced"]["label_counts"]["with_negation"]
    assert f"{counts['a'] / sum(counts.values()):.2f}*" in result.stdout


def test_unknown_attribute(tmp_path, pool):
    assert_refused(
        tmp_path, "Unknown attribute 'negaton'. Did you mean 'negation'",
        *mps(pool, tmp_path / "out", "--attribute", "negaton"),
    )  # fmt: skip


def test_too_few_rows_for_the_dominance(tmp_path, pool):
    assert_refused(
        tmp_path, "Too few rows to reach dominance 0.5 with 5000 rows: the largest feasible size is",
        *mps(pool, tmp_path / "out", "--size", "5000"),
    )  # fmt: skip


def test_every_row_in_one_group(tmp_path, pool):
    assert_refused(
        tmp_path, "Every kept row is in one attribute group (values found, rows: without_question (910))",
        *mps(pool, tmp_path / "out", "--attribute", "question"),
    )  # fmt: skip


@pytest.mark.parametrize("dominance", ["0.3", "1.5"])
def test_dominance_outside_the_range(tmp_path, pool, dominance):
    assert_refused(
        tmp_path, "The 'dominance' parameter must be a share in (1/3, 1] for 3 labels",
        *mps(pool, tmp_path / "out", "--dominance", dominance),
    )  # fmt: skip


def test_column_attribute_naming_a_missing_column(tmp_path, pool, monkeypatch):
    # A registered annotator that reads a column (as the ``column`` attribute does).
    monkeypatch.setitem(ATTRIBUTES._entries, "topic", Topic)
    assert_refused(
        tmp_path, "Column 'topic' not found. Columns found: row_id, text, label.",
        *mps(pool, tmp_path / "out", "--attribute", "topic"),
    )  # fmt: skip


def test_test_file_with_a_label_missing(tmp_path, pool):
    test = tmp_path / "test.csv"
    negation_rows({(True, "a"): 5, (False, "b"): 5}, seed=1).to_csv(test, index=False)
    assert_refused(
        tmp_path, "The test table has no rows of label(s) c, so its test set cannot be label-balanced.",
        *mps(pool, tmp_path / "out", "--test", test),
    )  # fmt: skip


def test_options_of_the_other_family_are_refused(tmp_path, pool):
    assert_refused(
        tmp_path, "--strength is an option of 'shortcutlab build maze', not of 'build mps'. "
        "Drop it, or run 'shortcutlab build maze'.",
        *mps(pool, tmp_path / "out", "--strength", "0.5", "--val-size", "10"),
    )  # fmt: skip
    assert_refused(
        tmp_path, "--dominance is an option of 'shortcutlab build mps', not of 'build maze'.",
        "build", "maze", "--train", pool, "--test", pool, "--shortcut", "single-term",
        "--out", tmp_path / "out", "--dominance", "0.6",
    )  # fmt: skip
    assert_refused(
        tmp_path, "Missing option '--test'. See 'shortcutlab build maze --help'.",
        "build", "maze", "--train", pool, "--shortcut", "single-term", "--out", tmp_path / "out",
    )  # fmt: skip


def test_bad_option_syntax(tmp_path, pool):
    assert_refused(
        tmp_path, "--dominant expects VALUE=LABEL or VALUE=LABEL,LABEL. Got 'with_negation' instead.",
        *mps(pool, tmp_path / "out", "--dominant", "with_negation"),
    )  # fmt: skip
    assert_refused(
        tmp_path, "'build mps' names its family already: drop --family.",
        *mps(pool, tmp_path / "out", "--family", "mp"),
    )  # fmt: skip


def test_summary_with_many_labels_shows_the_dominant_sets_share(tmp_path):
    cells = {(negated, label): 30 + 5 * label for negated in (True, False) for label in range(12)}
    path = tmp_path / "many.csv"
    negation_rows(cells, seed=1).to_csv(path, index=False)
    result = invoke(*mps(path, tmp_path / "out"))
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    counts = manifest["splits"]["imbalanced"]["label_counts"]["with_negation"]
    dominant = manifest["dominant"]["with_negation"]
    share = sum(counts[str(label)] for label in dominant) / sum(counts.values())
    row = next(line for line in result.stdout.splitlines() if line.startswith("with_negation"))
    assert ",".join(map(str, dominant)) in row and f"{share:.2f}" in row and share >= 0.75
