"""Every command that measures a shortcut ends with its findings in plain words; the statistical
footnotes print only with --details (evaluate, results, cat, suite evaluate, audit; the demo's
in tests/cli/test_cli.py and tests/demo/test_demo.py)."""

from __future__ import annotations

import pytest

from tests.cli.refusals import invoke
from tests.cli.test_cat_cli import cat_args
from tests.families.audit.tables import planted
from tests.families.suite.suite_folders import write_suite
from tests.nli_helpers import nli_pairs


def findings_lines(stdout: str) -> list[str]:
    """The sentences under the last 'Findings:' heading, without their '- ' bullet."""
    lines = stdout.splitlines()
    assert "Findings:" in lines, stdout
    start = len(lines) - lines[::-1].index("Findings:")
    return [line.removeprefix("- ") for line in lines[start:] if line.startswith("- ")]


@pytest.fixture(scope="module")
def benchmark(tmp_path_factory):
    folder = tmp_path_factory.mktemp("findings")
    invoke("generate", "--out", folder / "corpus", "--train-size", 400, "--test-size", 200)
    built = invoke(
        "build", "maze", "--train", folder / "corpus" / "train.csv",
        "--test", folder / "corpus" / "test.csv", "--shortcut", "single-term", "--out", folder / "b",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    return folder / "b"


def test_evaluate_ends_with_findings_and_prints_footnotes_only_with_details(benchmark, tmp_path):
    plain = invoke("evaluate", benchmark, "--seeds", 2, "--bootstrap", 200, "--out", tmp_path / "a")
    assert plain.exit_code == 0, plain.output
    drop, one_fit = findings_lines(plain.stdout)
    assert drop.startswith("tfidf-logreg relies on single-term: accuracy falls from ")
    assert "when the cue points the wrong way (Δ " in drop and drop.endswith(").")
    assert one_fit.startswith("Only one distinct fit of tfidf-logreg (nothing varied")
    for footnote in ("Holm–Bonferroni", "McNemar", "percentile bootstrap", "— : nothing varied"):
        assert footnote not in plain.stdout
    detailed = invoke(
        "evaluate",
        benchmark,
        "--seeds",
        2,
        "--bootstrap",
        200,
        "--out",
        tmp_path / "b",
        "--details",
    )
    assert detailed.exit_code == 0, detailed.output
    for footnote in ("Holm–Bonferroni", "McNemar", "percentile bootstrap", "— : nothing varied"):
        assert footnote in detailed.stdout
    assert findings_lines(detailed.stdout) == [drop, one_fit]


def test_cat_ends_with_attentiveness_in_words(tmp_path):
    args = cat_args(tmp_path, "--default-label", "neutral", "--k", 3, cue=True)
    plain = invoke(*args)
    assert plain.exit_code == 0, plain.output
    attentive, baseline = findings_lines(plain.stdout)
    assert attentive.startswith("tfidf-logreg is attentive to text on ")
    assert "of the 101 test pairs it does not label neutral" in attentive
    assert "(mean over 3 counterfactual sets, ± " in attentive
    assert baseline == (
        "A model trained on text_pair alone reaches 100.0 % accuracy against 50.0 % for always "
        "answering contradiction (p < 1e-29): text_pair alone predicts much of the label."
    )
    assert "Attentiveness: share of kept rows" not in plain.stdout
    detailed = invoke(*args, "--overwrite", "--details")
    assert "Attentiveness: share of kept rows" in detailed.stdout
    assert "Intervals: Wilson 95 % interval over test rows" in detailed.stdout


def test_suite_evaluate_ends_with_a_sentence_per_set(tmp_path):
    write_suite(tmp_path / "suite", rows=24)
    nli_pairs(240, seed=0).to_csv(tmp_path / "train.csv", index=False)
    args = (
        "suite", "evaluate", tmp_path / "suite", "--model", "tfidf-logreg",
        "--train", tmp_path / "train.csv", "--text-pair-col", "text_pair",
    )  # fmt: skip
    plain = invoke(*args, "--out", tmp_path / "a")
    assert plain.exit_code == 0, plain.output
    sentences = findings_lines(plain.stdout)
    assert [s.split(" on ")[1].split(":")[0].rstrip(".") for s in sentences[:2]] == [
        "standard",
        "lexical-overlap",
    ]
    assert sentences[0].startswith("tfidf-logreg scores ")
    assert "on its entailment rows and " in sentences[1]
    assert len(sentences) == 4 and all(" against " in s for s in sentences[1:])
    assert "Derived sets are compared on the standard rows" not in plain.stdout
    detailed = invoke(*args, "--out", tmp_path / "b", "--details")
    assert "Derived sets are compared on the standard rows" in detailed.stdout


def test_audit_ends_with_the_top_candidates_in_words(tmp_path):
    texts, labels = planted(1000, seed=1, cues={"zebra": "pos", "yak": "neg"})
    import pandas as pd

    pd.DataFrame({"text": texts, "label": labels}).to_csv(tmp_path / "train.csv", index=False)
    args = ("audit", tmp_path / "train.csv", "--no-surface", "--model", "tfidf-logreg")
    plain = invoke(*args, "--measure-top", 2, "--top", 5)
    assert plain.exit_code == 0, plain.output
    sentences = findings_lines(plain.stdout)
    assert (
        sentences[0].startswith("2 of ") and "candidate shortcuts are significant" in sentences[0]
    )
    assert sentences[1].startswith("'zebra' (token) points to pos: 0.926 of its 121 rows")
    assert sentences[2].startswith("tfidf-logreg relies on 'zebra' (removal changed ")
    assert sentences[3].startswith("'yak' (token) points to neg: ")
    for footnote in ("* significant: Benjamini–Hochberg", "Reliance: tfidf-logreg"):
        assert footnote not in plain.stdout
        assert footnote in invoke(*args, "--details").stdout
