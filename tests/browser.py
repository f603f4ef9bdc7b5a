"""A real headless browser for page tests: Debian's chromium driven by its chromedriver.

Nothing is downloaded: the binaries come from ``apt-get install chromium chromium-driver`` (what
``.ci/run`` does when it runs as root). Where either is missing the browser tests skip and say why.
``SHORTCUTLAB_CHROMIUM`` / ``SHORTCUTLAB_CHROMEDRIVER`` point at other binaries.
``SHORTCUTLAB_CHROMIUM_PENDING`` names a file that appears once an install still under way has
ended (``.ci/run`` installs the browser while the other tests run); a browser test waits for it.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def _binary(variable: str, *names: str) -> str | None:
    if os.environ.get(variable):
        return os.environ[variable]
    return next((found for name in names if (found := shutil.which(name))), None)


#: How long a browser test waits for an install under way (apt-get takes a minute or two).
INSTALL_WAIT_S = 900


def _wait_for_install() -> None:
    pending = os.environ.get("SHORTCUTLAB_CHROMIUM_PENDING")
    deadline = time.monotonic() + INSTALL_WAIT_S
    while pending and not Path(pending).exists():
        if time.monotonic() > deadline:
            pytest.skip(f"the chromium install under way did not end within {INSTALL_WAIT_S} s")
        time.sleep(1)


def browser_or_skip() -> tuple[str, str]:
    """The chromium and chromedriver paths, or a skip naming what is missing and how to get it."""
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
    _wait_for_install()
    chromium = _binary("SHORTCUTLAB_CHROMIUM", "chromium", "chromium-browser")
    driver = _binary("SHORTCUTLAB_CHROMEDRIVER", "chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no chromium/chromedriver: apt-get install -y chromium chromium-driver")
    return chromium, driver


def start_browser(width: int = 1280, height: int = 900) -> Any:
    """A headless Chromium session that keeps the page's console messages (``console_errors``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = browser_or_skip()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


def console_errors(browser: Any) -> list[str]:
    """The SEVERE console messages since the last call (errors, failed loads, CSP violations)."""
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


@contextmanager
def window_size(browser: Any, width: int, height: int) -> Iterator[Any]:
    """The shared browser at ``width`` × ``height`` for a test, its size restored after."""
    size = browser.get_window_size()
    browser.set_window_size(width, height)
    try:
        yield browser
    finally:
        browser.set_window_size(size["width"], size["height"])


def open_file(browser: Any, path: Path) -> None:
    browser.get(path.resolve().as_uri())


@pytest.fixture(scope="session")
def _session_browser() -> Iterator[Any]:
    browser = start_browser()
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture
def browser(_session_browser: Any) -> Iterator[Any]:
    """One browser for the whole session; each test starts on a blank page with an empty log."""
    _session_browser.get("about:blank")
    console_errors(_session_browser)
    yield _session_browser
