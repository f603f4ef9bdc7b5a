"""``build suite``: the standard set and the sets derived from it, the extended tasks, the
manifest and the refusals, all checked on what is written."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.families.suite.build import build_suite_benchmark
from shortcutlab.shortcuts.tautology import NEGATION_TAUTOLOGIES, POSITION_PHRASES
from tests.cli.refusals import assert_refused, invoke
from tests.families.suite.suite_helpers import (
    MNLI,
    build_suite_folder,
    nli_frame,
    suite_args,
    write_nli,
)

DERIVED = ("negation", "position", "style")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    _, out, sets = build_suite_folder(tmp_path_factory.mktemp("suite"), DERIVED, "--size", "90")
    return out, sets


def test_standard_is_label_balanced_and_added_for_derived_sets(built):
    out, sets = built
    assert sets["standard"]["label"].value_counts().to_dict() == {
        "contradiction": 30, "entailment": 30, "neutral": 30,
    }  # fmt: skip
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["sets_added"] == ["standard"]
    assert set(manifest["splits"]) == {"standard", *DERIVED}
    assert all(len(record["sha256"]) == 64 for record in manifest["splits"].values())


@pytest.mark.parametrize("name", DERIVED)
def test_derived_rows_pair_with_their_standard_row(built, name):
    standard = built[1]["standard"].set_index("source_row_id")
    derived = built[1][name]
    assert list(derived.columns[:5]) == ["row_id", "text", "text_pair", "label", "source_row_id"]
    assert (derived["row_id"] == derived["source_row_id"]).all()
    assert (
        derived["label"].to_numpy() == standard.loc[derived["source_row_id"], "label"].to_numpy()
    ).all()


def test_negation_appends_a_tautology_to_the_hypothesis(built):
    standard = built[1]["standard"].set_index("source_row_id")
    negation = built[1]["negation"]
    for _, row in negation.iterrows():
        original = standard.loc[row["source_row_id"]]
        assert row["text"] == original["text"]
        assert row["tautology"] in NEGATION_TAUTOLOGIES
        assert row["text_pair"] == original["text_pair"][:-1] + " " + row["tautology"] + "."
    assert negation["tautology"].nunique() > 3


def test_position_repeats_a_phrase_five_times_where_recorded(built):
    standard = built[1]["standard"].set_index("source_row_id")
    position = built[1]["position"]
    for _, row in position.iterrows():
        original = standard.loc[row["source_row_id"]]
        part, other = (
            ("text", "text_pair")
            if row["position"].startswith("premise")
            else ("text_pair", "text")
        )
        assert row[other] == original[other]
        phrase = row["tautology"]
        assert phrase in POSITION_PHRASES
        repeated = " and ".join([phrase] * 5)
        if row["position"].endswith("front"):
            assert row[part] == repeated[0].upper() + repeated[1:] + " and " + original[part]
        else:
            assert row[part] == original[part][:-1] + " and " + repeated + "."
    # Four groups, balanced within every label (30 rows per label: 8/8/7/7 in some order).
    counts = position.groupby(["label", "position"]).size().unstack()
    assert list(counts.columns) == sorted(
        ["premise_front", "premise_end", "hypothesis_front", "hypothesis_end"]
    )
    assert (counts.max(axis=1) - counts.min(axis=1) <= 1).all()


def test_style_rewrites_the_premise_only(built):
    standard = built[1]["standard"].set_index("source_row_id")
    style = built[1]["style"]
    assert len(style) == 90
    originals = standard.loc[style["source_row_id"]]
    assert (style["text_pair"].to_numpy() == originals["text_pair"].to_numpy()).all()
    assert (style["text"].to_numpy() != originals["text"].to_numpy()).all()


def test_sets_do_not_depend_on_which_others_are_asked_for(built, tmp_path):
    out, sets = built
    alone = build_suite_benchmark(
        nli_frame(),
        sets="position",
        size=90,
        inputs=InputOptions(text_col="premise", text_pair_col="hypothesis"),
    )
    assert alone.sets["position"]["text"].tolist() == sets["position"]["text"].tolist()


def test_sentiment_negation_on_single_texts(tmp_path):
    train = tmp_path / "sst.csv"
    pd.DataFrame(
        {"sentence": [f"A film number {i} that works." for i in range(40)], "label": [0, 1] * 20}
    ).to_csv(train, index=False)
    out = tmp_path / "out"
    args = ["build", "suite", "--train", train, "--text-col", "sentence", "--out", out]
    result = invoke(*args, "--sets", "standard,sentiment-negation", "--size", "20")
    assert result.exit_code == 0, result.output
    standard, negated = (pd.read_csv(out / f"{n}.csv") for n in ("standard", "sentiment-negation"))
    assert "text_pair" not in negated.columns
    for before, after, tautology in zip(
        standard["text"], negated["text"], negated["tautology"], strict=True
    ):
        assert after == before[:-1] + " " + tautology + "."


def qqp_frame() -> pd.DataFrame:
    rows = []
    for i in range(40):
        overlapping = i % 2 == 0
        q1 = f"How do I learn python number {i} fast?"
        q2 = (
            f"How do I learn python number {i} fast now?"
            if overlapping
            else f"Why is the sky {i} blue?"
        )
        rows.append({"question1": q1, "question2": q2, "is_duplicate": i % 4 // 2})
    return pd.DataFrame(rows)


def test_paraphrase_overlap_from_high_overlap_pairs_and_from_paws(tmp_path):
    train = tmp_path / "qqp.csv"
    qqp_frame().to_csv(train, index=False)
    base = ["build", "suite", "--train", train, "--text-col", "question1",
            "--text-pair-col", "question2", "--label-col", "is_duplicate"]  # fmt: skip
    out = tmp_path / "own"
    result = invoke(*base, "--out", out, "--sets", "standard,paraphrase-overlap", "--size", "10")
    assert result.exit_code == 0, result.output
    overlap = pd.read_csv(out / "paraphrase-overlap.csv")
    assert overlap["label"].value_counts().to_dict() == {0: 5, 1: 5}
    assert (overlap["overlap"] >= 0.8).all() and "source_row_id" not in overlap.columns
    # Compared with the standard set as an independent sample, so no row is in both.
    standard = pd.read_csv(out / "standard.csv")
    assert not set(overlap["row_id"]) & set(standard["row_id"])
    alone = tmp_path / "alone"
    result = invoke(*base, "--out", alone, "--sets", "paraphrase-overlap", "--size", "10")
    assert result.exit_code == 0, result.output
    assert (alone / "paraphrase-overlap.csv").read_bytes() == (
        out / "paraphrase-overlap.csv"
    ).read_bytes()
    paws = tmp_path / "paws.tsv"
    pd.DataFrame(
        {
            "id": range(12),
            "sentence1": [f"Flights from York to Leeds on day {i}." for i in range(12)],
            "sentence2": [f"Flights from Leeds to York on day {i}." for i in range(12)],
            "label": [0, 1] * 6,
        }
    ).to_csv(paws, sep="\t", index=False)
    out = tmp_path / "paws"
    result = invoke(
        *base, "--out", out, "--sets", "paraphrase-overlap", "--size", "8", "--paws", paws
    )
    assert result.exit_code == 0, result.output
    overlap = pd.read_csv(out / "paraphrase-overlap.csv")
    assert overlap["text"].str.startswith("Flights from York").all()
    assert (overlap["overlap"] == 1.0).all() and len(overlap) == 8


def test_refusals(tmp_path):
    train = write_nli(tmp_path)
    sentiment = tmp_path / "sst.csv"
    pd.DataFrame(
        {"text": [f"Fine film {i}." for i in range(20)], "label": ["pos", "neg"] * 10}
    ).to_csv(sentiment, index=False)
    single = ["build", "suite", "--train", sentiment, "--out", tmp_path / "out"]
    assert_refused(tmp_path, "The lexical-overlap set is NLI", *single, "--sets", "lexical-overlap")
    assert_refused(tmp_path, "The negation set needs paired inputs", *single, "--sets", "negation")
    assert_refused(
        tmp_path,
        "The 'sets' parameter must be one of",
        *suite_args(train, tmp_path / "out", "--sets", "negaton"),
    )
    assert_refused(
        tmp_path,
        "needs 334 rows labelled",
        *suite_args(train, tmp_path / "out", "--sets", "standard", "--size", "1000"),
    )
    assert_refused(
        tmp_path, "The sentiment-negation set appends",
        *suite_args(train, tmp_path / "out", "--sets", "sentiment-negation"),
    )  # fmt: skip
    assert_refused(
        tmp_path, "--paws applies to the paraphrase-overlap set",
        *suite_args(train, tmp_path / "out", "--sets", "standard", "--paws", train),
    )  # fmt: skip
    assert_refused(
        tmp_path, "Missing option '--sets'. See 'shortcutlab build suite --help'.",
        *suite_args(train, tmp_path / "out"),
    )  # fmt: skip
    assert_refused(
        tmp_path, "--strength is an option of 'shortcutlab build maze', not of 'build suite'.",
        *suite_args(train, tmp_path / "out", "--sets", "standard", "--strength", "0.5"),
    )  # fmt: skip


@pytest.mark.skipif(not MNLI.is_file(), reason="real MultiNLI dev set not present")
def test_real_mnli_suite(tmp_path):
    out = tmp_path / "mnli"
    sets = "standard,negation,position,style,lexical-overlap,subsequence,constituent"
    result = invoke(*suite_args(MNLI, out, "--sets", sets))
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    for name in sets.split(","):
        assert manifest["splits"][name]["rows"] == 3000
    assert manifest["splits"]["standard"]["label_counts"] == {
        "contradiction": 1000, "entailment": 1000, "neutral": 1000,
    }  # fmt: skip
    negation = pd.read_csv(out / "negation.csv", keep_default_na=False)
    assert negation.apply(lambda r: r["tautology"] in r["text_pair"], axis=1).all()


def test_style_through_the_file_rewriter(tmp_path):
    train = write_nli(tmp_path)
    frame = nli_frame()
    rewrites = tmp_path / "bible.csv"
    pd.DataFrame(
        {
            "row_id": range(len(frame)),
            "text": frame["premise"],
            "rewritten": "Verily, " + frame["premise"],
        }
    ).to_csv(rewrites, index=False)
    out = tmp_path / "out"
    option = f"rewrites={{bible: {rewrites}}}"
    result = invoke(
        *suite_args(
            train,
            out,
            "--sets",
            "style",
            "--size",
            "30",
            "--rewriter",
            "file",
            "--rewriter-option",
            option,
        )
    )
    assert result.exit_code == 0, result.output
    style = pd.read_csv(out / "style.csv")
    originals = frame.loc[style["source_row_id"], "premise"].to_numpy()
    assert (style["text"].to_numpy() == ("Verily, " + originals)).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["splits"]["style"]["source"]["path"] == str(rewrites)
