"""``shortcutlab check``: exit codes, the printed table, the JUnit XML, and suites saved from
measurements (audit --save-suite, results --save-suite) checked again."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from shortcutlab import build_maze_benchmark, generate_corpus
from tests.cli.refusals import assert_refused, invoke

DATA = "data: {builtin: reviews, train_size: 400, test_size: 200}\n"
# Measured on this data with tfidf-logreg: Δ of the single-term cue at λ=0 is 0.0 [-0.025, 0.025]
# and at λ=1 well above 0.02 (its interval's lower end too); negation's δ is far above 0.01.
MIXED = (
    DATA
    + """requirements:
  - {id: cue-off, maze: {shortcut: single-term, strength: 0.0}, max_delta: 0.2}
  - {id: cue-on, maze: {shortcut: single-term, strength: 1.0}, max_delta: 0.001}
  - {id: negation, mps: {attribute: negation}, max_delta: 0.01}
"""
)


def write(folder: Path, text: str, name: str = "suite.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_suite_the_model_meets_exits_0(tmp_path: Path) -> None:
    suite = write(tmp_path, MIXED.split("  - {id: cue-on")[0])
    result = invoke("check", suite, "--model", "tfidf-logreg")
    assert result.exit_code == 0, result.output
    assert "cue-off" in result.stdout and "pass" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("1 of 1 requirement passes")


def test_a_suite_the_model_misses_exits_1_and_writes_junit(tmp_path: Path) -> None:
    suite = write(tmp_path, MIXED)
    report = tmp_path / "reports" / "check.xml"
    result = invoke("check", suite, "--junit-xml", report)
    assert result.exit_code == 1, result.output
    rows = {line.split()[0]: line.split()[-1] for line in result.stdout.splitlines() if "│" in line}
    assert rows == {"cue-off": "pass", "cue-on": "fail", "negation": "fail"}
    assert "1 of 3 requirements pass; 2 fail (check failed" in result.stdout
    root = ET.parse(report).getroot()
    suite_element = root.find("testsuite")
    assert suite_element is not None and suite_element.get("failures") == "2"
    cases = suite_element.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("maze", "cue-off"),
        ("maze", "cue-on"),
        ("mps", "negation"),
    ]
    assert cases[0].find("failure") is None
    message = cases[1].find("failure").get("message")  # type: ignore[union-attr]
    assert "95 % interval [" in message and "upper" in message and "> 0.001" in message


def test_csv_prints_the_interval_ends_alone(tmp_path: Path) -> None:
    suite = write(tmp_path, MIXED.split("  - {id: cue-on")[0])
    result = invoke("check", suite, "--format", "csv")
    assert result.exit_code == 0
    table = pd.read_csv(pd.io.common.StringIO(result.stdout))
    row = table.iloc[0]
    assert list(table.columns[:8]) == [
        "id",
        "kind",
        "requirement",
        "figure",
        "ci_low",
        "ci_high",
        "bound",
        "verdict",
    ]
    assert row["ci_low"] <= row["figure"] <= row["ci_high"] <= 0.2 and row["verdict"] == "pass"


def test_a_point_within_the_threshold_whose_interval_crosses_it_is_inconclusive(
    tmp_path: Path,
) -> None:
    probe = write(tmp_path, MIXED.split("  - {id: negation")[0], "probe.yaml")
    measured = pd.read_csv(
        pd.io.common.StringIO(invoke("check", probe, "--format", "csv").stdout)
    ).set_index("id")
    point, high = measured.loc["cue-on", "figure"], measured.loc["cue-on", "ci_high"]
    limit = round((point + high) / 2, 4)  # between the point estimate and the upper bound
    suite = write(
        tmp_path,
        DATA
        + f"""requirements:
  - {{id: cue-on, maze: {{shortcut: single-term, strength: 1.0}}, max_delta: {limit}}}
