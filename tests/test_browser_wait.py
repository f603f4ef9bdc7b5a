"""A browser test started while .ci/run is still installing Chromium waits for the install's
marker file, and skips with a reason when the install never ends (tests/browser.py)."""

from __future__ import annotations

import threading

import pytest

from tests import browser


def test_a_browser_test_waits_for_the_install_under_way(tmp_path, monkeypatch):
    marker = tmp_path / "chromium.done"
    monkeypatch.setenv("SHORTCUTLAB_CHROMIUM_PENDING", str(marker))
    timer = threading.Timer(1.5, marker.touch)
    timer.start()
    browser._wait_for_install()
    assert marker.exists()  # it returned only once the install had ended (1.5 s from now)
    timer.join()


def test_an_install_that_never_ends_is_a_skip_with_its_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("SHORTCUTLAB_CHROMIUM_PENDING", str(tmp_path / "never"))
    monkeypatch.setattr(browser, "INSTALL_WAIT_S", 0)
    with pytest.raises(pytest.skip.Exception, match="did not end within 0 s"):
        browser._wait_for_install()
