"""``shortcutlab report`` of an ``evaluate`` results folder: the README's third command. The page
holds the numbers ``evaluate`` wrote, its findings and the rows whose prediction changed."""

from __future__ import annotations

import re

import pandas as pd

from shortcutlab.reports.tables import format_cell
from tests.cli.refusals import invoke


def _built_and_evaluated(tmp_path, *evaluate_options):
    data = tmp_path / "data"
    assert invoke("generate", "--out", data, "--train-size", 600, "--test-size", 300).exit_code == 0
    built = invoke(
        "build", "maze", "--train", data / "train.csv", "--test", data / "test.csv",
        "--shortcut", "single-term", "--strength", 0.8, "--out", tmp_path / "bench",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    evaluated = invoke("evaluate", tmp_path / "bench", "--bootstrap", 200, *evaluate_options)
    assert evaluated.exit_code == 0, evaluated.output
    return evaluated


def test_an_evaluation_folder_reports_its_numbers_findings_and_rows(tmp_path):
    evaluated = _built_and_evaluated(tmp_path, "--seeds", 2, "--out", tmp_path / "results")
    reported = invoke("report", tmp_path / "results")
    assert reported.exit_code == 0, reported.output
    page = (tmp_path / "results" / "report.html").read_text(encoding="utf-8")
    headings = re.findall(r"<h2[^>]*>(.*?)</h2>", page)
    assert headings[1:5] == [
        "Overview",
        "Test, anti-test and Δ",
        "Findings",
        "Rows behind the numbers",
    ]
    written = pd.read_csv(tmp_path / "results" / "results.csv")
    delta = format_cell(written["delta_accuracy_mean"].iloc[0])
    assert f'<td class="num">{delta}' in page  # the Δ evaluate wrote, as the table shows it
    finding = evaluated.stdout.split("\nFindings:\n")[1].splitlines()[0].removeprefix("- ")
    assert finding.split(":")[0] in page  # "tfidf-logreg relies on single-term"
    assert 'id="explorer-rows"' in page and "broke" in page  # the explorer, with its changed pairs


def test_the_default_results_folder_finds_its_benchmark(tmp_path):
    _built_and_evaluated(tmp_path, "--seeds", 1)
    folder = tmp_path / "bench" / "results" / "tfidf-logreg"
    assert invoke("report", folder).exit_code == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert 'id="explorer-rows"' in page
