"""The robustness build and one build's evaluation, checked against a plain computation on the
same perturbed rows (a model fitted here by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from shortcutlab import InputOptions, build_robustness_benchmark, evaluate_robustness
from shortcutlab.cli.app import app
from shortcutlab.families.robustness.statistics import with_holm
from shortcutlab.metrics import holm, mcnemar_exact
from shortcutlab.models import make_model
from tests.cli.refusals import assert_refused
from tests.reports.tidy_columns import assert_explained

LABELS = ["neg", "pos"]
runner = CliRunner()


def by_hand(files: dict[str, Path], bench_dir: Path, name: str) -> dict[str, float]:
    """Fit tfidf-logreg on train.csv, predict the original rows and the class's perturbed rows
    as the build wrote them, and compute the figures without the package's statistics."""
    train, test = pd.read_csv(files["train"]), pd.read_csv(files["test"])
    perturbed = pd.read_csv(bench_dir / f"{name}.csv")
    model = make_model("tfidf-logreg", seed=0)
    model.fit(train["text"].tolist(), (train["label"] == "pos").astype(int).to_numpy(), n_classes=2)
    source = test.iloc[perturbed["row_id"].to_numpy()]  # row ids are the test rows' positions
    proba_before = np.asarray(model.predict_proba(source["text"].tolist()), dtype=np.float32)
    proba_after = np.asarray(model.predict_proba(perturbed["text"].tolist()), dtype=np.float32)
    before, after = proba_before.argmax(axis=1), proba_after.argmax(axis=1)
    gold = (source["label"] == "pos").astype(int).to_numpy()
    target = (perturbed["label"] == "pos").astype(int).to_numpy()
    right_before, right_after = before == gold, after == target
    return {
        "proba_before": proba_before,
        "proba_after": proba_after,
        "before": before,
        "after": after,
        "target": target,
        "accuracy_original": right_before.mean(),
        "accuracy_perturbed": right_after.mean(),
        "flip_rate": (before != after).mean(),
        "p_mcnemar": mcnemar_exact(correct_a=right_before, correct_b=right_after)["p_value"],
    }


def test_the_drop_and_flips_equal_a_plain_computation_on_the_written_rows(review_files, tmp_path):
    out = tmp_path / "bench"
    bench = build_robustness_benchmark(
        review_files["test"],
        train=review_files["train"],
        perturbations=["typos-swap", "case-upper"],
        labels=LABELS,
        seed=4,
        inputs=InputOptions(out=out),
    )
    assert list(bench) == ["train", "test", "typos-swap", "case-upper"]
    result = evaluate_robustness(out, model="tfidf-logreg", bootstrap=200)
    classes = result.classes.set_index("perturbation")
    expected = {name: by_hand(review_files, out, name) for name in ("typos-swap", "case-upper")}
    for name, plain in expected.items():
        row = classes.loc[name]
        assert row["rows"] == len(plain["before"])
        for key in ("accuracy_original", "accuracy_perturbed", "flip_rate", "p_mcnemar"):
            assert row[key] == pytest.approx(plain[key], abs=1e-12), (name, key)
        assert row["drop"] == pytest.approx(
            plain["accuracy_original"] - plain["accuracy_perturbed"], abs=1e-12
        )
        assert row["drop_ci_low"] <= row["drop"] <= row["drop_ci_high"]
        flips = binomtest(int(row["flips"]), len(plain["before"])).proportion_ci(method="exact")
        assert (row["flip_rate_ci_low"], row["flip_rate_ci_high"]) == pytest.approx(
            (flips.low, flips.high)
        )
    adjusted = holm([expected[n]["p_mcnemar"] for n in classes.index])
    assert classes["p_mcnemar_holm"].tolist() == pytest.approx(adjusted.tolist(), abs=1e-12)
    flips = result.flipped[result.flipped["perturbation"] == "typos-swap"]
    plain = expected["typos-swap"]
    assert len(flips) == int((plain["before"] != plain["after"]).sum())
    assert repr(result).startswith("RobustnessEvaluation(model='tfidf-logreg', drop=(typos-swap=")

    tidy = result.to_pandas()
    assert_explained(tidy)
    drop = tidy[(tidy["split"] == "typos-swap") & (tidy["metric"] == "accuracy_drop")].iloc[0]
    assert drop["estimate"] == pytest.approx(classes.loc["typos-swap", "drop"])
    assert drop["p_adjusted"] == pytest.approx(classes.loc["typos-swap", "p_mcnemar_holm"])
    assert drop["kind"] == "INV" and drop["model"] == "tfidf-logreg"


