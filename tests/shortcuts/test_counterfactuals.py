from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.shortcuts.counterfactuals import (
    cat_augment,
    counterfactual_donors,
    counterfactual_frame,
    resolve_default_label,
    write_check,
)


def _frame() -> pd.DataFrame:
    premises = ["p0", "p1", "p1", "p2", "p3", "p4", "p5", "p6"]  # rows 1 and 2 share x1
    labels = ["entailment", "neutral", "contradiction", "neutral"] * 2
    return pd.DataFrame(
        {
            "row_id": np.arange(10, 18),
            "text": premises,
            "text_pair": [f"h{i}" for i in range(8)],
            "label": labels,
        }
    )


def test_donors_are_never_the_row_nor_a_row_with_the_same_first_text():
    firsts = ["same"] * 30 + [f"other {i}" for i in range(10)]
    donors = counterfactual_donors(firsts, k=50, seed=3)
    texts = np.asarray(firsts)
    assert donors.shape == (50, 40)
    assert not (donors == np.arange(40)).any()
    assert not (texts[donors] == texts).any()


def test_donors_are_seeded_and_sets_do_not_depend_on_k():
    firsts = [f"p{i}" for i in range(100)]
    five = counterfactual_donors(firsts, k=5, seed=7)
    assert np.array_equal(five, counterfactual_donors(firsts, k=5, seed=7))
    assert np.array_equal(five, counterfactual_donors(firsts, k=8, seed=7)[:5])
    assert not np.array_equal(five, counterfactual_donors(firsts, k=5, seed=8))


def test_donors_cover_the_other_rows_uniformly():
    donors = counterfactual_donors([f"p{i}" for i in range(4)], k=4000, seed=0)[:, 0]
    counts = np.bincount(donors, minlength=4)
    assert counts[0] == 0
    # Each other row has p = 1/3; 4 binomial standard deviations of 4000 draws is about 119.
    assert np.all(np.abs(counts[1:] - 4000 / 3) < 120)


def test_donors_need_two_different_first_texts():
    with pytest.raises(DataError, match="at least two different first texts"):
        counterfactual_donors(["same", "same", "same"], k=1, seed=0)
    with pytest.raises(ConfigError, match="'k' parameter"):
        counterfactual_donors(["a", "b"], k=0, seed=0)


def test_counterfactual_frame_swaps_only_the_chosen_part():
    frame = _frame()
    donors = np.array([3, 0, 0, 4, 1, 2, 7, 6])
    swapped = counterfactual_frame(frame, donors, np.array([0, 4]), "text")
    assert swapped["text"].tolist() == ["p2", "p1"]
    assert swapped["text_pair"].tolist() == ["h0", "h4"]
    assert swapped["donor_row_id"].tolist() == [13, 11]
    flipped = counterfactual_frame(frame, donors, np.array([0]), "text_pair")
    assert flipped["text"].tolist() == ["p0"] and flipped["text_pair"].tolist() == ["h3"]


@pytest.mark.parametrize(
    "labels, given, expected",
    [
        (["contradiction", "entailment", "neutral"], None, "neutral"),
        (["entailment", "not_entailment"], None, "not_entailment"),
        (["paraphrase", "not-paraphrase"], None, "not-paraphrase"),
        (["answer", "no-answer"], "qa", "no-answer"),
        (["entailment", "neutral"], "neutral", "neutral"),
        ([0, 1, 2], "1", 1),
        (["Entailment", "Neutral", "Contradiction"], "nli3", "Neutral"),
    ],
)
def test_default_label_from_preset_value_or_label_set(labels, given, expected):
    assert resolve_default_label(labels, given) == expected


def test_default_label_errors_list_the_labels():
    with pytest.raises(ConfigError, match=r"'maybe' is not among the labels \(yes, no\)"):
        resolve_default_label(["yes", "no"], "maybe")
    with pytest.raises(
        ConfigError, match=r"preset 'nli2' means .* not among the labels \(yes, no\)"
    ):
        resolve_default_label(["yes", "no"], "nli2")
    with pytest.raises(ConfigError, match=r"Cannot infer .* labels \(entailment, neutral\)"):
        resolve_default_label(["entailment", "neutral"])


def test_augmentation_adds_one_default_labelled_counterfactual_per_non_default_row():
    frame = _frame()
    augmented = cat_augment(frame, default_label="neutral", seed=0)
    original, added = augmented.iloc[: len(frame)], augmented.iloc[len(frame) :]
    pd.testing.assert_frame_equal(original.drop(columns="cat_source_row_id"), frame)
    sources = frame.set_index("row_id").loc[added["cat_source_row_id"].astype(int)]
    assert (sources["label"] != "neutral").all() and len(added) == 4
    assert (added["label"] == "neutral").all()
    assert added["text_pair"].tolist() == sources["text_pair"].tolist()
    assert (added["text"].to_numpy() != sources["text"].to_numpy()).all()
    assert set(added["text"]) <= set(frame["text"])
    assert added["row_id"].tolist() == [18, 19, 20, 21]
    again = cat_augment(frame, default_label="neutral", seed=0)
    pd.testing.assert_frame_equal(augmented, again)


def test_augmentation_needs_pairs():
    with pytest.raises(DataError, match=r"with text_pair_col=\.\.\.$"):
        cat_augment(_frame().drop(columns="text_pair"), default_label="neutral", seed=0)


def test_check_file_holds_the_counterfactual_pairs_to_judge(tmp_path):
    frame = _frame()
    donors = np.array([3, 0, 0, 4, 1, 2, 7, 6])
    predicted = ["entailment", "neutral", "contradiction", "neutral"] * 2
    written = write_check(
        frame,
        donors,
        kept=np.array([0, 2, 4]),
        predicted=predicted,
        counterfactual_predicted=["neutral"] * 8,
        default_label="neutral",
        size=2,
        seed=0,
        replace="text",
        path=tmp_path / "check.csv",
    )
    table = pd.read_csv(tmp_path / "check.csv", keep_default_na=False)
    assert written == 2 and len(table) == 2
    assert set(table["row_id"]) <= {10, 12, 14}
    for _, row in table.iterrows():
        position = int(row["row_id"]) - 10
        assert row["text"] == frame["text"][donors[position]]
        assert row["replaced_text"] == frame["text"][position]
        assert row["text_pair"] == frame["text_pair"][position]
        assert row["assumption_holds"] == "" and row["default_label"] == "neutral"
