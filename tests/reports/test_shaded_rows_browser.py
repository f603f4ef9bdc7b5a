"""The shaded_rows block in a real browser (a minimal page with the report's CSP and the shading
CSS inlined, until the full renderer lands): hostile row texts show as text and run nothing, the
shading colours follow the weights, and the console stays clean."""

from __future__ import annotations

from importlib.resources import files

import pytest

from shortcutlab.reports.html.document import ShadedRow, ShadedRows, ShadedToken
from tests.browser import console_errors, open_file
from tests.reports.shaded_rendering import render_shaded

# Each test drives a real Chromium: the quick loop (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
HOSTILE = "<script>alert(1)</script>"
BREAKOUT = '"><img src=x onerror=alert(1)>'


def _page(tmp_path):
    css = files("shortcutlab.reports.html").joinpath("static/shading.css").read_text("utf-8")
    tokens = [
        ShadedToken("Honestly", 0.4, in_cue=True),
        ShadedToken(", ", None),
        ShadedToken(HOSTILE, -0.1),
        ShadedToken(" ", None),
        ShadedToken(BREAKOUT, 0.2),
    ]
    block = ShadedRows(
        name="erm",
        title="erm: explained rows",
        rows=[ShadedRow(row_id=BREAKOUT, title=f"row {HOSTILE}", tokens=tokens)],
    )
    path = tmp_path / "page.html"
    path.write_text(
        f'<!doctype html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<style>{css}</style></head><body>{render_shaded(block)}</body></html>",
        encoding="utf-8",
    )
    return path


def test_hostile_texts_render_as_text_and_the_shading_follows_the_weights(browser, tmp_path):
    from selenium.webdriver.common.by import By

    open_file(browser, _page(tmp_path))
    text = browser.find_element(By.CSS_SELECTOR, ".shaded-text")
    assert text.text == f"Honestly, {HOSTILE} {BREAKOUT}"
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 0
    assert HOSTILE in browser.find_element(By.TAG_NAME, "figcaption").text
    spans = browser.find_elements(By.CSS_SELECTOR, ".shaded-text span.shade")
    colours = [s.value_of_css_property("background-color") for s in spans]
    assert colours == ["rgba(214, 39, 40, 1)", "rgba(31, 119, 180, 0.25)", "rgba(214, 39, 40, 0.5)"]
    assert "underline" in spans[0].value_of_css_property("text-decoration")
    assert "underline" not in spans[1].value_of_css_property("text-decoration")
    assert spans[1].get_attribute("title") == "-0.1000"
    assert console_errors(browser) == []