def test_a_dir_class_reports_how_often_the_expected_labels_probability_rose(review_files, tmp_path):
    negate_class = "negation-add"
    out = tmp_path / "bench"
    build_robustness_benchmark(
        review_files["test"],
        train=review_files["train"],
        perturbations={negate_class: {"expect": "flip"}, "case-upper": {}},
        labels=LABELS,
        inputs=InputOptions(out=out),
    )
    written = pd.read_csv(out / f"{negate_class}.csv")
    source = pd.read_csv(out / "test.csv").set_index("row_id").loc[written["row_id"], "label"]
    assert (written["label"].to_numpy() != source.to_numpy()).all()  # moved to the other label
    result = evaluate_robustness(out, bootstrap=200)
    row = result.classes.set_index("perturbation").loc[negate_class]
    plain = by_hand(review_files, out, negate_class)
    rows = np.arange(len(plain["target"]))
    # float32, as the engine keeps the probabilities
    gain = plain["proba_after"][rows, plain["target"]].astype(float) - plain["proba_before"][
        rows, plain["target"]
    ].astype(float)
    up, changed = int((gain > 0).sum()), int((gain != 0).sum())
    assert changed > 0
    assert row["kind"] == "DIR"
    assert row["direction_rows"] == changed
    assert row["toward_expected"] == pytest.approx(up / changed)
    sign_test = binomtest(up, changed, 0.5)  # two-sided
    assert row["p_toward_expected"] == pytest.approx(sign_test.pvalue)
    assert row["p_toward_expected_holm"] == pytest.approx(sign_test.pvalue)  # the one DIR class
    interval = sign_test.proportion_ci(method="exact")
    assert row["toward_expected_ci_low"] == pytest.approx(interval.low)
    assert row["toward_expected_ci_high"] == pytest.approx(interval.high)
    eligible = plain["before"] != plain["target"]
    moved = int((eligible & (plain["after"] == plain["target"])).sum())
    assert row["expected_rows"] == int(eligible.sum())
    assert row["moved_to_expected"] == pytest.approx(moved / eligible.sum())
    assert pd.isna(result.classes.set_index("perturbation").loc["case-upper", "toward_expected"])

    tidy = result.to_pandas()
    assert_explained(tidy)
    toward = tidy[tidy["metric"] == "toward_expected"]
    assert toward["split"].tolist() == [negate_class]  # INV classes have none
    assert toward["estimate"].iloc[0] == pytest.approx(up / changed)
    assert toward["p"].iloc[0] == pytest.approx(sign_test.pvalue)
    assert toward["n"].iloc[0] == changed
    assert toward["interval"].iloc[0] == "exact (Clopper–Pearson) over rows"
    switched = tidy[tidy["metric"] == "moved_to_expected"].iloc[0]
    assert switched["estimate"] == pytest.approx(moved / eligible.sum())
    assert pd.isna(switched["p"])


def test_holm_adjusts_the_sign_tests_over_the_dir_classes_only():
    classes = [
        {"perturbation": "a", "p_mcnemar": 0.01, "p_toward_expected": 0.02},
        {"perturbation": "b", "p_mcnemar": 0.04},
        {"perturbation": "c", "p_mcnemar": 0.03, "p_toward_expected": 0.03},
    ]
    adjusted = with_holm(classes)
    assert [c["p_mcnemar_holm"] for c in adjusted] == pytest.approx(
        holm([0.01, 0.04, 0.03]).tolist()
    )
    assert [c.get("p_toward_expected_holm") for c in adjusted] == pytest.approx([0.04, None, 0.04])


def test_a_rebuild_is_byte_identical_and_the_manifest_records_each_class(review_files, tmp_path):
    folders = []
    for name in ("a", "b"):
        args = ["build", "robustness", "--test", review_files["test"], "--train"]
        args += [review_files["train"], "--perturbation", "typos-swap", "--perturbation"]
        args += ["case-lower", "--perturbation-option", "typos-swap.rate=0.1", "--seed", 2]
        args += ["--labels", "neg,pos", "--out", tmp_path / name]
        done = runner.invoke(app, [str(a) for a in args])
        assert done.exit_code == 0, done.output
        folders.append(tmp_path / name)
    files = sorted(p.name for p in folders[0].iterdir())
    assert files == sorted(p.name for p in folders[1].iterdir())
    for file in files:
        assert (folders[0] / file).read_bytes() == (folders[1] / file).read_bytes(), file
    manifest = json.loads((folders[0] / "manifest.json").read_text())
    assert manifest["kind"] == "robustness"
    record = manifest["perturbations"]["typos-swap"]
    assert record["kind"] == "INV" and record["params"]["rate"] == 0.1 and record["seed"] == 2
    assert {"library", "version"} <= set(record["provenance"])
    original = pd.read_csv(folders[0] / "test.csv")
    swapped = pd.read_csv(folders[0] / "typos-swap.csv")
    paired = original.set_index("row_id").loc[swapped["row_id"]]
    assert (paired["text"].to_numpy() != swapped["text"].to_numpy()).all()  # changed rows only
    assert (paired["label"].to_numpy() == swapped["label"].to_numpy()).all()  # INV keeps labels


