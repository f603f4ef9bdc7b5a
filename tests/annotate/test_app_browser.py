"""The annotation page in headless Chromium against a real server process: the token, a round
answered from the keyboard, a reload and a server restart mid-round, and data texts as text."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shortcutlab.annotate.store import AnnotationStore
from tests.annotate.served import ServedTask, serve_toy
from tests.annotate.toy_kind import KEY_VALUES, TOY, XSS_TEXTS, write_toy_source
from tests.browser import console_errors

# Each test drives a real Chromium: the quick loop (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow

SAMPLE = 4


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write_toy_source(tmp_path / "source")


@pytest.fixture
def served(source: Path) -> Iterator[ServedTask]:
    task = serve_toy(source, "--sample", str(SAMPLE))
    yield task
    task.stop()


def _wait(browser: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout).until(lambda driver: condition(driver))


def _find(browser: Any, css: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, css)


def _current(browser: Any) -> tuple[str, str]:
    """The shown item's position and id, once the page shows one."""
    item = _find(browser, "#item")
    _wait(browser, lambda _: item.is_displayed() and item.get_attribute("data-item-id"))
    return item.get_attribute("data-position"), item.get_attribute("data-item-id")


def _progress(browser: Any) -> str:
    return _find(browser, "#progress").text


def _open_as(browser: Any, url: str, name: str) -> None:
    browser.get(url)
    browser.execute_script("window.localStorage.clear()")
    browser.get(url)
    _find(browser, "#annotator").send_keys(name + "\n")


def _press(browser: Any, keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(keys).perform()


def _answer_by_keys(browser: Any, label_key: str, sure_key: str) -> tuple[str, dict[str, str]]:
    """Answer the shown item with two key presses; wait until the page moved on."""
    position, item_id = _current(browser)
    done_before = _progress(browser)
    _press(browser, label_key)
    pressed = _find(
        browser, f'button.choice[data-field="label"][data-value="{KEY_VALUES[label_key]}"]'
    )
    assert pressed.get_attribute("aria-pressed") == "true"
    _press(browser, sure_key)
    _wait(browser, lambda _: _progress(browser) != done_before)
    return item_id, {"label": KEY_VALUES[label_key], "sure": KEY_VALUES[sure_key]}


def _stored(source: Path) -> dict[str, dict[str, str]]:
    with AnnotationStore.open(source / "annotations" / TOY) as store:
        answers = store.answers()
    return {
        item_id: dict(zip(rows.field, rows.value, strict=True))
        for item_id, rows in answers[answers.annotator == "ann"].groupby("item_id")
    }


def test_the_page_is_refused_without_the_token(browser: Any, served: ServedTask) -> None:
    for url in (served.base + "/", served.base + "/?token=wrong" + served.token):
        browser.get(url)
        assert "missing or wrong access token" in _find(browser, "body").text
        assert not browser.execute_script("return document.getElementById('name-form')")


def test_a_round_answered_from_the_keyboard_is_stored(
    browser: Any, served: ServedTask, source: Path
) -> None:
    _open_as(browser, served.url, "ann")
    assert _current(browser)[0] == "0"
    assert _progress(browser) == f"0 / {SAMPLE}"
    expected = {}
    keys = [("1", "y"), ("2", "n"), ("2", "y"), ("1", "n")]
    for count, (label_key, sure_key) in enumerate(keys, start=1):
        item_id, answer = _answer_by_keys(browser, label_key, sure_key)
        expected[item_id] = answer
        assert _progress(browser) == f"{count} / {SAMPLE}"
    _wait(browser, lambda _: _find(browser, "#done").is_displayed())
    assert _stored(source) == expected
    assert _find(browser, "#done").text.startswith(f"All {SAMPLE} items are answered.")

    # Backspace goes back one item, showing the earlier answer; a new answer replaces it
    _press(browser, "\ue003")  # Backspace
    position, item_id = _current(browser)
    assert position == str(SAMPLE - 1)
    assert (
        _find(browser, 'button[aria-pressed="true"][data-field="label"]').get_attribute(
            "data-value"
        )
        == expected[item_id]["label"]
    )
    _press(browser, "2")
    _press(browser, "y")
    _wait(browser, lambda _: _find(browser, "#done").is_displayed())
    expected[item_id] = {"label": "positive", "sure": "yes"}
    assert _stored(source) == expected
    assert console_errors(browser) == []


def test_a_reload_mid_round_resumes_at_the_next_item(
    browser: Any, served: ServedTask, source: Path
) -> None:
    _open_as(browser, served.url, "ann")
    answered = dict([_answer_by_keys(browser, "1", "y"), _answer_by_keys(browser, "2", "y")])
    browser.refresh()
    assert _current(browser)[0] == "2"
    assert _progress(browser) == f"2 / {SAMPLE}"
    assert _find(browser, "#who-name").text == "ann"  # the name is remembered
    answered.update([_answer_by_keys(browser, "2", "n"), _answer_by_keys(browser, "1", "n")])
    assert _stored(source) == answered
    assert console_errors(browser) == []


def test_a_server_killed_mid_round_and_restarted_loses_nothing(browser: Any, source: Path) -> None:
    first = serve_toy(source, "--sample", str(SAMPLE))
    _open_as(browser, first.url, "ann")
    answered = dict([_answer_by_keys(browser, "1", "y"), _answer_by_keys(browser, "2", "n")])
    assert first.stop(signal.SIGKILL) == -signal.SIGKILL
    second = serve_toy(source, "--sample", str(SAMPLE), port=first.port)  # a new token, same origin
    try:
        browser.get(second.url)
        assert _current(browser)[0] == "2"
        assert _progress(browser) == f"2 / {SAMPLE}"
        answered.update([_answer_by_keys(browser, "2", "y"), _answer_by_keys(browser, "1", "y")])
        _wait(browser, lambda _: _find(browser, "#done").is_displayed())
    finally:
        assert second.stop() == 0
    assert _stored(source) == answered
    assert console_errors(browser) == []


def test_texts_with_html_render_as_text(browser: Any, source: Path) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    served = serve_toy(source, "--sample", "6")  # every row, the two XSS rows among them
    try:
        _open_as(browser, served.url, "ann")
        shown = {}
        for _ in range(6):
            _, item_id = _current(browser)
            shown[item_id] = (
                _find(browser, ".payload-text").text,
                _find(browser, "mark.span").text,
            )
            assert browser.find_elements(By.TAG_NAME, "img") == []
            _answer_by_keys(browser, "1", "y")
        with pytest.raises(NoAlertPresentException):
            browser.switch_to.alert.text  # noqa: B018 (reading it is the check)
    finally:
        served.stop()
    assert shown["r0"] == (XSS_TEXTS[0], XSS_TEXTS[0])  # the whole first "word" is the cue
    assert shown["r1"] == (XSS_TEXTS[1], '"><img')
    assert browser.execute_script("return document.querySelectorAll('script').length") == 2
    assert console_errors(browser) == []
