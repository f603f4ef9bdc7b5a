"""The audit report of a real, triaged audit folder in Chromium at 1,400 pixels wide: the three
lists open the page, and the ranked table shows every column without scrolling sideways."""

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

LAPTOP = (1400, 900)
LISTS = ["Likely shortcuts", "Label signal", "Needs your judgement"]


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    """The shared browser at a laptop's width."""
    with window_size(browser, *LAPTOP) as sized:
        yield sized


def _layout(browser: Any) -> dict[str, Any]:
    """The headings of the page's main part in order with their tops, and where the ranked
    table's last header cell ends next to the viewport's and its box's right edges."""
    return browser.execute_script(
        """
        var headings = Array.from(document.querySelectorAll('main h2, main h3, main figcaption'))
          .filter(function (h) { return h.getClientRects().length > 0; })
          .map(function (h) { return [h.textContent.trim(), h.getBoundingClientRect().top]; });
        var figure = document.getElementById('audit-candidates');
        var box = figure.querySelector('.table-scroll');
        var cells = figure.querySelectorAll('thead th');
        var last = cells[cells.length - 1];
        return {headings: headings, lastText: last.textContent,
                lastRight: last.getBoundingClientRect().right,
                viewport: document.documentElement.clientWidth,
                boxScroll: box.scrollWidth, boxClient: box.clientWidth,
                pageScroll: document.documentElement.scrollWidth};
        """
    )


def test_the_lists_come_first_and_the_ranked_table_fits_1400_pixels(laptop, tmp_path: Path):
    folder = measured_audit(tmp_path / "audit")
    open_file(laptop, write_html_report(folder))
    layout = _layout(laptop)
    texts = [text for text, _ in layout["headings"]]
    tops = dict(layout["headings"])
    assert [text.split(" (")[0] for text in texts[1:4]] == LISTS  # after the section title
    assert tops[texts[3]] < tops["Ranked candidates"] < tops["Scanned data"]
    assert layout["lastText"] == "Δ [95 %]"
    assert layout["lastRight"] <= layout["viewport"], layout  # the last column is on screen
    assert layout["boxScroll"] <= layout["boxClient"], layout  # its box does not scroll
    assert layout["pageScroll"] <= layout["viewport"], layout  # nor does the page
    assert console_errors(laptop) == []
