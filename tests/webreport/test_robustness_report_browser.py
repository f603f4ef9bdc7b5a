"""A robustness run's report in Chromium: the section shows the per-class table, and the row
explorer shows the flipped rows (original and perturbed text side by side) filtered by class."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.families import load_results
from tests.browser import console_errors, open_file
from tests.families.robustness.conftest import write_review_files
from tests.families.robustness.test_grid import write_spec

pytestmark = pytest.mark.slow


def test_the_robustness_section_shows_the_class_table_and_the_flipped_rows_explorer(
    browser, tmp_path
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    spec, run = write_spec(tmp_path, write_review_files(tmp_path)), tmp_path / "run"
    runner = CliRunner()
    assert runner.invoke(app, ["run", str(spec), "--out", str(run), "--jobs", "1"]).exit_code == 0
    assert runner.invoke(app, ["report", str(run)]).exit_code == 0
    open_file(browser, run / "report.html")
    section = browser.find_element(By.ID, "robustness")
    assert "Perturbation robustness" in section.text
    classes = section.find_element(By.CSS_SELECTOR, "[data-name='robustness-classes']")
    assert "typos-swap" in classes.text and "case-upper" in classes.text

    flipped = load_results(run).flipped
    first_fit = flipped[
        (flipped["dataset"] == flipped["dataset"].iloc[0])
        & (flipped["model"] == flipped["model"].iloc[0])
        & (flipped["seed"] == flipped["seed"].iloc[0])
    ]
    typos = first_fit[first_fit["perturbation"] == "typos-swap"]
    assert not typos.empty  # the run flips rows; otherwise the test below shows nothing

    explorer = section.find_element(By.ID, "explorer-robustness-flipped")
    headers = [th.text for th in explorer.find_elements(By.CSS_SELECTOR, "thead th")]
    assert "original text" in headers and "perturbed text" in headers
    assert "perturbation class" in headers
    picker = Select(explorer.find_element(By.CSS_SELECTOR, "select.explorer-group"))
    assert [option.text for option in picker.options] == ["all", "case-upper", "typos-swap"]

    picker.select_by_value("typos-swap")
    rows = explorer.find_elements(By.CSS_SELECTOR, "tbody tr.explorer-row")
    count = explorer.find_element(By.CSS_SELECTOR, ".explorer-count").text
    assert count == f"showing {len(typos)} of {len(first_fit)}"
    assert [row.get_attribute("data-row-id") for row in rows] == [str(i) for i in typos["row_id"]]
    shown = rows[0].find_elements(By.CSS_SELECTOR, "td")
    texts = [td.text for td in rows[0].find_elements(By.CSS_SELECTOR, "td.explorer-text")]
    wanted = typos.iloc[0]
    assert texts == [wanted["original_text"], wanted["perturbed_text"]]
    assert texts[0] != texts[1]
    cells = [td.text for td in shown]
    assert cells[1] == wanted["label"] and cells[3] == "typos-swap"
    predictions = [td.text for td in rows[0].find_elements(By.CSS_SELECTOR, ".explorer-prediction")]
    assert predictions == [wanted["predicted_original"], wanted["predicted_perturbed"]]

    # case-upper flips nothing (TF-IDF lowercases): the filter still offers it and shows no row
    assert first_fit[first_fit["perturbation"] == "case-upper"].empty
    picker.select_by_value("case-upper")
    count = explorer.find_element(By.CSS_SELECTOR, ".explorer-count").text
    assert count == f"showing 0 of {len(first_fit)}"
    assert not explorer.find_elements(By.CSS_SELECTOR, "tbody tr.explorer-row")
    picker.select_by_value("")
    assert len(explorer.find_elements(By.CSS_SELECTOR, "tbody tr.explorer-row")) == len(first_fit)
    assert console_errors(browser) == []
