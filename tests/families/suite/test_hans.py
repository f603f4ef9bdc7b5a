"""The HANS-style sets as written by ``build suite``: sizes, balance, and the property each
heuristic's non-entailed half must have, checked on the written text."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.conftest import folder_bytes
from tests.families.suite.suite_helpers import build_suite_folder, suite_args, words, write_nli

HEURISTIC_SETS = ("lexical-overlap", "subsequence", "constituent")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return build_suite_folder(tmp_path_factory.mktemp("hans"), HEURISTIC_SETS)


@pytest.mark.parametrize("name", HEURISTIC_SETS)
def test_3000_rows_with_balanced_labels_and_subcases(generated, name):
    frame = generated[2][name]
    assert len(frame) == 3000
    assert frame["label"].value_counts().to_dict() == {"entailment": 1500, "non-entailment": 1500}
    per_subcase = frame.groupby("subcase")["label"].agg(["size", "nunique", "first"])
    assert (per_subcase["size"] == 300).all() and (per_subcase["nunique"] == 1).all()
    halves = per_subcase["first"].value_counts()
    assert halves["entailment"] >= 5 and halves["non-entailment"] >= 5
    assert (frame["heuristic"] == name).all()
    assert not frame.duplicated(["text", "text_pair"]).any()


def test_lexical_overlap_non_entailed_hypothesis_words_all_in_premise(generated):
    frame = generated[2]["lexical-overlap"]
    rows = frame[frame["label"] == "non-entailment"]
    for premise, hypothesis in zip(rows["text"], rows["text_pair"], strict=True):
        assert set(words(hypothesis)) <= set(words(premise)), (premise, hypothesis)
        assert words(hypothesis) != words(premise)


def test_subsequence_hypotheses_are_contiguous_in_the_premise(generated):
    frame = generated[2]["subsequence"]
    for premise, hypothesis in zip(frame["text"], frame["text_pair"], strict=True):
        assert f" {' '.join(words(hypothesis))} " in f" {' '.join(words(premise))} "


def test_constituent_hypotheses_are_clauses_of_the_premise(generated):
    frame = generated[2]["constituent"]
    for premise, hypothesis in zip(frame["text"], frame["text_pair"], strict=True):
        assert hypothesis.rstrip(".").lower() in premise.lower()


def subcase_rows(generated, heuristic: str, subcase: str) -> pd.DataFrame:
    frame = generated[2][heuristic]
    rows = frame[frame["subcase"] == subcase]
    assert len(rows) == 300
    return rows


# Judged by hand, not taken from the generator: verbs that keep their sense without an object
# ("While the author watched, the artist shouted."), and verbs that take a person or a clause.
DROPS_ITS_OBJECT = {"called", "visited", "followed", "watched", "helped", "left", "paid"}
PERSON_OR_CLAUSE = {"believed", "suspected", "imagined", "heard", "forgot", "knew"}


def test_np_z_garden_path_verb_can_stand_without_its_object(generated):
    rows = subcase_rows(generated, "subsequence", "sn_np_z")
    for premise, hypothesis in zip(rows["text"], rows["text_pair"], strict=True):
        # "While the author watched the artist shouted." -> "The author watched the artist."
        opener, _, _, verb, *_ = words(premise)
        assert opener in {"while", "as", "when"} and verb in DROPS_ITS_OBJECT, premise
        assert words(hypothesis)[2] == verb


def test_np_s_verb_takes_a_person_object_and_a_clause(generated):
    rows = subcase_rows(generated, "subsequence", "sn_np_s")
    for premise, hypothesis in zip(rows["text"], rows["text_pair"], strict=True):
        # "The doctor heard the singer visited the actor." -> "The doctor heard the singer."
        assert len(words(hypothesis)) == 5 and words(hypothesis)[2] in PERSON_OR_CLAUSE, hypothesis
        assert words(premise)[:5] == words(hypothesis)


def test_sentence_initial_adverbs_are_ones_that_open_a_sentence(generated):
    frame = generated[2]["constituent"]
    rows = frame[frame["subcase"].isin(["cn_adverb", "ce_adverb"])]
    openers = {text.split(" the ")[0].lower() for text in rows["text"]}
    assert openers <= {
        "perhaps", "maybe", "probably", "supposedly", "hopefully",
        "certainly", "clearly", "of course", "undoubtedly", "obviously",
    }  # fmt: skip


def test_same_seed_same_bytes_other_seed_differs(generated, tmp_path):
    train, out, _ = generated
    again = tmp_path / "again"
    assert invoke(*suite_args(train, again, "--sets", ",".join(HEURISTIC_SETS))).exit_code == 0
    assert folder_bytes(again) == folder_bytes(out)
    other = tmp_path / "other"
    assert (
        invoke(*suite_args(train, other, "--sets", "lexical-overlap", "--seed", "1")).exit_code == 0
    )
    assert (other / "lexical-overlap.csv").read_bytes() != (
        out / "lexical-overlap.csv"
    ).read_bytes()


def write_official(path, rows_per_subcase: int = 4) -> None:
    """A file in the official HANS layout (two sub-cases per half and heuristic)."""
    records = []
    for heuristic in ("lexical_overlap", "subsequence", "constituent"):
        for label in ("entailment", "non-entailment"):
            for sub in range(2):
                for i in range(rows_per_subcase):
                    records.append(
                        {
                            "gold_label": label,
                            "sentence1_binary_parse": "( x )",
                            "sentence2_binary_parse": "( y )",
                            "sentence1_parse": "(ROOT x)",
                            "sentence2_parse": "(ROOT y)",
                            "sentence1": f"P {heuristic} {label} {sub} {i} .",
                            "sentence2": f"H {heuristic} {label} {sub} {i} .",
                            "pairID": f"ex{len(records)}",
                            "heuristic": heuristic,
                            "subcase": f"{label[:3]}_{sub}",
                            "template": f"temp{sub}",
                        }
                    )
    pd.DataFrame(records).to_csv(path, sep="\t", index=False)


def test_official_hans_file_is_sampled_balanced(tmp_path):
    train = write_nli(tmp_path)
    hans = tmp_path / "heuristics_evaluation_set.txt"
    write_official(hans)
    out = tmp_path / "suite"
    result = invoke(
        *suite_args(train, out, "--sets", "subsequence", "--size", "12", "--hans", hans)
    )
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out / "subsequence.csv")
    assert frame["subcase"].value_counts().to_dict() == {
        "ent_0": 3, "ent_1": 3, "non_0": 3, "non_1": 3,
    }  # fmt: skip
    assert frame["text"].str.startswith("P subsequence").all()
    assert (frame["label"].str.startswith("non") == frame["subcase"].str.startswith("non")).all()


def test_official_hans_file_errors(tmp_path):
    train = write_nli(tmp_path)
    hans = tmp_path / "hans.txt"
    write_official(hans)
    assert_refused(
        tmp_path, "has 4 rows of sub-case",
        *suite_args(train, tmp_path / "out", "--sets", "constituent", "--size", "40", "--hans", hans),
    )  # fmt: skip
    broken = tmp_path / "broken.txt"
    pd.read_csv(hans, sep="\t").drop(columns=["subcase"]).to_csv(broken, sep="\t", index=False)
    assert_refused(
        tmp_path, "lacks the column(s) subcase",
        *suite_args(train, tmp_path / "out", "--sets", "constituent", "--hans", broken),
    )  # fmt: skip
