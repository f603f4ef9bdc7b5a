from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.leakage import find_leakage

SPACE = LabelSpace(("neg", "pos"))
LONG = (
    "the service at this little place was slow but the food made up for it and we will "
    "certainly come back next summer with the whole family"
)


def table(texts: list[str], labels: list[int], pairs: list[str] | None = None) -> AuditInputs:
    return AuditInputs(np.arange(len(texts)) + 100, texts, np.array(labels), SPACE, pairs)


def filler(n: int) -> list[str]:
    return [
        f"unrelated comment number {i} about topic {i * 7} and more words here" for i in range(n)
    ]


def test_exact_duplicates_ignore_case_and_spacing_and_report_conflicts() -> None:
    train = table(["Great  movie, loved it", "terrible plot", *filler(20)], [1, 0] + [0] * 20)
    test = table(["great movie, LOVED it", "Terrible   plot", "something new entirely"], [1, 1, 0])
    found = find_leakage(train, test)
    assert [(p.train_row, p.test_row, p.exact, p.similarity) for p in found.exact] == [
        (0, 0, True, 1.0),
        (1, 1, True, 1.0),
    ]
    assert found.near == []
    rows = {row["candidate"]: row for row in found.summary_rows(SPACE)}
    detail = rows["exact train/test duplicates"]["detail"]
    assert detail.startswith("2 of 3 test rows (66.7 %) have a training row with the same text")
    assert "1 of them with another label (most often neg in train, pos in test: 1)" in detail
    assert rows["exact train/test duplicates"]["kind"] == "leakage"
    assert "label" not in rows["exact train/test duplicates"]


def test_exact_partner_prefers_a_training_copy_with_the_same_label() -> None:
    train = table(["same text", "same text", *filler(5)], [0, 1] + [0] * 5)
    test = table(["Same text"], [1])
    (pair,) = find_leakage(train, test).exact
    assert (pair.train_row, pair.conflict) == (1, False)


def test_near_duplicate_is_found_with_its_true_jaccard_and_unrelated_rows_are_not() -> None:
    words = LONG.split()
    changed = " ".join(words[:-1] + ["autumn"])  # last word: one 3-shingle of n - 2 differs
    far = " ".join(words[:12] + ["something"] * 3 + words[15:])  # three words: below 0.8
    train = table([LONG, *filler(50)], [1] + [0] * 50)
    test = table([changed, far, "nothing like the others at all, truly"], [0, 1, 1])
    found = find_leakage(train, test, threshold=0.8)
    n = len(words) - 2  # 3-shingles per text
    assert [(p.train_row, p.test_row, p.exact) for p in found.near] == [(0, 0, False)]
    assert found.near[0].similarity == pytest.approx((n - 1) / (n + 1))
    assert found.near[0].conflict
    detail = {r["candidate"]: r["detail"] for r in found.summary_rows(SPACE)}[
        "near train/test duplicates"
    ]
    assert detail.startswith("1 of 3 test rows (33.3 %) have a training row with Jaccard ≥ 0.8")


def test_a_lower_threshold_finds_the_less_similar_row_too() -> None:
    words = LONG.split()
    far = " ".join(words[:12] + ["something"] * 3 + words[15:])
    found = find_leakage(table([LONG, *filler(10)], [1] * 11), table([far], [1]), threshold=0.5)
    assert [(p.train_row, p.test_row) for p in found.near] == [(0, 0)]
    assert 0.5 <= found.near[0].similarity < 0.8


def test_exact_pairs_are_not_repeated_as_near_pairs() -> None:
    found = find_leakage(table([LONG], [1]), table([LONG.upper()], [1]))
    assert len(found.exact) == 1 and found.near == []


def test_pairs_are_duplicates_only_when_both_parts_match() -> None:
    premise = "A man is playing a guitar on the stage tonight"
    train = table([premise, premise], [0, 1], ["He plays music.", "Nobody is playing."])
    test = table([premise.lower(), premise], [0, 1], ["he plays music.", "A woman sings."])
    found = find_leakage(train, test)
    assert [(p.train_row, p.test_row) for p in found.exact] == [(0, 0)]
    assert found.near == []  # the hypotheses differ: the pair's shingles are far apart


def test_without_test_only_training_duplicates_and_conflicts() -> None:
    train = table(["ok then", "OK then", "ok  then", "fine", "fine", "other"], [0, 1, 0, 1, 1, 0])
    found = find_leakage(train, None)
    assert found.exact == [] and found.near == []
    assert found.train_conflicts == [(0, 1), (1, 2)]
    rows = found.summary_rows(SPACE)
    assert [row["candidate"] for row in rows] == ["training duplicates with different labels"]
    assert rows[0]["support"] == 3
    assert rows[0]["detail"] == (
        "3 training rows repeat an earlier training row's text; "
        "3 rows share a text with a row of another label"
    )
    data = found.to_json(train, None)
    assert data["exact"] is None and data["near"] is None
    assert data["train_conflicts"]["examples"][0]["rows"] == [
        {"row_id": 100, "text": "ok then", "label": "neg"},
        {"row_id": 101, "text": "OK then", "label": "pos"},
    ]


def test_to_json_lists_conflicts_first_with_texts_and_label_values() -> None:
    train = table(["alpha beta", "gamma delta", *filler(5)], [0, 1] + [0] * 5)
    test = table(["alpha beta", "gamma delta"], [0, 0])
    data = find_leakage(train, test).to_json(train, test, examples=1)
    assert data["exact"]["rows"] == 2 and data["exact"]["conflicts"] == 1
    (example,) = data["exact"]["examples"]
    assert example["conflict"] is True
    assert example["train"] == {"row_id": 101, "text": "gamma delta", "label": "pos"}
    assert example["test"] == {"row_id": 101, "text": "gamma delta", "label": "neg"}
    json.dumps(data)  # plain JSON types only


def test_same_seed_same_output() -> None:
    words = LONG.split()
    train = table([LONG, *filler(40)], [1] + [0] * 40)
    test = table([" ".join(words[:-1] + ["autumn"]), *filler(3)], [1, 0, 0, 1])
    first = json.dumps(find_leakage(train, test, seed=3).to_json(train, test))
    assert first == json.dumps(find_leakage(train, test, seed=3).to_json(train, test))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"threshold": 0.0},
            r"'threshold' parameter of find_leakage must be a float in \(0, 1\)\. Got 0\.0",
        ),
        ({"threshold": 1.0}, r"must be a float in \(0, 1\)\. Got 1\.0 instead"),
        ({"num_perm": 1}, r"'num_perm' parameter of find_leakage must be an integer >= 2\. Got 1"),
    ],
)
def test_bad_parameters_are_one_line_errors(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        find_leakage(table(["a"], [0]), None, **options)


def test_a_single_text_test_table_against_pairs_is_a_data_error() -> None:
    with pytest.raises(DataError, match="must both be pairs or both single texts"):
        find_leakage(table(["a"], [0], ["b"]), table(["a"], [0]))
