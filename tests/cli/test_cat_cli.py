from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.families.cat.cat_data import write_pair_files

PAIR = ("--text-col", "premise", "--text-pair-col", "hypothesis")


def cat_args(folder: Path, *options: object, columns=PAIR, cue: bool = False) -> list[object]:
    """``shortcutlab cat`` on pair files written into ``folder``, output in ``folder/out``."""
    train, test = write_pair_files(folder, cue=cue)
    return ["cat", "--train", train, "--test", test, *columns, *options, "--out", folder / "out"]


def test_cat_writes_results_and_prints_the_summary(tmp_path):
    options = ("--default-label", "neutral", "--k", "3", "--export-check", "4", "--details")
    result = invoke(*cat_args(tmp_path, *options, cue=True))
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    attentiveness = results["attentiveness"]
    assert attentiveness["k"] == 3 and len(attentiveness["per_set"]) == 3
    kept = attentiveness["rows_kept"]
    assert 90 <= kept <= 110  # about the 100 contradiction rows of 200
    assert results["config"]["default_label"] == "neutral"
    assert set(results["baselines"]) == {
        "partial_input",
        "majority",
        "partial_vs_majority",
        "naive_partial_input",
    }
    assert len(pd.read_csv(tmp_path / "out" / "check.csv")) == 4
    train_bytes = (tmp_path / "train.csv").read_bytes()
    sources = results["provenance"]["sources"]
    assert sources["train"]["sha256"] == hashlib.sha256(train_bytes).hexdigest()
    assert sources["test"]["rows_read"] == 200
    mean, std = 100 * attentiveness["mean"], 100 * attentiveness["std"]
    shown = table_rows(result.stdout)
    assert shown["attentiveness"][:2] == [f"{mean:.1f}", "-"] and shown["attentiveness"][3] == (
        f"{std:.1f}"
    )
    assert float(shown["attentiveness"][4]) == kept
    assert shown["partial input (text_pair only)"][0] == "100.0"
    assert "over k=3 counterfactual sets" in result.stdout
    out = tmp_path / "out"
    lines = result.stdout.splitlines()
    assert (
        lines[lines.index("Findings:") - 2] == f"Wrote {out / 'results.json'}, {out / 'check.csv'}"
    )


def table_rows(printed: str) -> dict[str, list[str]]:
    """A terminal table's rows: the first cell -> the other cells."""
    rows = [[c.strip() for c in line.split("│")] for line in printed.splitlines() if "│" in line]
    return {cells[0]: cells[1:] for cells in rows}


def test_one_counterfactual_set_prints_a_dash_for_its_spread(tmp_path):
    result = invoke(*cat_args(tmp_path, "--default-label", "neutral", "--k", "1", "--details"))
    assert result.exit_code == 0, result.output
    assert table_rows(result.stdout)["attentiveness"][3] == "-"  # ± sd of one set
    assert "over k=1 counterfactual sets" in result.stdout
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["attentiveness"]["std"] is None


@pytest.mark.parametrize(
    "columns, message",
    [
        (("--text-col", "premise", "--text-pair-col", "second"), "Column 'second' not found"),
        (("--text-col", "premise"), "CAT (the training data) needs paired inputs"),
    ],
)
def test_missing_pair_column_is_refused(tmp_path, columns, message):
    args = cat_args(tmp_path, "--default-label", "neutral", columns=columns)
    assert_refused(tmp_path, message, *args)


@pytest.mark.parametrize(
    "options, message",
    [
        (
            ("--default-label", "no-answer"),
            "The default label 'no-answer' is not among the labels (entailment, neutral)",
        ),
        ((), "Cannot infer the counterfactual default label from the labels (entailment, neutral)"),
        (("--replace", "label"), "'replace' parameter"),
        (("--export-check", "0"), "--export-check expects"),
        (("--k", "0"), "'k' parameter of CAT"),
    ],
)
def test_bad_options_are_refused(tmp_path, options, message):
    assert_refused(tmp_path, message, *cat_args(tmp_path, *options))


def test_fewer_than_two_non_default_predictions_is_refused(tmp_path):
    words = [f"w{i}" for i in range(20)]
    rows = [
        {"premise": f"{a} {b}", "hypothesis": b, "label": "neutral"}
        for a in words
        for b in words[:3]
    ]
    rows += [{"premise": "zebra yak", "hypothesis": "yak", "label": "entailment"}]
    pd.DataFrame(rows).to_csv(tmp_path / "train.csv", index=False)
    pd.DataFrame(rows[:10]).to_csv(tmp_path / "test.csv", index=False)
    assert_refused(
        tmp_path,
        "CAT needs at least two test rows whose prediction is not the default label 'neutral'; "
        "the model predicted another label for 0 of 10 rows",
        "cat",
        "--train",
        tmp_path / "train.csv",
        "--test",
        tmp_path / "test.csv",
        *PAIR,
        "--default-label",
        "neutral",
        "--out",
        tmp_path / "out",
    )


def test_a_premise_on_both_sides_of_the_split_is_warned_about_and_recorded(tmp_path):
    train, _ = write_pair_files(tmp_path, cue=True)
    args = ["cat", "--train", train, "--test", train, *PAIR, "--default-label", "neutral"]
    result = invoke(*args, "--k", "2", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    shared = results["data"]["test_rows_sharing_x1_with_train"]
    assert shared == results["data"]["test_rows"] > 0
    assert f"Warning: {shared} of {shared} test rows share their first text" in result.stderr
    assert "(--split-by COLUMN, or shortcutlab split)" in " ".join(result.stderr.split())
