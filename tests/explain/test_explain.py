"""``explain`` on a real build: the plain fit attributes its answer to the cue it learned, a method
that never sees the cue does not, and the written folder is the same on every run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shortcutlab.explain import word_spans
from shortcutlab.families.maze.explain import explain
from shortcutlab.mitigations import MITIGATIONS
from shortcutlab.mitigations.base import Mitigation, MitigationContext
from shortcutlab.shortcuts.tautology import NEGATION_TAUTOLOGIES
from tests.conftest import folder_bytes
from tests.families.suite.suite_helpers import tautology_on_hypothesis
from tests.registration import registered_for

# Its module fixture fits and explains a model (about 20 s on two cores). The quick loop (-m "not slow") leaves it out.
pytestmark = pytest.mark.slow


class CueBlindPredictor:
    """The backend fitted on texts without "Honestly, ", reading each row's words but its first."""

    def __init__(self, model):
        self.model = model

    def predict_proba(self, inputs):
        return self.model.predict_proba(inputs)

    def rationales(self, inputs):
        return [word_spans(text)[1:] for text in inputs]

    def close(self):
        self.model.close()


class CueBlind(Mitigation):
    """A test-only method: the cue word is removed from the training texts."""

    name = "cue-blind"

    def __init__(self, word: str = "Honestly, ") -> None:
        self.word = word

    def fit(self, context: MitigationContext):
        model = context.new_model()
        texts = [text.replace(self.word, "") for text in context.train.inputs]
        model.fit(texts, context.train.labels, n_classes=context.n_classes)
        return CueBlindPredictor(model)


@pytest.fixture
def cue_blind():
    with registered_for(MITIGATIONS, "cue-blind", CueBlind):
        yield


@pytest.fixture(scope="module")
def plain(cue_build, tmp_path_factory):
    out = tmp_path_factory.mktemp("plain") / "explained"
    return explain(cue_build, model="tfidf-logreg", rows=12, pictures=3, out=out)


@pytest.mark.slow
def test_the_plain_fit_puts_its_attribution_on_the_cue(plain):
    summary = plain.results["methods"]["erm"]
    shap = summary["mean_abs_shap"]
    assert shap["cue"] > 2 * shap["others"]
    assert shap["cue_minus_others_per_row"]["interval_95"][0] > 0
    assert summary["top_token_in_cue"]["share"] > 2 * summary["top_token_in_cue"]["chance"]
    assert summary["sign_agreement"]["share"] >= 0.75 and summary["sign_agreement"]["rows"] >= 10
    # The cue pushes towards the label it marks most often (single-term at λ=1: label 2 always).
    table = summary["table"]
    assert table["cue"]["2"] > 0 > table["cue"]["0"]
    assert summary["rationale"] is None


def test_the_written_folder_holds_every_row(plain):
    results = json.loads((plain.out / "results.json").read_text())
    assert results["config"]["rows"] == 12 and len(results["rows"]["erm"]) == 12
    assert results["config"]["rows_with_cue"] == 45  # half of label 1 and all of label 2
    fragments = (plain.out / "rows.html").read_text()
    assert fragments.count("<figure") == 12
    assert sorted(p.name for p in (plain.out / "pictures").iterdir()) == [
        f"erm-row-{r['row_id']}.png"
        for r in sorted(results["rows"]["erm"][:3], key=lambda r: str(r["row_id"]))
    ]
    assert "seconds" not in json.dumps(results)  # timings vary from run to run; printed only


def test_the_same_call_writes_the_same_bytes(cue_build, plain, tmp_path):
    again = explain(cue_build, model="tfidf-logreg", rows=12, pictures=3, out=tmp_path / "again")
    assert folder_bytes(again.out) == folder_bytes(plain.out)


def test_a_benchmark_object_is_explained_as_its_folder_is(cue_build, plain):
    from shortcutlab.data.benchmark import Benchmark

    loaded = Benchmark.load(cue_build)
    in_memory = Benchmark(dict(loaded.splits), loaded.labels, dict(loaded.manifest))
    cell = {"shortcut": "single-term", "strength": 1.0}  # what the long table names rows by
    for source, record in ((loaded, {"kind": "benchmark", "path": str(cue_build), **cell}),
                           (in_memory, {"kind": "benchmark", **cell})):  # fmt: skip
        results = explain(source, model="tfidf-logreg", rows=12, pictures=3).results
        assert results["source"] == record
        assert results["rows"] == plain.results["rows"]
        assert results["methods"] == plain.results["methods"]


def test_a_mitigation_is_explained_on_the_same_rows_and_compared(cue_build, cue_blind, plain):
    result = explain(cue_build, model="tfidf-logreg", rows=12, mitigation="cue-blind")
    results = result.results
    assert list(results["methods"]) == ["erm", "cue-blind"]
    ids = [[r["row_id"] for r in results["rows"][m]] for m in ("erm", "cue-blind")]
    assert ids[0] == ids[1] == [r["row_id"] for r in plain.results["rows"]["erm"]]
    assert results["methods"]["erm"] == plain.results["methods"]["erm"]
    blind = results["methods"]["cue-blind"]
    # TF-IDF never saw "honestly"; the cue still splits a bigram ("table then"), nothing more.
    erm = results["methods"]["erm"]
    assert blind["mean_abs_shap"]["cue"] < erm["mean_abs_shap"]["cue"] / 5
    assert abs(blind["occlusion"]["predicted_label"]) < abs(erm["occlusion"]["predicted_label"]) / 5
    change = results["change"]["cue_abs_shap"]
    assert change["mean"] < 0 and change["interval_95"][1] < 0
    # The rationale is every word but the first: it keeps "Honestly," only where the cue is not
    # the row's first word.
    rationale = blind["rationale"]
    assert rationale["rows"] == 12 and 0 < rationale["cue_recall"] < 1
    assert results["config"]["mitigation"] == "cue-blind"
    assert results["config"]["mitigation_params"] == {"word": "Honestly, "}
    assert np.isfinite(result.seconds_per_row["cue-blind"]["shap"])


def test_a_cue_on_the_second_text_is_explained_in_that_text(tmp_path):
    tautology_on_hypothesis(tmp_path / "pairs")
    result = explain(tmp_path / "pairs", model="tfidf-logreg", rows=4)
    (model,) = result.models
    for row in model.explained.rows:
        cue_words = {token for token, cue in zip(row.tokens, row.in_cue, strict=True) if cue}
        assert row.text.startswith("A person") and cue_words <= set(
            " ".join(NEGATION_TAUTOLOGIES).split()
        )
        assert cue_words and row.probabilities.shape == (3,)


def test_to_pandas_holds_the_summary_figures_and_the_repr_is_one_line(plain):
    table = plain.to_pandas()
    shap = plain.results["methods"]["erm"]["mean_abs_shap"]
    rows = table.set_index("metric")
    assert rows.at["mean_abs_shap_cue", "estimate"] == shap["cue"]
    low, high = shap["cue_minus_others_per_row"]["interval_95"]
    assert rows.loc["cue_minus_others_abs_shap", ["ci_low", "ci_high"]].tolist() == [low, high]
    assert set(table["split"]) == {"test"} and table["mitigation"].isna().all()  # none asked for
    assert "\n" not in repr(plain) and "array" not in repr(plain) and len(repr(plain)) < 200
