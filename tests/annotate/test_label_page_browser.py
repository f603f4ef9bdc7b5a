"""The label task's page in headless Chromium over a real server: with numeric labels the key on
a button answers that button's label, the confirmation line names the item by its text, and the
page and the console say how --sample made the number of items (per build)."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.corpus import generate_corpus
from shortcutlab.data.options import InputOptions
from shortcutlab.families import parse_spec, run_experiment
from shortcutlab.families.maze.build import build_maze_benchmark
from tests.annotate.served import ServedTask, run_cli, serve_task
from tests.annotate.task_sources import MAZE_SPEC
from tests.browser import console_errors

# Each test drives a real Chromium: the quick loop (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def numeric_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A benchmark folder whose labels are the numbers 0-4 (the corpus's ratings minus one)."""
    corpus = generate_corpus(train_size=200, test_size=60, seed=2)
    train, test = (
        corpus[split][["text", "label"]].assign(label=lambda t: t["label"].astype(int) - 1)
        for split in ("train", "test")
    )
    out = tmp_path_factory.mktemp("numeric") / "build"
    build_maze_benchmark(train, test, shortcut="single-term", inputs=InputOptions(out=out))
    return out


@pytest.fixture
def served(numeric_build: Path, tmp_path: Path) -> Iterator[tuple[ServedTask, Path]]:
    folder = tmp_path / "task"
    task = serve_task(numeric_build, "label", "--sample", "3", "--folder", str(folder))
    yield task, folder
    task.stop()


def _find(browser: Any, css: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, css)


def _wait(browser: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout).until(lambda driver: condition(driver))


def _shown_item(browser: Any) -> tuple[str, str, list[Any]]:
    """The item's id and text, and its label buttons in the order the page shows them."""
    from selenium.webdriver.common.by import By

    item = _find(browser, "#item")
    _wait(browser, lambda _: item.is_displayed() and item.get_attribute("data-item-id"))
    buttons = browser.find_elements(By.CSS_SELECTOR, 'button.choice[data-field="label"]')
    return item.get_attribute("data-item-id"), _find(browser, ".payload-text").text, buttons


def _press(browser: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


def _saved_line(browser: Any) -> str:
    text = _find(browser, "#status").text
    return text if text.startswith("Saved") else ""


def _stored(folder: Path) -> dict[str, str]:
    with AnnotationStore.open(folder) as store:
        answers = store.answers()
    return dict(zip(answers.item_id, answers.value, strict=True))


def test_the_key_on_a_button_answers_that_buttons_label(
    browser: Any, served: tuple[ServedTask, Path]
) -> None:
    task, folder = served
    browser.get(task.url)
    browser.execute_script("window.localStorage.clear()")
    browser.get(task.url)
    _find(browser, "#annotator").send_keys("ann\n")
    expected, confirmations = {}, []
    for key in ("1", "3", "5"):
        item_id, text, buttons = _shown_item(browser)
        caps = [button.find_element("css selector", "kbd").text for button in buttons]
        assert caps == ["1", "2", "3", "4", "5"]  # the key is shown on each button
        assert [b.find_element("css selector", ".choice-text").text for b in buttons] == [
            f"label {n}" for n in range(5)
        ]
        button = buttons[int(key) - 1]
        expected[item_id] = button.get_attribute("data-value")
        label = button.find_element("css selector", ".choice-text").text
        before = _find(browser, "#status").text
        _press(browser, key)
        _wait(browser, lambda _, b=before: _saved_line(browser) not in ("", b))
        confirmations.append((_saved_line(browser), text, label))
    assert list(expected.values()) == ["0", "2", "4"]
    assert _stored(folder) == expected  # the stored rows, not what the page believes
    for status, text, label in confirmations:
        # the whole line: the item's text (its start, cut at a word) and the answer, no id
        found = re.fullmatch(r"Saved \u201c(.+)\u201d as (label \d)\.", status)
        assert found is not None, status
        shown, words = found.group(1), " ".join(text.split())
        assert found.group(2) == label
        assert words.startswith(shown.removesuffix("\u2026"))
        assert len(shown) <= 61 and shown.endswith("\u2026") == (len(words) > 60)
    assert console_errors(browser) == []


@pytest.fixture(scope="module")
def two_build_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("two-builds") / "run"
    run_experiment(parse_spec({**MAZE_SPEC, "shortcuts": ["single-term", "synonym"]}), out)
    return out


def test_sample_counts_per_build_and_the_page_and_console_say_so(two_build_run: Path) -> None:
    task = serve_task(two_build_run, "label", "--sample", "3")
    try:
        with urllib.request.urlopen(task.url, timeout=30) as response:
            page = response.read().decode("utf-8")
    finally:
        assert task.stop() == 0
    said = "6 items, 3 from each of the 2 builds"
    assert f"Created the label task in {two_build_run / 'annotations' / 'label'}: {said}." in (
        "".join(task.stdout)
    )
    assert f"This task: {said}." in page
    status = run_cli("annotate", "status", str(two_build_run / "annotations" / "label"))
    assert status.returncode == 0, status.stderr
    assert f": {said} (--sample 3, seed 0)." in " ".join(status.stdout.split())
    help_text = run_cli("annotate", "serve", "--help").stdout
    assert "Items drawn per build" in " ".join(help_text.split())
    assert len(pd.read_csv(next((two_build_run / "benchmarks").glob("*/test.csv")))) > 3
