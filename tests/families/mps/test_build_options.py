"""MPS build options (label sets for many classes, more groups than labels, a given mapping, a
size, a separate test table, annotators that read columns) and every refused input."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.errors import ConfigError, DataError, UnknownComponentError
from shortcutlab.families.mps.build import build_mps_benchmark
from tests.conftest import THREE, Topic, negation_rows


def read(folder, split):
    return pd.read_csv(folder / f"{split}.csv", keep_default_na=False)


def dominant_shares(frame, column, dominant):
    shares = {}
    for value, labels in dominant.items():
        group = frame[frame[column] == value]["label"]
        shares[value] = group.isin(labels).mean()
    return shares


def test_many_labels_take_the_dominance_as_sets_of_similar_size(tmp_path):
    cells = {}
    for label in range(12):
        cells[(True, label)] = 20 + 4 * label
        cells[(False, label)] = 60 + 6 * (11 - label)
    pool = negation_rows(cells, seed=1)
    out = tmp_path / "many"
    build_mps_benchmark(pool, attribute="negation", inputs=InputOptions(out=out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dominance"] == 0.75  # A.8: 10 or more labels, combined over a set
    sets = list(manifest["dominant"].values())
    assert [len(s) for s in sets] == [6, 6] and not set(sets[0]) & set(sets[1])
    # Sets of labels of similar pool size: the six largest labels together.
    sizes = pool["label"].value_counts()
    largest = set(sizes.sort_values(ascending=False, kind="stable").index[:6])
    assert largest in (set(sets[0]), set(sets[1]))
    shares = dominant_shares(read(out, "imbalanced"), "negation", manifest["dominant"])
    assert all(share >= 0.75 for share in shares.values()), shares

    smaller = build_mps_benchmark(pool, dominant_labels=3)
    assert [len(s) for s in smaller.manifest["dominant"].values()] == [3, 3]
    # Eight of twelve labels hold 2/3 of the rows with no imbalance at all: 0.6 is no dominance.
    with pytest.raises(ConfigError, match=r"\(0.6\) must exceed 8/12"):
        build_mps_benchmark(pool, dominant_labels=8, dominance=0.6)


def test_more_groups_than_labels_tie_each_label_to_several_groups(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for topic, lean in zip(["w", "x", "y", "z"], [0.8, 0.7, 0.3, 0.2], strict=True):
        for _ in range(150):
            rows.append(
                {"text": f"a review {len(rows)}", "label": int(rng.random() < lean), "topic": topic}
            )
    pool = pd.DataFrame(rows)
    pool.loc[:9, "topic"] = ""  # rows without a value are left out and counted
    out = tmp_path / "topics"
    build_mps_benchmark(pool, attribute=Topic(), inputs=InputOptions(out=out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dominant"] == {"w": [1], "x": [1], "y": [0], "z": [0]}
    assert manifest["excluded"]["train"]["no_value"] == 10
    imbalanced = read(out, "imbalanced")
    assert list(imbalanced.columns) == ["row_id", "text", "label", "topic", "group"]
    assert set(imbalanced["topic"]) == {"w", "x", "y", "z"}
    shares = dominant_shares(imbalanced, "topic", manifest["dominant"])
    assert all(share >= 0.75 for share in shares.values()), shares


def test_given_mapping_and_size(tmp_path):
    pool = negation_rows(THREE, seed=2)
    out = tmp_path / "given"
    bench = build_mps_benchmark(
        pool,
        dominant={"with_negation": "c", "without_negation": ["a"]},
        size=200,
        inputs=InputOptions(out=out),
    )
    manifest = bench.manifest
    assert manifest["dominant"] == {"without_negation": ["a"], "with_negation": ["c"]}
    imbalanced, balanced = read(out, "imbalanced"), read(out, "balanced")
    assert len(imbalanced) == len(balanced) == 200
    shares = dominant_shares(imbalanced, "negation", manifest["dominant"])
    assert all(share >= 0.5 for share in shares.values()), shares
    # The size is spread over the groups in proportion to their largest feasible sizes.
    largest = manifest["sizes"]["largest_per_value"]
    for value, rows in imbalanced["negation"].value_counts().items():
        assert abs(rows - 200 * largest[value] / sum(largest.values())) < 1


def test_size_too_large_names_the_largest_feasible_size(tmp_path):
    pool = negation_rows(THREE, seed=2)
    largest = build_mps_benchmark(pool).manifest["sizes"]["imbalanced"]
    with pytest.raises(DataError, match=rf"largest feasible size is {largest} .*with_negation: a "):
        build_mps_benchmark(pool, size=largest + 1, inputs=InputOptions(out=tmp_path / "big"))
    assert not (tmp_path / "big").exists()
    assert len(build_mps_benchmark(pool, size=largest)["imbalanced"]) == largest


def test_test_table_supplies_the_test_set(tmp_path):
    pool = negation_rows(THREE, seed=2)
    test = negation_rows(
        {(True, "a"): 30, (False, "a"): 10, (True, "b"): 8, (False, "b"): 20, (False, "c"): 25},
        seed=9,
    )
    test["text"] = "other " + test["text"]
    # The pool holds some of the test table's texts in another spelling: they must leave it.
    pool = pd.concat(
        [pool, test.head(20).assign(text=lambda f: f["text"].str.upper())], ignore_index=True
    )
    out = tmp_path / "with-test"
    build_mps_benchmark(pool, test, inputs=InputOptions(out=out))
    manifest = json.loads((out / "manifest.json").read_text())
    drawn = read(out, "test")
    assert drawn["label"].value_counts().tolist() == [25, 25, 25]  # the rarest label: c
    assert (test.loc[drawn["row_id"], "text"].values == drawn["text"].values).all()
    drawn_texts = set(drawn["text"].str.lower())
    for split in ("imbalanced", "balanced"):
        assert not set(read(out, split)["text"].str.lower()) & drawn_texts
    shared = pool["text"].str.lower().isin(drawn_texts).sum()
    assert manifest["excluded"]["train"]["shares_text_with_held_out"] == shared > 0
    assert manifest["inputs"]["test"]["rows_read"] == len(test)


def test_annotators_that_read_columns_get_every_input_column(tmp_path):
    pool = negation_rows(THREE, seed=2).assign(topic=lambda f: np.where(f.index % 2, "odd", "even"))
    bench = build_mps_benchmark(pool, attribute=Topic())
    assert set(bench["imbalanced"]["topic"]) == {"odd", "even"}
    with pytest.raises(
        DataError, match="Column 'topic' not found. Columns found: row_id, text, label"
    ):
        build_mps_benchmark(
            pool.drop(columns="topic"), attribute=Topic(), inputs=InputOptions(out=tmp_path / "x")
        )
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"dominance": 0.3}, ConfigError, r"must be a share in \(1/3, 1\]"),
        ({"dominance": 1.2}, ConfigError, r"\(1/3, 1\]"),
        ({"attribute": "negaton"}, UnknownComponentError, "Did you mean 'negation'"),
        (
            {"values": ["with_negation", "maybe"]},
            ConfigError,
            r"'maybe', which no row has. Values found \(rows\): without_negation \(700\), with_negation \(210\)",
        ),
        ({"top_values": 1}, DataError, "one attribute group"),
        (
            {"attribute": "question"},
            DataError,
            r"one attribute group \(values found, rows: without_question \(910\)\)",
        ),
        (
            {"dominant": {"with_negation": "a"}},
            ConfigError,
            "gives no label for value\\(s\\) 'without_negation'",
        ),
        (
            {"dominant": {"with_negation": "z", "without_negation": "a"}},
            ConfigError,
            "from: a, b, c",
        ),
        ({"test_size": 2}, ConfigError, "less than one row for each of the 3 labels"),
        ({"test_size": 5000}, DataError, "largest feasible size is 810"),
        ({"size": 0}, ConfigError, "positive number of rows"),
        (
            {"attribute_options": {"lexicon": "paper"}, "attribute": Topic()},
            ConfigError,
            "already configured",
        ),
    ],
)
def test_refused_options_write_nothing(tmp_path, options, error, message):
    pool = negation_rows(THREE, seed=2)
    with pytest.raises(error, match=message):
        build_mps_benchmark(pool, inputs=InputOptions(out=tmp_path / "out"), **options)
    assert list(tmp_path.iterdir()) == []


def test_a_group_without_its_dominant_label_is_refused():
    pool = negation_rows({(True, "a"): 40, (False, "a"): 60, (False, "b"): 80}, seed=1)
    with pytest.raises(DataError, match="'with_negation' has no rows of its dominant label"):
        build_mps_benchmark(
            pool, dominant={"with_negation": "b", "without_negation": "a"}, test_size=10
        )


def test_test_table_labels_must_match_the_pool():
    pool = negation_rows(THREE, seed=2)
    missing = negation_rows({(True, "a"): 5, (False, "b"): 5}, seed=1)
    with pytest.raises(
        DataError, match="no rows of label\\(s\\) c, so its test set cannot be label-balanced"
    ):
        build_mps_benchmark(pool, missing)
    unseen = negation_rows(
        {(True, "a"): 5, (False, "b"): 5, (False, "c"): 5, (False, "d"): 5}, seed=1
    )
    with pytest.raises(DataError, match="label\\(s\\) d that never occur in the training pool"):
        build_mps_benchmark(pool, unseen)


def test_a_group_balanced_cannot_even_out_is_named_and_a_smaller_size_fixes_it(tmp_path):
    # Negated rows: 200 of label 0, 20 of label 1; once negation is tied to 0 at 0.75, the
    # largest group uses every row of label 1, so Balanced there is as skewed as Imbalanced.
    pool = negation_rows({(True, 0): 200, (True, 1): 20, (False, 0): 300, (False, 1): 300})
    with pytest.warns(UserWarning, match="as skewed as Imbalanced in the group 'with_negation'"):
        build_mps_benchmark(
            pool, attribute="negation", test_size=40, inputs=InputOptions(out=tmp_path / "full")
        )
    full = read(tmp_path / "full", "balanced")
    negated = full[full["negation"] == "with_negation"]["label"]
    assert negated.value_counts(normalize=True).max() >= 0.74
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="Balanced is as skewed")
        build_mps_benchmark(
            pool,
            attribute="negation",
            test_size=40,
            size=200,
            inputs=InputOptions(out=tmp_path / "small"),
        )
    small = read(tmp_path / "small", "balanced")
    negated = small[small["negation"] == "with_negation"]["label"]
    assert negated.value_counts().tolist()[0] - negated.value_counts().tolist()[-1] <= 1


def test_size_even_keeps_every_group_exactly_uniform_in_balanced(tmp_path):
    pool = negation_rows({(True, 0): 200, (True, 1): 20, (False, 0): 300, (False, 1): 300})
    build_mps_benchmark(
        pool,
        attribute="negation",
        test_size=40,
        size="even",
        inputs=InputOptions(out=tmp_path / "e"),
    )
    balanced = read(tmp_path / "e", "balanced")
    for _, labels in balanced.groupby("negation")["label"]:
        assert labels.value_counts().nunique() == 1 and labels.nunique() == 2
    imbalanced = read(tmp_path / "e", "imbalanced")
    assert imbalanced.groupby("negation").size().equals(balanced.groupby("negation").size())
    lacking = negation_rows({(True, 0): 50, (False, 0): 50, (False, 1): 50})
    with pytest.raises(DataError, match="size='even' needs every label in every group"):
        build_mps_benchmark(lacking, attribute="negation", test_size=10, size="even")


def test_annotate_on_the_second_text_of_a_pair(tmp_path):
    rows = pd.DataFrame(
        {
            "premise": [f"premise {i} never mentioned" for i in range(240)],
            "hypothesis": [("it is not " if i % 4 == 0 else "it is ") + str(i) for i in range(240)],
            "label": ["c" if i % 3 == 0 else "e" for i in range(240)],
        }
    )
    build_mps_benchmark(
        rows,
        attribute="negation",
        annotate_on="text_pair",
        test_size=20,
        inputs=InputOptions(text_col="premise", text_pair_col="hypothesis", out=tmp_path / "nli"),
    )
    imbalanced = read(tmp_path / "nli", "imbalanced")
    negated = imbalanced["text_pair"].str.contains(" not ")
    assert (imbalanced["negation"] == "with_negation").eq(negated).all()
    with pytest.raises(ConfigError, match="needs paired inputs"):
        build_mps_benchmark(
            rows,
            attribute="negation",
            inputs=InputOptions(text_col="premise"),
            annotate_on="text_pair",
        )


def test_label_mix_matched_gives_imbalanced_the_label_prior_of_balanced(tmp_path):
    # Negation ties to label 0 and is rare: sized to their maxima the groups make Imbalanced
    # mostly label 1 overall, and a warning says δ would measure that prior too.
    pool = negation_rows({(True, 0): 150, (True, 1): 60, (False, 0): 400, (False, 1): 500})
    with pytest.warns(UserWarning, match="also learn different label priors"):
        build_mps_benchmark(
            pool, attribute="negation", test_size=40, inputs=InputOptions(out=tmp_path / "paper")
        )
    paper = read(tmp_path / "paper", "imbalanced")["label"].value_counts(normalize=True)
    assert paper[1] > 0.6
    build_mps_benchmark(
        pool,
        attribute="negation",
        test_size=40,
        label_mix="matched",
        inputs=InputOptions(out=tmp_path / "matched"),
    )
    matched = read(tmp_path / "matched", "imbalanced")
    shares = matched["label"].value_counts(normalize=True)
    assert abs(shares[0] - 0.5) < 0.01
    for _, group in matched.groupby("negation"):  # the dominance still holds per group
        assert group["label"].value_counts(normalize=True).max() >= 0.75
    manifest = json.loads((tmp_path / "matched" / "manifest.json").read_text())
    assert manifest["label_mix"]["imbalanced"] == {
        str(k): round(v, 4) for k, v in sorted(shares.items())
    }
    three = negation_rows(THREE)  # three labels, two groups: one label is dominant nowhere
    with pytest.raises(DataError, match="are dominant in no group"):
        build_mps_benchmark(three, attribute="negation", test_size=30, label_mix="matched")


def test_a_size_share_that_the_dominance_cannot_fill_is_rounded_down_not_a_crash(tmp_path):
    # d = 0.4 and a negated group holding labels 0 and 1 only: its feasible sizes skip 5, 7, 9,
    # ... (label 1 may not outnumber label 0), so a share of --size can land on an infeasible
    # size; it is rounded down to the next size the dominance fills exactly.
    cells = {(True, 0): 8, (True, 1): 10, (False, 0): 100, (False, 1): 100, (False, 2): 100}
    pool = negation_rows(cells)
    test = negation_rows({(n, label): 5 for n in (True, False) for label in range(3)}, seed=1)
    test["text"] = "test " + test["text"]
    build_mps_benchmark(
        pool,
        test,
        attribute="negation",
        dominance=0.4,
        dominant={"with_negation": 0, "without_negation": 1},
        size=146,
        inputs=InputOptions(out=tmp_path / "odd"),
    )
    imbalanced = read(tmp_path / "odd", "imbalanced")
    for value, group in imbalanced.groupby("negation"):
        dominant = 0 if value == "with_negation" else 1
        assert (group["label"] == dominant).sum() == -(-2 * len(group) // 5)  # ceil(0.4 n)
    assert len(imbalanced) <= 146
