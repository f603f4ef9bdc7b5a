"""The attributions collector on a real explain folder (tfidf-logreg on a small single-term
build): Table 4 and the checks as the CLI prints them, and every row's tokens shaded."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.families.cat import report as cat
from shortcutlab.families.maze import explain_report as attributions
from shortcutlab.families.suite import report as suite
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Paragraphs, ShadedRows, Table
from shortcutlab.reports.tables import format_cell
from tests.explain.conftest import cue_build  # noqa: F401 (a fixture)
from tests.reports.shaded_rendering import parse_shaded, render_shaded


@pytest.fixture(scope="module")
def explained(cue_build, tmp_path_factory):  # noqa: F811
    out = tmp_path_factory.mktemp("explain-report") / "explained"
    arguments = ["explain", str(cue_build), "--model", "tfidf-logreg", "--rows", "8"]
    printed = CliRunner().invoke(app, [*arguments, "--pictures", "0", "--out", str(out)])
    assert printed.exit_code == 0, printed.output
    return out, " ".join(printed.stdout.split())


def _sections(folder):
    (section,) = attributions.sections(ReportInput("explain", folder))
    return section


def test_explain_folders_are_recognised(explained, tmp_path):
    folder, _ = explained
    assert attributions.recognises(folder)
    assert not cat.recognises(folder) and not suite.recognises(folder)
    assert not attributions.recognises(tmp_path)


def test_the_tables_hold_what_explain_prints(explained):
    folder, printed = explained
    section = _sections(folder)
    tables = {b.name: b for b in section.blocks if isinstance(b, Table)}
    assert list(tables) == [
        "attributions-mean-shap",
        "attributions-mean-abs-shap",
        "attributions-checks",
    ]
    for name in ("attributions-mean-shap", "attributions-mean-abs-shap"):
        frame = tables[name].frame
        for value in (v for column in frame for v in frame[column]):  # keeps the count's int
            assert format_cell(value, tables[name].digits) in printed, (name, value)
    checks = tables["attributions-checks"].frame.loc["erm"]
    assert (
        f"erm: cue tokens' mean |SHAP| {checks['cue mean |SHAP|']} vs other tokens' "
        f"{checks['others mean |SHAP|']}; per-row difference {checks['per-row difference']}"
    ) in printed
    assert (
        f"top token in the cue on {checks['top token in the cue']} of rows (a random token: "
        f"{checks['a random token']})"
    ) in printed
    assert f"SHAP on {checks['sign agreement']}" in printed
    facts = next(b for b in section.blocks if isinstance(b, Facts))
    assert ("mitigation", "— (erm only)") in facts.items


def test_every_row_is_shaded_with_its_cue_underlined(explained):
    folder, _ = explained
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    (block,) = [b for b in _sections(folder).blocks if isinstance(b, ShadedRows)]
    stored = results["rows"]["erm"]
    assert [r.row_id for r in block.rows] == [str(r["row_id"]) for r in stored]
    parsed = parse_shaded(render_shaded(block))
    for record, row, shown in zip(stored, block.rows, parsed.rows, strict=True):
        assert shown["text"] == record["text"]  # nothing lost or added around the tokens
        cue = [s["text"] for s in shown["spans"] if "cue" in s["class"].split()]
        start, end = record["cue_spans"][0]
        assert "".join(cue) in record["text"][start:end] and cue
        strongest = max(shown["spans"], key=lambda s: abs(float(s["title"])))
        assert strongest["text"] == record["top_token"] and strongest["style"] == "--w:1.000"
        assert row.title.startswith(f"erm · row {record['row_id']}: predicted ")


def test_an_output_without_token_values_says_what_to_do(explained, tmp_path):
    folder, _ = explained
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    for row in results["rows"]["erm"]:
        del row["token_offsets"]
    (tmp_path / "results.json").write_text(json.dumps(results), encoding="utf-8")
    blocks = _sections(tmp_path).blocks
    assert not any(isinstance(b, ShadedRows) for b in blocks)
    (notice,) = [b for b in blocks if isinstance(b, Paragraphs)]
    assert "run 'shortcutlab explain' again" in notice.texts[0]
