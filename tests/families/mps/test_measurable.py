"""Degenerate MPS builds (issue 21, section 9): a build whose Imbalanced and Balanced sets have the
same label mix within groups, or a label or group with too few rows, says so in its manifest and
warns once; ``results`` and the report print the affected figures as not measurable, with the
reason, never a number."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pandas as pd
import pytest

from shortcutlab.families.mps.measurable import (
    MIN_ENTROPY_DIFFERENCE,
    MIN_ROWS,
    manifest_reasons,
    measurability,
)
from tests.cli.refusals import invoke
from tests.conftest import negation_rows
from tests.families.mps.mps_helpers import mps_pool

# Negated rows are mostly label a, the others mostly b, and the minority label of each group is so
# scarce that Imbalanced already uses all of it: Balanced cannot even the groups out, so both sets
# hold exactly the same label mix within groups (the AG News sentence-concept case, made small).
SAME_MIX = {(True, "a"): 300, (True, "b"): 60, (False, "a"): 60, (False, "b"): 300}
SAME_MIX_REASON = (
    "δ, Δ not measurable: Imbalanced and Balanced have the same label mix within groups "
    f"(entropy difference 0.000 < {MIN_ENTROPY_DIFFERENCE})"
)
SPEC = """
family: mps
name: degenerate
data: {name: toy, train: pool.csv}
attributes: [negation]
mps: {test_size: 60}
models: [{name: tfidf-svm, cv: 2}]
seeds: [0]
bootstrap: 100
"""


def warnings_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if "cannot measure every figure" in line]


@pytest.fixture(scope="module")
def degenerate_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("degenerate")
    negation_rows(SAME_MIX, seed=1).to_csv(folder / "pool.csv", index=False)
    (folder / "spec.yaml").write_text(SPEC)
    ran = invoke("run", folder / "spec.yaml", "--out", folder / "run")
    assert ran.exit_code == 0, ran.output
    assert len(warnings_of(ran.output)) == 1, ran.output
    return folder / "run"


def test_build_records_the_reason_in_the_manifest_and_warns_once(tmp_path):
    negation_rows(SAME_MIX, seed=1).to_csv(tmp_path / "pool.csv", index=False)
    built = invoke("build", "mps", "--train", tmp_path / "pool.csv", "--out", tmp_path / "b")
    assert built.exit_code == 0, built.output
    assert [SAME_MIX_REASON in line for line in warnings_of(built.output)] == [True]
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["measurability"] == {
        "min_entropy_difference": MIN_ENTROPY_DIFFERENCE,
        "min_rows": MIN_ROWS,
        "entropy_difference": 0.0,
    }
    assert manifest["not_measurable"] == [
        {
            "figures": ["delta_isolated", "delta_overall"],
            "reason": SAME_MIX_REASON.split("not measurable: ", 1)[1],
        }
    ]
    counts = manifest["splits"]
    assert counts["imbalanced"]["label_counts"] == counts["balanced"]["label_counts"]


def test_a_normal_build_is_not_flagged(tmp_path):
    mps_pool(800).to_csv(tmp_path / "pool.csv", index=False)
    built = invoke("build", "mps", "--train", tmp_path / "pool.csv", "--out", tmp_path / "b")
    assert built.exit_code == 0, built.output
    assert warnings_of(built.output) == []
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["not_measurable"] == []
    assert manifest["measurability"]["entropy_difference"] > 0.1


def test_results_print_the_reason_not_a_number(degenerate_run):
    printed = invoke("results", degenerate_run, "--format", "md", "--details")
    assert printed.exit_code == 0, printed.output
    row = next(line for line in printed.stdout.splitlines() if line.startswith("| tfidf-svm"))
    delta, overall, zeta = (cell.strip() for cell in row.strip("|").split("|")[2:5])
    assert (delta, overall) == ("not measurable", "not measurable")
    assert zeta.startswith("0.") or zeta.startswith("-0.")  # ζ reads the Balanced fit alone
    assert f"toy, negation: {SAME_MIX_REASON}." in printed.stdout
    tidy = json.loads(invoke("results", degenerate_run, "--format", "json").stdout)[0]
    assert tidy["not_measurable"] == SAME_MIX_REASON
    for column in ("delta_isolated_mean", "delta_isolated_ci_low", "p_delta_isolated_holm"):
        assert tidy[column] is None, column
    assert tidy["significant_delta_isolated"] is None  # no test was made, not "not significant"


def test_written_tables_leave_the_figures_empty(degenerate_run, tmp_path):
    written = invoke("results", degenerate_run, "--out", tmp_path / "tables")
    assert written.exit_code == 0, written.output
    for name in ("groups.csv", "cells.csv"):
        frame = pd.read_csv(tmp_path / "tables" / name)
        gaps = [c for c in frame if c.startswith(("delta_isolated", "delta_overall"))]
        assert gaps and frame[gaps].isna().all().all(), (name, frame[gaps])
        assert (frame["not_measurable"] == SAME_MIX_REASON).all()
    assert "not measurable" in (tmp_path / "tables" / "gaps.md").read_text(encoding="utf-8")


class _Cells(HTMLParser):
    """The text of every table cell and every paragraph of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.paragraphs: list[str] = []
        self._open: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "th", "p", "li"):
            self._open = []

    def handle_endtag(self, tag):
        if tag in ("td", "th", "p", "li") and self._open is not None:
            text = " ".join("".join(self._open).split())
            (self.cells if tag in ("td", "th") else self.paragraphs).append(text)
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open.append(data)


def test_the_report_shows_the_reason_not_a_number(degenerate_run, tmp_path):
    written = invoke("report", degenerate_run, "--out", tmp_path / "report.html")
    assert written.exit_code == 0, written.output
    page = _Cells()
    page.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert page.cells.count("not measurable") >= 2  # δ and Δ
    assert any(SAME_MIX_REASON in p for p in page.paragraphs), page.paragraphs
    assert not any(c.startswith("0.000 ± — [") and "δ" in c for c in page.cells)


def test_a_scarce_label_makes_the_figures_reading_it_not_measurable():
    # The AG News case: a label with 4 training rows in Imbalanced.
    imbalanced = {"sports": {"World": 4, "Sports": 60}, "other": {"World": 0, "Sports": 20}}
    balanced = {"sports": {"World": 30, "Sports": 34}, "other": {"World": 10, "Sports": 10}}
    reasons = measurability({"imbalanced": imbalanced, "balanced": balanced})["not_measurable"]
    assert reasons == [
        {
            "figures": ["delta_isolated", "delta_overall"],
            "reason": f"Imbalanced has fewer than {MIN_ROWS} rows of label 'World' (4)",
        }
    ]


def test_a_manifest_written_before_the_check_is_checked_from_its_label_counts():
    same = {"a": {"x": 30, "y": 10}, "b": {"x": 10, "y": 30}}
    manifest = {"splits": {s: {"label_counts": same} for s in ("imbalanced", "balanced")}}
    assert [r["figures"] for r in manifest_reasons(manifest)] == [
        ["delta_isolated", "delta_overall"]
    ]
    assert manifest_reasons({"not_measurable": [], **manifest}) == []  # the record wins
