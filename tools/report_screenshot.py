"""Take the README's picture of the HTML report: the demo's Δ-against-λ section, 1200 × 800.

    python tools/report_screenshot.py shortcutlab-demo/report.html docs/images/report.png

Debian's chromium and chromedriver drive the page (``apt-get install chromium chromium-driver``),
as in the browser tests; nothing is downloaded.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

SECTION = "delta-figures"


def screenshot(report: Path, png: Path, *, section: str = SECTION) -> None:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_argument("--window-size=1200,800")
    service = Service(shutil.which("chromedriver") or "chromedriver")
    browser = webdriver.Chrome(service=service, options=options)
    try:
        browser.get(report.resolve().as_uri())
        target = browser.find_element(By.ID, section)
        browser.execute_script("arguments[0].scrollIntoView(true);", target)
        browser.save_screenshot(str(png))
    finally:
        browser.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--section", default=SECTION, help="the id of the section to show")
    arguments = parser.parse_args()
    screenshot(arguments.report, arguments.png, section=arguments.section)


if __name__ == "__main__":
    main()
