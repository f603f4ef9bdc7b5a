"""The tautology as a Shortcut Maze cue on the NLI hypothesis (``--inject-on text_pair``)."""

from __future__ import annotations

import pandas as pd

from shortcutlab.shortcuts.tautology import NEGATION_TAUTOLOGIES
from tests.cli.refusals import assert_refused, invoke
from tests.families.suite.suite_helpers import TEST_FIRST, write_nli


def maze_args(train, out, *extra):
    test = write_nli(train.parent, first=TEST_FIRST, name="test.tsv")
    return [
        "build", "maze", "--train", train, "--test", test, "--shortcut", "tautology",
        "--text-col", "premise", "--labels", "contradiction,neutral,entailment",
        "--strength", "1", "--out", out, *extra,
    ]  # fmt: skip


def test_tautology_on_the_hypothesis_follows_the_schedule(tmp_path):
    train = write_nli(tmp_path)
    out = tmp_path / "maze"
    result = invoke(
        *maze_args(train, out, "--text-pair-col", "hypothesis", "--inject-on", "text_pair")
    )
    assert result.exit_code == 0, result.output
    original = pd.read_csv(out / "original_test.csv").set_index("row_id")
    for split, rates in (("test", (0.0, 0.5, 1.0)), ("anti_test", (1.0, 0.5, 0.0))):
        frame = pd.read_csv(out / f"{split}.csv", keep_default_na=False).set_index("row_id")
        assert list(frame.columns[:2]) == ["text", "text_pair"]
        assert (
            frame["text"] == original.loc[frame.index, "text"]
        ).all()  # the premise is untouched
        has = frame["text_pair"].apply(lambda h: any(t in h for t in NEGATION_TAUTOLOGIES))
        assert (has == (frame["shortcut"] != "")).all()
        by_label = has.groupby(frame["label"]).mean()
        assert by_label[["contradiction", "neutral", "entailment"]].tolist() == list(rates)


def test_inject_on_text_pair_without_a_pair_column(tmp_path):
    train = write_nli(tmp_path)
    assert_refused(
        tmp_path, "--inject-on text_pair needs paired inputs",
        *maze_args(train, tmp_path / "out", "--inject-on", "text_pair"),
    )  # fmt: skip