""",
    )
    result = invoke("check", suite, "--junit-xml", tmp_path / "j.xml")
    assert result.exit_code == 1
    assert "inconclusive" in result.stdout
    assert "0 of 1 requirement passes; 1 inconclusive (counted as failing)" in result.stdout
    failure = ET.parse(tmp_path / "j.xml").getroot().find("testsuite/testcase/failure")
    assert failure is not None and failure.get("type") == "inconclusive"


@pytest.mark.parametrize(
    ("requirements", "message"),
    [
        (
            "  - {id: a, maze: {shortcut: single-trm}, max_delta: 0.1}",
            "requirements[0] (a): maze: shortcut: Unknown shortcut 'single-trm'. Did you mean 'single-term'?",
        ),
        (
            "  - {id: a, maze: {shortcut: single-term}}",
            "requirements[0] (a) has no 'max_delta'; give its threshold",
        ),
        (
            "  - {id: a, maze: {shortcut: single-term}, max_delta: 0.1, min_pass_rate: 0.5}",
            "Unknown key 'min_pass_rate' in ",
        ),
        (
            "  - {id: a, mazee: {shortcut: single-term}, max_delta: 0.1}",
            "Unknown requirement kind 'mazee'. Did you mean 'maze'?",
        ),
        ("  - {maze: {shortcut: single-term}, max_delta: 0.1}", "requirements[0] has no 'id'"),
        ("  - {id: a, audit: {}}", "needs exactly one of 'no_relied_on_shortcuts: true'"),
        (
            "  - {id: a, audit: {no_relied_on_shortcuts: true, accepted_styles: [markers]}}",
            "audit: accepted_styles: a style is accepted by its word class, one of "
            "'discourse markers', 'archaic words'. Got 'markers'.",
        ),
        ("  - {id: a, mps: {attribute: negashun}, max_delta: 0.1}", "Unknown attribute 'negashun'"),
        (
            "  - {id: a, maze: {shortcut: single-term}, max_delta: 0.1}\n"
            "  - {id: a, maze: {shortcut: single-term}, max_delta: 0.2}",
            "requirements",
        ),
    ],
)
def test_bad_suites_are_refused_in_one_line_and_write_nothing(
    tmp_path: Path, requirements: str, message: str
) -> None:
    suite = write(tmp_path, DATA + "requirements:\n" + requirements + "\n")
    assert_refused(tmp_path, message, "check", suite, "--junit-xml", tmp_path / "j.xml")


def test_a_bad_model_is_refused_before_any_fit(tmp_path: Path) -> None:
    suite = write(tmp_path, MIXED)
    assert_refused(
        tmp_path,
        "Unknown model 'nope'",
        "check",
        suite,
        "--model",
        "nope",
        "--junit-xml",
        tmp_path / "j.xml",
    )


def _planted(
    folder: Path, strength: float, corpus: dict[str, pd.DataFrame], term: str = "honestly"
) -> None:
    """The corpus with the single-term cue ``term`` planted at ``strength``, as CSV files."""
    bench = build_maze_benchmark(
        corpus["train"],
        corpus["test"],
        shortcut="single-term",
        shortcut_options={"term": term},
        strength=strength,
        val_size=0,
        seed=int(term != "honestly"),  # a second word's rows drawn apart from the first's
    )
    folder.mkdir()
    for split in ("train", "test"):
        bench[split][["text", "label"]].to_csv(folder / f"{split}.csv", index=False)


def _saved_audit_suite(folder: Path, saved: Path) -> str:
    """The text of the suite ``audit --model tfidf-logreg --save-suite`` saves from ``folder``'s
    train.csv and test.csv."""
    audited = invoke(
        "audit",
        folder / "train.csv",
        "--test",
        folder / "test.csv",
        "--model",
        "tfidf-logreg",
        "--save-suite",
        saved,
    )
    assert audited.exit_code == 0, audited.output
    return saved.read_text(encoding="utf-8")


def test_audit_save_suite_passes_on_its_data_and_fails_once_the_cue_is_planted_harder(
    tmp_path: Path,
) -> None:
    corpus = generate_corpus(train_size=600, test_size=300)
    _planted(tmp_path / "weak", 0.3, corpus)
    _planted(tmp_path / "strong", 1.0, corpus)
    saved = tmp_path / "suite.yaml"
    weak = tmp_path / "weak"
    suite = yaml.safe_load(_saved_audit_suite(weak, saved))
    assert suite["data"] == {"train": str(weak / "train.csv"), "test": str(weak / "test.csv")}
    [requirement] = suite["requirements"]
    assert requirement["audit"]["no_relied_on_shortcuts"] is True
    assert "honestly" not in requirement["audit"].get("accepted", [])  # not relied on yet

    same = invoke("check", saved)
    assert same.exit_code == 0, same.output
    suite["data"] = {
        "train": str(tmp_path / "strong/train.csv"),
        "test": str(tmp_path / "strong/test.csv"),
    }
    harder = write(tmp_path, yaml.safe_dump(suite), "harder.yaml")
    failed = invoke("check", harder, "--junit-xml", tmp_path / "j.xml")
    assert failed.exit_code == 1, failed.output
    assert "relied on: 'honestly'" in failed.stdout
    case = ET.parse(tmp_path / "j.xml").getroot().find("testsuite/testcase")
    assert case is not None and case.get("classname") == "audit"
    assert "relied on: 'honestly'" in case.find("failure").get("message")  # type: ignore[union-attr]


def test_audit_save_suite_accepts_what_is_relied_on_and_fails_on_a_new_word(
    tmp_path: Path,
) -> None:
    corpus = generate_corpus(train_size=600, test_size=300)
    _planted(tmp_path / "one", 1.0, corpus)  # relied on when saved: 'honestly'
    one = {s: pd.read_csv(tmp_path / f"one/{s}.csv") for s in ("train", "test")}
    _planted(tmp_path / "two", 1.0, one, term="thus")  # and a second word, planted as strongly
    saved = tmp_path / "suite.yaml"
    text = _saved_audit_suite(tmp_path / "one", saved)
    assert "# relied on when this suite was saved: accepted until removed" in text
    [requirement] = yaml.safe_load(text)["requirements"]
    block = requirement["audit"]
    assert block["no_relied_on_shortcuts"] is True
    assert "honestly" in block["accepted"] and "thus" not in block["accepted"]
    assert block["accepted_styles"] == ["discourse markers"]

    same = invoke("check", saved, "--format", "csv")
    assert same.exit_code == 0, same.output
    assert "accepted, still relied on: 'honestly'" in same.stdout
    moved = write(tmp_path, text.replace(str(tmp_path / "one"), str(tmp_path / "two")), "two.yaml")
    failed = invoke("check", moved, "--format", "csv")
    assert failed.exit_code == 1, failed.output
    assert "relied on: 'thus'" in failed.stdout


def test_audit_save_suite_accepts_readability_bins_by_name_when_the_data_moves_their_edges(
    tmp_path: Path,
) -> None:
    corpus = generate_corpus(train_size=600, test_size=300)
    _planted(tmp_path / "one", 1.0, corpus)
    saved = tmp_path / "suite.yaml"
    text = _saved_audit_suite(tmp_path / "one", saved)
    block = yaml.safe_load(text)["requirements"][0]["audit"]
    assert "readability" in block["accepted_unmeasured"]  # its bins, by the stable part
    assert "(Flesch)" not in text  # no bin's edges saved
    # A long plain sentence on every third row moves the readability quartiles' edges.
    (tmp_path / "longer").mkdir()
    for split in ("train", "test"):
        frame = pd.read_csv(tmp_path / f"one/{split}.csv")
        frame.loc[::3, "text"] += (
            " The committee will reconvene after the extraordinarily comprehensive consultation."
        )
        frame.to_csv(tmp_path / f"longer/{split}.csv", index=False)
    moved = write(tmp_path, text.replace(str(tmp_path / "one"), str(tmp_path / "longer")), "l.yaml")
    checked = invoke("check", moved, "--format", "csv")
    assert "readability" not in checked.stdout, checked.output
    assert checked.exit_code == 0, checked.output


def test_an_accepted_name_cannot_also_be_required_not_relied_on(tmp_path: Path) -> None:
    suite = write(
        tmp_path,
        DATA + "requirements:\n  - {id: a, audit: {not_relied_on: [well], accepted: [well]}}\n",
    )
    assert_refused(
        tmp_path,
        "requirements[0] (a): audit: a name cannot be both accepted and in not_relied_on; "
        "remove 'well' from one of them.",
        "check",
        suite,
        "--junit-xml",
        tmp_path / "j.xml",
    )


def test_audit_save_suite_needs_a_model(tmp_path: Path, corpus_files: dict[str, Path]) -> None:
    assert_refused(
        tmp_path,
        "--save-suite writes a check suite from the measured reliance; give --model",
        "audit",
        corpus_files["train"],
        "--test",
        corpus_files["test"],
        "--save-suite",
        tmp_path / "suite.yaml",
    )


def test_results_save_suite_writes_the_measured_bound_plus_margin(tmp_path: Path) -> None:
    grid = write(
        tmp_path,
        DATA + "shortcuts: [single-term]\nstrengths: [0.5, 1.0]\n"
        "models: [tfidf-logreg]\nseeds: [0]\nbootstrap: 200\n",
        "grid.yaml",
    )
    assert invoke("run", grid, "--out", tmp_path / "run").exit_code == 0
    shown = invoke("results", tmp_path / "run", "--format", "csv")
    groups = pd.read_csv(pd.io.common.StringIO(shown.stdout)).set_index("strength")
    saved = tmp_path / "saved.yaml"
    result = invoke("results", tmp_path / "run", "--save-suite", saved, "--margin", "0.01")
    assert result.exit_code == 0, result.output
    suite = yaml.safe_load(saved.read_text(encoding="utf-8"))
    limits = {r["maze"]["strength"]: r["max_delta"] for r in suite["requirements"]}
    for strength, limit in limits.items():
        expected = groups.loc[strength, "delta_accuracy_ci_high"] + 0.01
        assert expected - 1e-9 <= limit < expected + 0.001  # rounded up to 3 decimals
    again = invoke("check", saved)
    assert again.exit_code == 0, again.output
    assert "2 of 2 requirements pass" in again.stdout


def test_results_save_suite_refuses_a_negative_margin(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    assert_refused(
        tmp_path,
        "--margin must be a number >= 0",
        "results",
        tmp_path / "run",
        "--save-suite",
        tmp_path / "s.yaml",
        "--margin",
        "-0.1",
    )


def test_robustness_requirements_judge_the_drop_and_the_pass_rate(tmp_path: Path) -> None:
    suite = write(
        tmp_path,
        DATA
        + """requirements:
  - {id: upper, robustness: {perturbation: case-upper}, min_pass_rate: 0.9}
  - {id: typos, robustness: {perturbation: typos-keyboard}, max_drop: -0.5}
