"""``shortcutlab report``: what it writes, the numbers ``shortcutlab results`` prints, and its
refusals (exit 2, one line, nothing written)."""

from __future__ import annotations

import re
import shutil

import pytest

from shortcutlab.engine.store import DATABASE, ResultStore
from shortcutlab.families import parse_spec
from tests.cli.refusals import assert_refused, invoke


def _table(text: str, name: str) -> str:
    start = text.index(f'id="{name}"')
    return text[start : text.index("</figure>", start)]


def _delta_rows(table_html: str) -> list[list[str]]:
    rows = re.findall(r'<th scope="row">Δ</th>\s*((?:<td class="num">[^<]*</td>\s*)+)', table_html)
    return [re.findall(r'<td class="num">([^<]*)</td>', row) for row in rows]


def test_report_writes_the_page_and_prints_its_path_and_size(maze_run, tmp_path):
    run = shutil.copytree(maze_run, tmp_path / "run")
    result = invoke("report", run)
    assert result.exit_code == 0, result.output
    page = run / "report.html"
    size = page.stat().st_size
    assert result.stdout.strip() == f"Wrote {page} ({size / 1e3:.0f} kB)"
    text = page.read_text(encoding="utf-8")
    for anchor in (
        "overview",
        "table1",
        "table9-accuracy",
        "table9-macro_f1",
        "delta-reviews-accuracy",
    ):
        assert f'id="{anchor}"' in text
    # Written twice, the same bytes (no clock time in the page).
    again = invoke("report", run, "--out", tmp_path / "again.html")
    assert again.exit_code == 0 and (tmp_path / "again.html").read_bytes() == page.read_bytes()


def test_the_tables_hold_what_shortcutlab_results_prints(maze_run, tmp_path):
    assert invoke("report", maze_run, "--out", tmp_path / "r.html").exit_code == 0
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    printed = invoke("results", maze_run, "--metric", "accuracy", "--format", "md").stdout
    printed_deltas = [
        [cell.strip() for cell in line.strip("|").split("|")[-2:]]
        for line in printed.splitlines()
        if re.match(r"^\|( *\|)* Δ \|", line)
    ]
    shown = _delta_rows(_table(text, "table9-accuracy"))
    assert len(shown) == 2 and shown == printed_deltas
    assert any(cell.endswith("*") for row in shown for cell in row)  # single-term at λ=1 is strong


def test_the_overview_comes_from_the_store(maze_run, tmp_path):
    assert invoke("report", maze_run, "--out", tmp_path / "r.html").exit_code == 0
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    with ResultStore.for_run(maze_run) as store:
        spec_hash = store.meta("spec_hash")
    assert f"<dd>{spec_hash}</dd>" in text
    assert "<dd>8 finished of 8 planned; 0 failed</dd>" in text
    assert "<dt>seeds</dt>\n<dd>0, 1</dd>" in text


def test_included_folders_get_their_own_anchors(maze_run, tmp_path):
    other = shutil.copytree(maze_run, tmp_path / "second")
    (other / "report.html").unlink(missing_ok=True)
    result = invoke("report", maze_run, "--out", tmp_path / "r.html", "--include", other)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    ids = re.findall(r' id="([^"]+)"', text)
    assert len(ids) == len(set(ids))
    assert text.count("Table 1 layout") == 2 and "Overview (second)" in text


def test_overwrite_replaces_an_existing_page(maze_run, tmp_path):
    target = tmp_path / "r.html"
    target.write_text("old", encoding="utf-8")
    assert invoke("report", maze_run, "--out", target, "--overwrite").exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.fixture
def unfinished_run(tmp_path):
    """A run folder whose spec is stored but whose cells never finished (killed at once)."""
    spec = parse_spec(
        {
            "name": "never",
            "data": {"builtin": "reviews"},
            "shortcuts": ["single-term"],
            "strengths": [1.0],
            "models": [{"name": "tfidf-logreg"}],
        }
    )
    folder = tmp_path / "watched" / "run"
    folder.mkdir(parents=True)
    with ResultStore(folder / DATABASE) as store:
        store.write_spec(spec.resolved(), spec.fingerprint(), ["a" * 64])
    return folder


def test_a_run_with_no_finished_cells_is_refused(unfinished_run):
    assert_refused(
        unfinished_run.parent,
        f"'{unfinished_run}' has no finished cells: run 'shortcutlab run SPEC --out {unfinished_run}' first.",
        "report",
        unfinished_run,
    )


def test_refusals_write_nothing(maze_run, tmp_path):
    watched = tmp_path / "watched"
    (watched / "empty").mkdir(parents=True)
    (watched / "existing.html").write_text("keep", encoding="utf-8")
    (watched / "a-file.txt").write_text("x", encoding="utf-8")
    assert_refused(watched, "does not exist", "report", watched / "missing")
    assert_refused(watched, "is a file; give a folder", "report", watched / "a-file.txt")
    assert_refused(
        watched,
        "holds nothing a report is made from: a run folder holds results.sqlite",
        "report",
        watched / "empty",
    )
    assert_refused(
        watched,
        "exists. Choose another --out or pass --overwrite.",
        "report",
        maze_run,
        "--out",
        watched / "existing.html",
    )
    assert_refused(
        watched, "is a folder; give a file path", "report", maze_run, "--out", watched / "empty"
    )
    assert_refused(
        watched,
        "The --include folder",
        "report",
        maze_run,
        "--out",
        watched / "new.html",
        "--include",
        watched / "missing",
    )
    assert_refused(
        watched,
        "holds nothing a report is made from",
        "report",
        maze_run,
        "--out",
        watched / "new.html",
        "--include",
        watched / "empty",
    )


def test_a_run_with_a_failed_cell_is_reported_and_the_overview_counts_it(maze_run, tmp_path):
    run = shutil.copytree(maze_run, tmp_path / "run")
    with ResultStore(run / DATABASE) as store:
        (cell_id,) = store.connection.execute("SELECT cell_id FROM cells LIMIT 1").fetchone()
        store.connection.execute(
            "UPDATE cells SET status = 'failed', metrics = NULL, error = 'boom' WHERE cell_id = ?",
            (cell_id,),
        )
    result = invoke("report", run)
    assert result.exit_code == 0, result.output
    text = (run / "report.html").read_text(encoding="utf-8")
    assert "7 finished of 8 planned; 1 failed" in text


def test_a_store_that_is_not_a_database_is_refused_and_left_as_it_was(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / DATABASE).write_bytes(b"")
    assert_refused(tmp_path, "holds no shortcutlab results (no cells table)", "report", empty)
    assert (empty / DATABASE).read_bytes() == b""
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / DATABASE).write_bytes(b"not a database at all, just text " * 100)
    before = (garbage / DATABASE).read_bytes()
    assert_refused(
        tmp_path, "is damaged or not a database: file is not a database", "report", garbage
    )
    assert (garbage / DATABASE).read_bytes() == before


def test_an_unwritable_out_is_refused_with_the_fix(maze_run, tmp_path):
    target = tmp_path / "file-not-folder"
    target.write_text("x")
    assert_refused(
        tmp_path,
        f"lies under '{target}', which is a file, not a folder. Choose an output path outside it.",
        "report",
        maze_run,
        "--out",
        target / "r.html",
    )
