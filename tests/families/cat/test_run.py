from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.data.loading import load_table
from shortcutlab.families.cat.run import CatConfig, run_cat, save_cat
from shortcutlab.families.cat.scoring import predict_sets
from tests.conftest import MNLI, folder_bytes
from tests.families.cat.cat_data import pair_table


def _tables(cue: bool):
    options = dict(text_col="premise", text_pair_col="hypothesis")
    return (
        load_table(pair_table(400, 1, cue=cue), **options).frame,
        load_table(pair_table(200, 2, cue=cue), **options).frame,
    )


class CountingModel:
    def __init__(self) -> None:
        self.batches: list[list] = []

    def predict_proba(self, inputs):
        self.batches.append(list(inputs))
        return np.array([[len(a) / 10, 1 - len(a) / 10] for a, _ in inputs])


def test_sets_are_scored_in_one_call_over_unique_inputs():
    model = CountingModel()
    sets = [[("aa", "x"), ("a", "x"), ("aa", "x")], [("a", "x"), ("aaa", "y")]]
    found, unique = predict_sets(model, sets)
    assert len(model.batches) == 1 and unique == 3
    assert sorted(model.batches[0]) == [("a", "x"), ("aa", "x"), ("aaa", "y")]
    assert found[0][:, 0].tolist() == pytest.approx([0.2, 0.1, 0.2])
    assert found[1][:, 0].tolist() == pytest.approx([0.1, 0.3])


def test_a_model_that_relates_the_parts_is_attentive_and_one_reading_x2_is_not():
    relation = run_cat(*_tables(cue=False), CatConfig(default_label="neutral")).results
    cue = run_cat(*_tables(cue=True), CatConfig(default_label="neutral")).results
    assert relation["attentiveness"]["mean"] > 0.9
    assert cue["attentiveness"]["mean"] < 0.1
    # 100 of the 200 test rows are entailment / contradiction: about those are kept.
    assert 90 <= relation["attentiveness"]["rows_kept"] <= 110
    assert 90 <= cue["attentiveness"]["rows_kept"] <= 110
    assert len(relation["attentiveness"]["per_set"]) == 5
    # The x2 cue predicts the label alone: the partial-input model beats the majority baseline.
    assert cue["baselines"]["partial_input"]["value"] == 1.0
    assert cue["baselines"]["partial_vs_majority"]["p_value"] < 1e-6
    assert relation["baselines"]["partial_input"]["value"] < 0.65


def test_augmentation_is_recorded_and_grows_the_training_rows():
    results = run_cat(*_tables(cue=True), CatConfig(default_label="neutral", augment=True)).results
    assert results["config"]["augment"] is True
    assert results["data"]["augmented_rows"] == 200  # one per non-neutral training row
    assert results["data"]["train_rows_fitted"] == 600


def test_same_inputs_give_byte_identical_results(tmp_path):
    config = CatConfig(default_label="neutral", k=3)
    for name in ("a", "b"):
        save_cat(run_cat(*_tables(cue=True), config), tmp_path / name, export_check=5)
    assert folder_bytes(tmp_path / "a") == folder_bytes(tmp_path / "b")
    results = json.loads((tmp_path / "a" / "results.json").read_text())
    assert results["export_check"] == {"file": "check.csv", "rows": 5}


@pytest.mark.slow
@pytest.mark.skipif(not MNLI.is_file(), reason="MultiNLI dev-matched data not present")
def test_mnli_hypothesis_only_beats_majority_and_augmentation_raises_attentiveness():
    frame = load_table(MNLI, text_col="premise", text_pair_col="hypothesis").frame
    train, test = frame.iloc[:7000].reset_index(drop=True), frame.iloc[7000:].reset_index(drop=True)
    plain = run_cat(train, test, CatConfig(params={"C": 0.3})).results
    augmented = run_cat(train, test, CatConfig(params={"C": 0.3}, augment=True)).results
    assert plain["config"]["default_label"] == "neutral"
    assert plain["baselines"]["partial_vs_majority"]["p_value"] < 0.01
    assert plain["baselines"]["partial_input"]["value"] > plain["baselines"]["majority"]["value"]
    assert augmented["attentiveness"]["mean"] > plain["attentiveness"]["mean"] + 0.05
    low, high = plain["accuracy"]["interval_95"]
    assert low <= augmented["accuracy"]["value"] <= high
