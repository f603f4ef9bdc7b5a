"""A robustness run's report in Chromium: the section shows the per-class table and a flipped row."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from tests.browser import console_errors, open_file
from tests.families.robustness.conftest import write_review_files
from tests.families.robustness.test_grid import write_spec

pytestmark = pytest.mark.slow


def test_the_robustness_section_shows_the_class_table_and_a_flipped_row(browser, tmp_path):
    from selenium.webdriver.common.by import By

    spec, run = write_spec(tmp_path, write_review_files(tmp_path)), tmp_path / "run"
    runner = CliRunner()
    assert runner.invoke(app, ["run", str(spec), "--out", str(run), "--jobs", "1"]).exit_code == 0
    assert runner.invoke(app, ["report", str(run)]).exit_code == 0
    open_file(browser, run / "report.html")
    section = browser.find_element(By.ID, "robustness")
    assert "Perturbation robustness" in section.text
    classes = section.find_element(By.CSS_SELECTOR, "[data-name='robustness-classes']")
    assert "typos-swap" in classes.text and "case-upper" in classes.text
    flipped = section.find_element(By.CSS_SELECTOR, "[data-name='robustness-flipped']")
    rows = flipped.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert rows and "typos-swap" in rows[0].text
    assert console_errors(browser) == []