""",
    )
    result = invoke("check", suite, "--format", "csv", "--junit-xml", tmp_path / "j.xml")
    assert result.exit_code == 1, result.output
    table = pd.read_csv(pd.io.common.StringIO(result.stdout)).set_index("id")
    # TF-IDF lower-cases: upper-casing moves no prediction, so the exact interval's lower end
    # for n changed rows, all kept, is 0.025 ** (1 / n), above 0.9 for n >= 36.
    assert table.loc["upper", "figure"] == 1.0 and table.loc["upper", "verdict"] == "pass"
    assert table.loc["typos", "verdict"] == "fail"  # no drop is below -0.5
    cases = ET.parse(tmp_path / "j.xml").getroot().findall("testsuite/testcase")
    assert [c.get("classname") for c in cases] == ["robustness", "robustness"]


def test_a_dir_class_takes_a_pass_rate_not_a_drop(tmp_path: Path) -> None:
    suite = write(
        tmp_path,
        DATA + "requirements:\n  - {id: n, robustness: "
        "{perturbation: negation-add}, max_drop: 0.1}\n",
    )
    assert_refused(tmp_path, "negation-add is a DIR class", "check", suite)


def test_robustness_figures_equal_a_plain_computation(tmp_path: Path) -> None:
    """INV: the share of changed rows whose prediction stays; the drop; DIR: CheckList's direction
    rule (of the rows where the expected label's probability changed, the share where it rose),
    each recomputed here from a model fitted by hand, with its exact interval."""
    from scipy.stats import binomtest

    from shortcutlab.models import make_model
    from shortcutlab.perturb import perturb

    corpus = generate_corpus(train_size=400, test_size=200)
    tables = {}
    for split, frame in corpus.items():
        binary = frame[frame["label"] != 3].assign(
            label=lambda f: f["label"].map(lambda v: "pos" if v > 3 else "neg")
        )[["text", "label"]]
        binary.to_csv(tmp_path / f"{split}.csv", index=False)
        tables[split] = binary
    negation = "{perturbation: negation-add, params: {expect: flip}}"
    suite = write(
        tmp_path,
        f"data: {{train: {tmp_path / 'train.csv'}, test: {tmp_path / 'test.csv'}, "
        "labels: [neg, pos]}\n"
        "requirements:\n"
        "  - {id: kept, robustness: {perturbation: typos-keyboard}, min_pass_rate: 0.5}\n"
        "  - {id: drop, robustness: {perturbation: typos-keyboard}, max_drop: 0.5}\n"
        f"  - {{id: toward, robustness: {negation}, min_pass_rate: 0.5}}\n",
    )
    result = invoke("check", suite, "--format", "csv")
    assert result.exit_code in (0, 1), result.output
    table = pd.read_csv(pd.io.common.StringIO(result.stdout)).set_index("id")

    train, test = tables["train"], tables["test"]
    model = make_model("tfidf-logreg", seed=0)
    model.fit(train["text"].tolist(), (train["label"] == "pos").astype(int).to_numpy(), n_classes=2)
    texts, gold = test["text"].tolist(), (test["label"] == "pos").astype(int).to_numpy()

    def probabilities(rows: list[str]):
        return np.asarray(model.predict_proba(rows), dtype=np.float32)  # as the engine keeps them

    def expect_share(name: str, k: int, n: int) -> None:
        interval = binomtest(k, n).proportion_ci(method="exact")
        assert table.loc[name, "figure"] == pytest.approx(k / n)
        assert table.loc[name, "ci_low"] == pytest.approx(interval.low)
        assert table.loc[name, "ci_high"] == pytest.approx(interval.high)

    typos = perturb("typos-keyboard", texts, gold, label_values=["neg", "pos"], seed=0)
    rows = np.flatnonzero(typos.changed)
    before = probabilities([texts[i] for i in rows]).argmax(axis=1)
    after = probabilities([typos.texts[i] for i in rows]).argmax(axis=1)
    expect_share("kept", int((before == after).sum()), len(rows))
    drop = np.mean(before == gold[rows]) - np.mean(after == gold[rows])
    assert table.loc["drop", "figure"] == pytest.approx(drop, abs=1e-12)
    assert table.loc["drop", "ci_low"] <= drop <= table.loc["drop", "ci_high"]

    negated = perturb(
        "negation-add", texts, gold, label_values=["neg", "pos"], seed=0, params={"expect": "flip"}
    )
    rows = np.flatnonzero(negated.changed & (negated.expected >= 0))
    target = negated.expected[rows]
    at = np.arange(len(rows))
    gain = probabilities([negated.texts[i] for i in rows])[at, target].astype(float) - (
        probabilities([texts[i] for i in rows])[at, target].astype(float)
    )
    assert (gain != 0).sum() > 0
    expect_share("toward", int((gain > 0).sum()), int((gain != 0).sum()))
    assert f"moved on {int((gain != 0).sum())} of them" in table.loc["toward", "notes"]