def upper_case_build(files: dict[str, Path], bench: Path) -> Path:
    """A robustness build of the test rows with case-upper alone."""
    build_robustness_benchmark(
        files["test"],
        train=files["train"],
        perturbations="case-upper",
        labels=LABELS,
        inputs=InputOptions(out=bench),
    )
    return bench


def test_evaluate_dispatches_a_robustness_folder_and_writes_its_tables(review_files, tmp_path):
    bench = upper_case_build(review_files, tmp_path / "bench")
    done = runner.invoke(
        app, ["evaluate", str(bench), "--bootstrap", "100", "--out", str(tmp_path / "ev")]
    )
    assert done.exit_code == 0, done.output
    assert "case-upper" in done.stdout and "Per perturbation class" in done.stdout
    classes = pd.read_csv(tmp_path / "ev" / "classes.csv")
    assert classes["perturbation"].tolist() == ["case-upper"]
    record = json.loads((tmp_path / "ev" / "results.json").read_text())
    assert record["classes"][0]["rows"] == classes["rows"].iloc[0]


def test_a_class_that_changes_no_rows_correctness_gets_an_exact_bound_not_a_zero_interval(
    review_files, tmp_path
):
    """tfidf-logreg lowercases, so upper case changes no prediction: every bootstrap resample's
    drop is 0, and [0, 0] would be no measurement. The interval is ± the Clopper–Pearson upper
    bound for 0 discordant pairs of n, 1 − 0.025^(1/n), and the tidy table says so."""
    bench = upper_case_build(review_files, tmp_path / "bench")
    long = evaluate_robustness(bench, bootstrap=100).to_pandas()
    drop = long[long["metric"] == "accuracy_drop"].iloc[0]
    bound = 1 - 0.025 ** (1 / drop["n"])
    assert drop["estimate"] == 0
    assert (drop["ci_low"], drop["ci_high"]) == pytest.approx((-bound, bound))
    assert drop["interval"].startswith("no pair discordant: ± the exact (Clopper–Pearson)")
    flips = long[long["metric"] == "flip_rate"].iloc[0]
    assert flips["ci_high"] == pytest.approx(bound)  # the same bound on the share that flipped


def test_refusals_are_one_line_and_write_nothing(review_files, tmp_path):
    base = ["build", "robustness", "--test", review_files["test"], "--labels", "neg,pos"]
    base += ["--out", tmp_path / "out"]
    assert_refused(tmp_path, "'typos-swapp'", *base, "--perturbation", "typos-swapp")
    assert_refused(
        tmp_path,
        "The 'expect' parameter of negation-add must map each label",
        *base,
        "--perturbation",
        "negation-add",
    )
    assert_refused(
        tmp_path,
        "--perturbation-option names the class 'case-upper', which no --perturbation applies",
        *base,
        "--perturbation",
        "case-lower",
        "--perturbation-option",
        "case-upper.x=1",
    )
    lower = tmp_path / "lower.csv"
    pd.read_csv(review_files["test"]).assign(text=lambda f: f["text"].str.lower()).to_csv(lower)
    assert_refused(
        tmp_path,
        "The perturbation 'case-lower' changed none of the 120 test rows, so it measures "
        "nothing; leave it out of the perturbations.",
        *["build", "robustness", "--test", lower, "--labels", "neg,pos", "--out"],
        *[tmp_path / "out", "--perturbation", "case-upper", "--perturbation", "case-lower"],
    )
    bench = tmp_path / "bench"
    build_robustness_benchmark(
        review_files["test"],
        perturbations="case-upper",
        labels=LABELS,
        inputs=InputOptions(out=bench),
    )
    assert_refused(tmp_path, "has no train split", "evaluate", bench)
