"""The rewrite-quality collector on a real 'shortcutlab rewrite-quality --out' folder (rules
rewriter, a local LLM judge): the summary holds what the CLI prints, flagged rows keep their
texts."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from shortcutlab.corpus import generate_reviews
from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.families.maze import explain_report as attributions
from shortcutlab.families.maze import rewrites_report as rewrites
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Table
from shortcutlab.reports.tables import format_cell
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.server import ChatServer
from tests.cli.refusals import invoke

HOSTILE = 'A "><img src=x onerror=alert(1)> <script>alert(1)</script> review.'
FORMULA = '=HYPERLINK("http://evil") was a review a spreadsheet would run.'


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rewrite-report")
    data = generate_reviews(40, seed=8)
    data.loc[0, "text"] = HOSTILE
    data.loc[1, "text"] = FORMULA
    data.to_csv(folder / "data.csv", index=False)
    with ChatServer(project_backend()) as server:
        judge = (
            f"{{name: openai-chat, base_url: '{server.url}', model: shortcutlab-test, "
            f"api_key_env: null, cache: '{folder / 'judge.sqlite'}'}}"
        )
        printed = invoke(
            "rewrite-quality",
            "--data",
            folder / "data.csv",
            "--shortcut",
            "bible",
            "--no-embeddings",
            "--judge",
            judge,
            "--out",
            folder / "quality",
        )
    assert printed.exit_code == 0, printed.output
    return folder / "quality", printed.stdout


def test_rewrite_quality_folders_are_recognised(checked, tmp_path):
    folder, _ = checked
    assert rewrites.recognises(folder) and not attributions.recognises(folder)
    assert not rewrites.recognises(tmp_path)


def test_the_summary_holds_what_the_cli_prints(checked):
    folder, printed = checked
    (section,) = rewrites.sections(ReportInput("rewrite-quality", folder))
    tables = {b.name: b for b in section.blocks if isinstance(b, Table)}
    summary = tables["rewrite-quality-summary"]
    assert summary.title in printed
    assert {"meaning", "attitude", "no_added", "no_omitted"} <= set(summary.frame.columns)
    lines = [[cell for cell in line.split() if cell != "│"] for line in printed.splitlines()]
    for style in summary.frame.index:
        shown = [format_cell(summary.frame.at[style, c], summary.digits) for c in summary.frame]
        assert [style, *shown] in lines, (style, shown)
    facts = next(b for b in section.blocks if isinstance(b, Facts))
    assert ("judge", "openai-chat") in facts.items
    (note,) = summary.notes  # says what the columns present mean, and only those
    assert "the judge's 1-5 scores" in note and "similarity" not in note


def test_flagged_rows_keep_their_texts(checked):
    folder, printed = checked
    (section,) = rewrites.sections(ReportInput("rewrite-quality", folder))
    flagged = next(b for b in section.blocks if getattr(b, "name", "") == "rewrite-quality-flagged")
    written = from_people_csv(pd.read_csv(folder / "flagged.csv", dtype={"row_id": str}))
    assert len(flagged.frame) == len(written) > 0
    assert f"{len(written)} of {len(pd.read_csv(folder / 'rows.csv'))} rewrites" in printed
    assert flagged.notes[0].startswith(f"{len(written)} of ")
    keys = list(zip(written["row_id"], written["style"], strict=True))
    assert list(flagged.frame.index) == keys
    assert list(flagged.frame["original"]) == list(written["original"])
    hostile = flagged.frame[flagged.frame["original"] == HOSTILE]
    assert len(hostile) == len(written[written["original"] == HOSTILE])


def test_the_files_run_nothing_in_a_spreadsheet_and_give_back_the_texts(checked):
    folder, _ = checked
    raw = (folder / "rows.csv").read_text(encoding="utf-8")
    cells = [cell for row in csv.reader(io.StringIO(raw, newline="")) for cell in row]
    assert "'" + FORMULA in cells and FORMULA not in cells
    rows = from_people_csv(pd.read_csv(folder / "rows.csv", dtype={"row_id": str}))
    assert FORMULA in set(rows["original"])
