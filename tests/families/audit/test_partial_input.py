from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import load_table
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.partial_input import partial_input_baselines
from tests.conftest import MNLI

SPACE = LabelSpace(("entailment", "neutral", "contradiction"))
CUES = ("someone did it", "maybe later somewhere", "nobody did not")  # one hypothesis cue per label
TOPICS = ["cooking", "sailing", "chess", "music", "tennis", "poetry", "farming", "trains"]


def hypothesis_cue_pairs(n: int, seed: int) -> AuditInputs:
    """The hypothesis names the label; the premise is noise independent of it."""
    rng = np.random.default_rng(seed)
    ranks = rng.integers(3, size=n)
    premises = [f"a story about {rng.choice(TOPICS)} number {i}" for i in range(n)]
    hypotheses = [f"{CUES[r]} {rng.choice(TOPICS)}" for r in ranks]
    return AuditInputs(np.arange(n), premises, ranks, SPACE, hypotheses)


def test_single_texts_have_no_partial_input_rows() -> None:
    single = AuditInputs(np.arange(4), ["a", "b", "c", "d"], np.array([0, 1, 2, 0]), SPACE)
    assert partial_input_baselines(single, None) == []


def test_hypothesis_alone_beats_majority_and_premise_alone_does_not() -> None:
    rows = {
        row["candidate"]: row for row in partial_input_baselines(hypothesis_cue_pairs(300, 0), None)
    }
    hypothesis, premise = rows["text_pair alone"], rows["text alone"]
    assert hypothesis["kind"] == "partial-input" and hypothesis["part"] == "text_pair"
    assert hypothesis["support"] == hypothesis["rows"] == 300
    assert hypothesis["accuracy"] > 0.95 and hypothesis["p_value"] < 1e-20
    assert (
        hypothesis["accuracy_low"] < hypothesis["accuracy"] <= hypothesis["accuracy_high"] + 1e-12
    )
    assert premise["accuracy"] < 0.5 and premise["p_value"] > 1e-3
    assert hypothesis["detail"].startswith(f"accuracy {hypothesis['accuracy']:.3f} [")
    assert (
        f"vs majority ({hypothesis['majority_label']}) {hypothesis['majority_accuracy']:.3f}, above"
        in hypothesis["detail"]
    )
    assert "5-fold cross-validation on train (grouped by shared text)" in hypothesis["detail"]


def test_with_an_evaluation_table_the_model_is_scored_on_it() -> None:
    train, test = hypothesis_cue_pairs(240, 1), hypothesis_cue_pairs(90, 2)
    rows = {row["part"]: row for row in partial_input_baselines(train, test)}
    assert rows["text_pair"]["rows"] == 90
    assert rows["text_pair"]["accuracy"] == 1.0
    majority = int(np.argmax(np.bincount(train.ranks, minlength=3)))
    assert rows["text_pair"]["majority_label"] == SPACE.values[majority]
    assert rows["text_pair"]["majority_accuracy"] == pytest.approx(np.mean(test.ranks == majority))
    assert "fitted on train, scored on test" in rows["text_pair"]["detail"]


def test_a_part_worse_than_the_majority_is_no_evidence_one_sided() -> None:
    # The test table moves every cue to the next label: the hypothesis-only model is wrong on
    # every row where the majority label is right a third of the time. A two-sided McNemar p
    # would be tiny; the scan's question (is the part better than the majority?) answers p = 1.
    train, test = hypothesis_cue_pairs(240, 1), hypothesis_cue_pairs(90, 2)
    moved = AuditInputs(test.row_ids, test.texts, (test.ranks + 1) % 3, SPACE, test.text_pairs)
    row = {row["part"]: row for row in partial_input_baselines(train, moved)}["text_pair"]
    assert row["accuracy"] == 0.0 and row["majority_accuracy"] > 0.2
    assert row["p_value"] == 1.0
    wrong = round(row["majority_accuracy"] * 90)
    assert (
        f"not above; one-sided exact McNemar p = 1 (0 of {wrong} discordant rows right only "
        "with the part; binomial, greater than half)" in row["detail"]
    )


def test_rows_sharing_a_premise_stay_in_one_fold() -> None:
    # MultiNLI's design: each premise once per label. Split across folds, a premise-only model
    # would learn the two other labels of the premise and be wrong on nearly every row.
    premises = [f"premise about {topic} {i}" for i in range(40) for topic in TOPICS[:1]]
    texts = [p for p in premises for _ in range(3)]
    ranks = np.array([0, 1, 2] * len(premises))
    hypotheses = [f"hypothesis {i}" for i in range(len(texts))]
    pairs = AuditInputs(np.arange(len(texts)), texts, ranks, SPACE, hypotheses)
    (premise_row,) = [r for r in partial_input_baselines(pairs, None) if r["part"] == "text"]
    assert premise_row["accuracy"] > 0.2


def test_same_seed_same_rows() -> None:
    data = hypothesis_cue_pairs(120, 3)
    assert partial_input_baselines(data, None, seed=4) == partial_input_baselines(
        data, None, seed=4
    )


def test_bad_folds_and_mismatched_tables_are_one_line_errors() -> None:
    data = hypothesis_cue_pairs(30, 0)
    with pytest.raises(
        ConfigError,
        match=r"'folds' parameter of partial_input_baselines must be an integer >= 2\. Got 1",
    ):
        partial_input_baselines(data, None, folds=1)
    single = AuditInputs(np.arange(3), ["a", "b", "c"], np.array([0, 1, 2]), SPACE)
    with pytest.raises(DataError, match="evaluation table has one text per row"):
        partial_input_baselines(data, single)
    few = AuditInputs(
        np.arange(4), ["a", "A", "a", "a"], np.array([0, 0, 1, 1]), SPACE, list("wxyz")
    )
    with pytest.raises(DataError, match="form only 1 such groups. Lower folds"):
        partial_input_baselines(few, None, folds=2)
    with pytest.raises(DataError, match="the most frequent label has 2. Lower folds"):
        partial_input_baselines(few, None, folds=3)


@pytest.mark.slow
@pytest.mark.skipif(not MNLI.is_file(), reason="MultiNLI dev-matched data not present")
def test_multinli_hypothesis_only_beats_majority() -> None:
    """Gururangan et al. (2018): the hypothesis alone predicts MultiNLI labels above chance."""
    loaded = load_table(
        MNLI, text_col="premise", text_pair_col="hypothesis", label_col="label"
    ).table
    rows = slice(0, 3000)
    labels = loaded.column("label").to_pylist()[rows]
    pairs = AuditInputs(
        np.asarray(loaded.column("row_id").to_pylist()[rows]),
        loaded.column("text").to_pylist()[rows],
        SPACE.ranks(labels),
        SPACE,
        loaded.column("text_pair").to_pylist()[rows],
    )
    result = {row["part"]: row for row in partial_input_baselines(pairs, None)}
    assert result["text_pair"]["accuracy"] > result["text_pair"]["majority_accuracy"] + 0.05
    assert result["text_pair"]["p_value"] < 1e-6
    assert result["text"]["accuracy"] < result["text_pair"]["accuracy"]
