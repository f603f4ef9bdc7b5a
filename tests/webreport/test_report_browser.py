"""The report in a real browser (headless Debian chromium): it opens offline with no console
error, its tables and figures render, HTML in data stays text, and the demo writes one."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from shortcutlab.families import load_results
from shortcutlab.reports.html.document import Report, Section, Table
from shortcutlab.reports.html.render import write_report_html
from shortcutlab.webreport.build import write_html_report
from tests.browser import console_errors, open_file
from tests.reports.test_html_render import IMAGE, SCRIPT, hostile_report
from tests.webreport.conftest import SPEC_NAME

# Each test drives a real Chromium: the quick loop (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow


def _by(name: str) -> Any:
    from selenium.webdriver.common.by import By

    return getattr(By, name)


def assert_no_alert(browser: Any) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018  (reading it is the check)


def assert_painted(browser: Any) -> None:
    """A screenshot of the page that is not blank: many distinct colours (text, rules, figures)."""
    from PIL import Image

    png = browser.get_screenshot_as_png()
    assert len(png) > 20_000
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert len(image.getcolors(maxcolors=1 << 20) or []) > 100


def assert_figures_render(browser: Any, minimum: int) -> None:
    figures = browser.find_elements(_by("CSS_SELECTOR"), "figure.figure svg")
    assert len(figures) >= minimum
    for svg in figures:
        assert svg.size["width"] > 200 and svg.size["height"] > 100
        # The axes and lines are drawn: the figure holds paths with a painted extent.
        assert (
            browser.execute_script("return arguments[0].querySelectorAll('path').length", svg) > 10
        )


def test_grid_report_opens_with_its_tables_and_figures(browser, maze_run, tmp_path):
    page = write_html_report(maze_run, tmp_path / "report.html")
    open_file(browser, page)
    assert console_errors(browser) == []
    assert browser.find_element(_by("TAG_NAME"), "h1").text == SPEC_NAME
    assert browser.find_elements(_by("TAG_NAME"), "img") == []
    assert_no_alert(browser)
    # Table 1: the Δ accuracy of single-term at λ = 1, as the statistics give it.
    groups = load_results(maze_run).groups
    group = groups[(groups["shortcut"] == "single-term") & (groups["strength"] == 1.0)].iloc[0]
    expected = f"{group['delta_accuracy_mean']:.3f}" + (
        "*" if group["significant_accuracy"] else ""
    )
    table = browser.find_element(_by("ID"), "table1")
    row = next(
        tr
        for tr in table.find_elements(_by("CSS_SELECTOR"), "tbody tr")
        if "single-term" in [th.text for th in tr.find_elements(_by("TAG_NAME"), "th")]
    )
    cells = [td.text for td in row.find_elements(_by("TAG_NAME"), "td")]
    assert cells[2] == expected and len(cells) == 6
    assert_figures_render(browser, minimum=2)
    assert_painted(browser)


def test_printing_shows_every_section_without_the_contents(browser, maze_run, tmp_path):
    open_file(browser, write_html_report(maze_run, tmp_path / "report.html"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not browser.find_element(_by("CSS_SELECTOR"), "nav.toc").is_displayed()
        sections = browser.find_elements(_by("CSS_SELECTOR"), "section.report-section")
        assert len(sections) >= 3 and all(s.is_displayed() for s in sections)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert console_errors(browser) == []


def test_html_in_data_renders_as_text(browser, tmp_path):
    open_file(browser, write_report_html(hostile_report(), tmp_path / "hostile.html"))
    assert console_errors(browser) == []
    assert_no_alert(browser)
    assert browser.find_elements(_by("TAG_NAME"), "img") == []
    text = browser.find_element(_by("TAG_NAME"), "body").text
    assert SCRIPT in text and IMAGE.strip() in text
    cells = [td.text for td in browser.find_elements(_by("CSS_SELECTOR"), "#t9 td")]
    assert cells == ["0.500", "—", "0.125*", "3", "1.000", IMAGE.strip()]
    # The page's only scripts are the inlined static files: no script element came from data.
    for script in browser.find_elements(_by("TAG_NAME"), "script"):
        assert "alert(1)" not in script.get_attribute("textContent")


def test_the_demo_writes_a_report_that_opens(browser, quick_demo):
    out, result = quick_demo
    assert result.exit_code == 0, result.output
    assert "report.html" in result.stdout
    page: Path = out / "report.html"
    open_file(browser, page)
    assert console_errors(browser) == []
    assert browser.find_element(_by("TAG_NAME"), "h1").text == "shortcutlab demo"
    rows = browser.find_elements(_by("CSS_SELECTOR"), "#table9-accuracy tbody tr")
    assert len(rows) == 8 * 6  # eight shortcut types x the six Table-9 rows
    assert_figures_render(browser, minimum=2)
    assert_painted(browser)


def test_a_flat_table_sorts_by_the_clicked_header(browser, tmp_path):
    frame = pd.DataFrame(
        {"requests": [12, 3, 40], "Δ": ["0.100*", "−0.020", "—"]},
        index=pd.Index(["b-model", "c-model", "a-model"], name="model"),
    )
    report = Report("usage", "", [Section("s", "S", [Table("usage", "Usage", frame)])])
    open_file(browser, write_report_html(report, tmp_path / "flat.html"))

    def column(position: int) -> list[str]:
        rows = browser.find_elements(_by("CSS_SELECTOR"), "#usage tbody tr")
        return [row.find_elements(_by("CSS_SELECTOR"), "th, td")[position].text for row in rows]

    headers = browser.find_elements(_by("CSS_SELECTOR"), "#usage thead th")
    headers[1].click()
    assert column(1) == ["3", "12", "40"]
    headers[1].click()
    assert column(1) == ["40", "12", "3"]
    headers[2].click()
    assert column(2) == ["−0.020", "0.100*", "—"]  # a minus sign is a number; — sorts last
    headers[0].click()
    assert column(0) == ["a-model", "b-model", "c-model"]
    assert console_errors(browser) == []
