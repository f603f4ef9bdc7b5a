"""The report's layout in a narrow browser window: a wide table scrolls inside its own box (the
audit's candidates, the row explorer) while the page itself never scrolls sideways, and every
column can be scrolled into view; the explorer names its probability column as such."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shortcutlab.webreport.build import write_html_report
from tests.browser import console_errors, open_file, window_size
from tests.families.audit.report_records import measured_audit

# Each test drives a real Chromium: the quick loop (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow

NARROW = (700, 900)


@pytest.fixture
def narrow(browser: Any) -> Iterator[Any]:
    """The shared browser at the width of a phone held sideways or half a laptop screen."""
    with window_size(browser, *NARROW) as sized:
        yield sized


def _boxes(browser: Any) -> list[dict[str, Any]]:
    """Per table box: its name, widths, and where its last header cell ends once the box is
    scrolled to its right end, next to where the box ends."""
    return browser.execute_script(
        """
        return Array.from(document.querySelectorAll('.table-scroll')).map(function (box) {
          box.scrollLeft = box.scrollWidth;
          var cells = box.querySelectorAll('thead th');
          var last = cells[cells.length - 1].getBoundingClientRect();
          var outer = box.getBoundingClientRect();
          return {name: box.closest('[data-name], .explorer').id, scroll: box.scrollWidth,
                  client: box.clientWidth, overflow: getComputedStyle(box).overflowX,
                  lastRight: last.right, boxRight: outer.right, lastText: cells[cells.length - 1].textContent};
        });
        """
    )


def _page_width(browser: Any) -> tuple[int, int]:
    return tuple(
        browser.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
    )


def _assert_wide_box_scrolls(browser: Any, name: str, last_header: str) -> None:
    boxes = {box["name"]: box for box in _boxes(browser)}
    box = boxes[name]
    assert box["overflow"] == "auto"
    assert box["scroll"] > box["client"], box  # wider than its box: the box scrolls
    assert box["lastRight"] <= box["boxRight"] + 1, box  # ... to its last column
    assert box["lastText"].strip() == last_header
    scroll_width, client_width = _page_width(browser)
    assert scroll_width <= client_width  # the page itself does not scroll sideways


def test_the_audits_wide_table_scrolls_in_its_box_not_the_page(narrow, tmp_path: Path) -> None:
    folder = measured_audit(tmp_path / "audit-out", fix=False)
    open_file(narrow, write_html_report(folder))
    _assert_wide_box_scrolls(narrow, "audit-candidates", "Δ [95 %]")
    assert console_errors(narrow) == []


def test_the_explorer_scrolls_in_its_box_and_names_its_probability_column(
    narrow, maze_run: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    open_file(narrow, write_html_report(maze_run, tmp_path / "report.html"))
    explorer = narrow.find_element(By.CSS_SELECTOR, ".explorer")
    name = explorer.get_attribute("id")
    _assert_wide_box_scrolls(narrow, name, "probability")
    headers = [th.get_attribute("textContent") for th in explorer.find_elements(By.TAG_NAME, "th")]
    assert headers.count("probability") == 2 and "p" not in headers
    tips = [th.get_attribute("title") for th in explorer.find_elements(By.TAG_NAME, "th")]
    assert sum("not a p-value" in tip for tip in tips) == 2
    assert "not a p-value" in explorer.text  # said on the page, not only in a tooltip
    assert console_errors(narrow) == []
