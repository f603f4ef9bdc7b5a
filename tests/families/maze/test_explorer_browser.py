"""The row explorer in a real headless Chromium: filters narrow the rows and the count says so,
headers sort, the cue is marked, rows holding HTML render as text, and the console stays clean."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from shortcutlab.families import load_results
from shortcutlab.families.maze.explorer import grid_explorer
from shortcutlab.reports.html.document import ExplorerCell, ExplorerRow, RowExplorer, Span
from tests.browser import console_errors, open_file
from tests.families.maze.explorer_helpers import small_grid_run, write_explorer_page

SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'


def row(row_id: str, label: str, change: str, test: tuple, anti: tuple) -> ExplorerRow:
    """test / anti: (text, spans as (start, end) pairs, prediction, confidence)."""
    return ExplorerRow(
        row_id=row_id,
        label=label,
        test_text=test[0],
        anti_text=anti[0],
        test_spans=[Span(*s) for s in test[1]],
        anti_spans=[Span(*s) for s in anti[1]],
        test_prediction=test[2],
        anti_prediction=anti[2],
        test_confidence=test[3],
        anti_confidence=anti[3],
        change=change,
    )


ROWS = [
    row(
        "2",
        "pos",
        "broke",
        ("Honestly, good stuff", [(0, 9)], "pos", 0.9),
        ("good stuff", [], "neg", 0.6),
    ),
    row(
        "10",
        "neg",
        "broke",
        ("awful thing, frankly said", [(13, 20)], "neg", 0.55),
        ("Honestly, awful thing", [(0, 9)], "pos", 0.8),
    ),
    row("1", "neg", "fixed", (SCRIPT, [], "pos", 0.7), (IMAGE, [], "neg", 0.3)),
    row(
        "7",
        "pos",
        "changed",
        ("meh <b>bold</b> & co", [(0, 3), (5, 6)], "neg", 0.4),
        ("meh", [], "(no valid answer)", None),
    ),
]
# Characters outside the Basic Multilingual Plane: one code point in Python, two UTF-16 units in JS.
EMOJI_ROWS = [
    row(
        "3",
        "pos",
        "broke",
        ("😀😀 I honestly liked it", [(5, 13)], "pos", 0.9),
        ("I liked it 👍 , frankly 👍", [(15, 22)], "neg", 0.6),
    ),
]
BLOCK = RowExplorer(
    name="rows",
    title="Rows whose prediction changed",
    cells=[
        ExplorerCell("a", "cell A", [("shortcut", "single-term")], ROWS, omitted=3),
        ExplorerCell(
            "b",
            f"cell B {IMAGE}",
            [("dataset", SCRIPT)],
            [row("5", IMAGE, "broke", ("x", [], IMAGE, 0.5), ("y", [], "neg", 0.5))],
        ),
        ExplorerCell("c", "cell C", [], [], omitted=4),
        ExplorerCell("d", "cell D", [], []),
        ExplorerCell("e", "cell E", [], EMOJI_ROWS),
    ],
    notes=[f"a note {SCRIPT}"],
)


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Any:
    open_file(browser, write_explorer_page(BLOCK, tmp_path / "explorer.html"))
    return browser


def css(browser: Any, selector: str) -> list[Any]:
    return browser.find_elements("css selector", selector)


def shown_ids(browser: Any) -> list[str]:
    return [tr.get_attribute("data-row-id") for tr in css(browser, "tbody tr.explorer-row")]


def count(browser: Any) -> str:
    return css(browser, ".explorer-count")[0].text


def test_the_first_cell_is_drawn_with_its_facts_and_count(page: Any) -> None:
    assert css(page, "#explorer-rows") and shown_ids(page) == ["2", "10", "1", "7"]
    assert count(page) == "showing 4 of 4"
    assert css(page, ".explorer-cell-title")[0].text == "cell A"
    assert [e.text for e in css(page, ".explorer-facts dd")] == ["single-term"]
    assert "3 more changed pairs" in css(page, ".explorer-omitted")[0].text
    assert console_errors(page) == []


def test_the_text_filter_narrows_rows_and_the_count_says_so(page: Any) -> None:
    box = css(page, "input.explorer-filter")[0]
    box.send_keys("HONESTLY")  # case-insensitive, test or anti-test text
    assert shown_ids(page) == ["2", "10"] and count(page) == "showing 2 of 4"
    box.clear()
    box.send_keys("frankly")
    assert shown_ids(page) == ["10"] and count(page) == "showing 1 of 4"
    box.clear()
    box.send_keys("no valid")  # a prediction matches too
    assert shown_ids(page) == ["7"]
    box.clear()
    box.send_keys("nothing like this")
    assert shown_ids(page) == [] and count(page) == "showing 0 of 4"
    assert css(page, "tbody tr.explorer-empty")[0].text == "No pair matches the filters."


def test_the_change_filter_and_the_cell_picker(page: Any) -> None:
    from selenium.webdriver.support.ui import Select

    Select(css(page, "select.explorer-change")[0]).select_by_value("fixed")
    assert shown_ids(page) == ["1"] and count(page) == "showing 1 of 4"
    Select(css(page, "select.explorer-change")[0]).select_by_value("")
    Select(css(page, "select.explorer-cell")[0]).select_by_index(1)
    assert shown_ids(page) == ["5"] and count(page) == "showing 1 of 1"
    assert css(page, ".explorer-cell-title")[0].text == f"cell B {IMAGE}"
    assert css(page, ".explorer-omitted")[0].text == ""
    empty = {
        2: "This cell's changed pairs did not fit in the page budget.",
        3: "No pair of this cell changed its prediction.",
    }
    for index, message in empty.items():
        Select(css(page, "select.explorer-cell")[0]).select_by_index(index)
        assert count(page) == "showing 0 of 0"
        assert css(page, "tbody tr.explorer-empty")[0].text == message


def test_headers_sort_numbers_as_numbers_and_toggle_direction(page: Any) -> None:
    header = css(page, 'th[data-sort="row_id"]')[0]
    header.click()
    assert shown_ids(page) == ["1", "2", "7", "10"]
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert shown_ids(page) == ["10", "7", "2", "1"]
    css(page, 'th[data-sort="test_confidence"]')[0].click()
    assert shown_ids(page) == ["7", "10", "1", "2"]
    assert header.get_attribute("aria-sort") == "none"
    css(page, 'th[data-sort="anti_confidence"]')[0].click()
    assert shown_ids(page) == ["1", "2", "10", "7"]  # no confidence sorts last
    css(page, 'th[data-sort="label"]')[0].click()
    assert shown_ids(page) == ["10", "1", "2", "7"]  # ties keep their order
    css(page, "input.explorer-filter")[0].send_keys("honestly")
    assert shown_ids(page) == ["10", "2"]  # the sort holds while filtering


def test_the_cue_is_marked_around_its_span(page: Any) -> None:
    cells = {tr.get_attribute("data-row-id"): tr for tr in css(page, "tbody tr")}
    marks = lambda tr: [m.text for m in tr.find_elements("css selector", "mark.cue")]  # noqa: E731
    assert marks(cells["2"]) == ["Honestly,"]
    assert marks(cells["10"]) == ["frankly", "Honestly,"]
    assert marks(cells["7"]) == ["meh", "b"]  # two spans, one inside markup-like text
    texts = cells["10"].find_elements("css selector", "td.explorer-text")
    assert [t.get_attribute("textContent") for t in texts] == [ROWS[1].test_text, ROWS[1].anti_text]


def test_the_cue_is_marked_at_code_point_offsets_after_an_emoji(page: Any) -> None:
    from selenium.webdriver.support.ui import Select

    Select(css(page, "select.explorer-cell")[0]).select_by_index(4)
    texts = css(page, 'tr[data-row-id="3"] td.explorer-text')
    marks = [t.find_element("css selector", "mark.cue").get_attribute("textContent") for t in texts]
    pair = EMOJI_ROWS[0]
    (test,), (anti,) = pair.test_spans, pair.anti_spans
    assert marks == [pair.test_text[test.start : test.end], pair.anti_text[anti.start : anti.end]]
    assert marks == ["honestly", "frankly"]
    assert [t.get_attribute("textContent") for t in texts] == [pair.test_text, pair.anti_text]


def test_rows_holding_html_render_as_text(page: Any) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.support.ui import Select

    texts = [t.text for t in css(page, 'tr[data-row-id="1"] td.explorer-text')]
    assert texts == [SCRIPT, IMAGE]
    assert css(page, 'tr[data-row-id="7"] td.explorer-text')[0].text == "meh <b>bold</b> & co"
    code = [s for s in css(page, "script") if s.get_attribute("type") != "application/json"]
    ours = [
        f
        for f in (files("shortcutlab.reports.html") / "static").iterdir()
        if f.name.endswith(".js")
    ]
    assert not css(page, "img") and not css(page, "b") and len(code) == len(ours)
    assert any(SCRIPT in e.text for e in css(page, ".explorer-note"))
    Select(css(page, "select.explorer-cell")[0]).select_by_index(1)
    assert css(page, "tbody td.explorer-label")[0].text == IMAGE
    assert css(page, ".explorer-facts dd")[0].text == SCRIPT
    assert not css(page, "img")
    with pytest.raises(NoAlertPresentException):
        page.switch_to.alert.text  # noqa: B018
    assert console_errors(page) == []


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_grid_run(tmp_path_factory.mktemp("explorer-browser") / "run")


def test_a_real_run_page_marks_each_recorded_cue(
    browser: Any, run_dir: Path, tmp_path: Path
) -> None:
    explorer = grid_explorer(load_results(run_dir), run_dir)
    open_file(browser, write_explorer_page(explorer, tmp_path / "run.html"))
    first = explorer.cells[0]
    assert count(browser) == f"showing {len(first.rows)} of {len(first.rows)}"
    folder = (
        run_dir
        / "benchmarks"
        / load_results(run_dir).cells.set_index("cell_id").loc[first.key, "benchmark_id"]
    )
    test = pd.read_csv(folder / "test.csv", keep_default_na=False).set_index("row_id")
    for tr in css(browser, "tbody tr.explorer-row")[:20]:
        row_id = int(tr.get_attribute("data-row-id"))
        (start, end), *_ = json.loads(test.loc[row_id, "cue_spans"])
        mark = tr.find_elements("css selector", "td.explorer-text")[0].find_element(
            "css selector", "mark.cue"
        )
        assert mark.get_attribute("textContent") == test.loc[row_id, "text"][start:end]
    assert console_errors(browser) == []


def test_print_shows_the_selected_cell_without_the_controls(page: Any) -> None:
    from selenium.webdriver.support.ui import Select

    Select(css(page, "select.explorer-cell")[0]).select_by_index(1)
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not css(page, ".explorer-controls")[0].is_displayed()
        assert css(page, ".explorer-cell-title")[0].text == f"cell B {IMAGE}"
        assert [tr.is_displayed() for tr in css(page, "tbody tr.explorer-row")] == [True]
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
