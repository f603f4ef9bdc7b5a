"""The shortcut-or-signal page in headless Chromium over a real server: each candidate with its
label, marked example rows, association and reliance figures; answered with the keys s / l / u
and a click; then exported to the judgements file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.annotate.served import run_cli, serve_task
from tests.annotate.task_sources import audit_with_judgements, copied
from tests.annotate.test_shortcut_or_signal import FIELDS, HONESTLY_ASSOCIATION
from tests.browser import console_errors

# Each test drives a real Chromium: the quick loop (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow


def _find(browser: Any, css: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, css)


def _find_all(root: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return root.find_elements(By.CSS_SELECTOR, css)


def _wait(browser: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout).until(lambda driver: condition(driver))


def _shown(browser: Any, item_id: str) -> dict[str, Any]:
    """What the page shows of the item ``item_id`` once it is there: each part's texts, and the
    figure tables as {name: value}."""
    item = _find(browser, "#item")
    _wait(browser, lambda _: item.is_displayed() and item.get_attribute("data-item-id") == item_id)
    shown: dict[str, Any] = {}
    for part in _find_all(browser, "#payload .payload-part"):
        key = part.get_attribute("data-key")
        rows = _find_all(part, "table.payload-figures tr")
        if rows:
            shown[key] = {
                _find_all(row, "th")[0].text: _find_all(row, "td")[0].text for row in rows
            }
        elif _find_all(part, "li"):
            shown[key] = [
                (line.text, [m.text for m in _find_all(line, "mark.span")])
                for line in _find_all(part, "li")
            ]
        else:
            shown[key] = _find_all(part, ".payload-text")[0].text
    return shown


def _press(browser: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


def test_the_page_shows_each_candidate_and_its_answers_export_as_judgements(
    browser: Any, audit_folder: Path, tmp_path: Path
) -> None:
    source = copied(audit_folder, tmp_path)
    audit = json.loads((source / "audit.json").read_text(encoding="utf-8"))
    measured = {c["candidate"]: c for c in audit["candidates"]}
    task = serve_task(source, "shortcut-or-signal", "--sample", "3")
    try:
        browser.get(task.url)
        browser.execute_script("window.localStorage.clear()")
        browser.get(task.url)
        assert "This task: 3 items: the first 3 of the audit's 7 candidates." in (
            _find(browser, ".drawn").text
        )
        _find(browser, "#annotator").send_keys("ann\n")

        honestly = _shown(browser, "honestly")
        # in the kind's order: what the candidate is, its rows, then the figures
        assert list(honestly) == FIELDS
        assert honestly["candidate"] == "honestly" and honestly["label"] == "1"
        assert honestly["association"] == HONESTLY_ASSOCIATION
        changed = measured["honestly"]["removal_changed"]
        assert honestly["reliance"]["relied on"] == "yes"
        assert honestly["reliance"]["removal changed"] == (
            f"{100 * changed:.1f} % of {measured['honestly']['removal_rows']} rows"
        )
        assert honestly["examples"] == [
            (e["text"], ["honestly"]) for e in measured["honestly"]["examples"]
        ]
        prompt = _find(browser, "#fields .prompt").text
        assert prompt == "Is this a shortcut or label signal?"
        caps = [k.text for k in _find_all(browser, "button.choice kbd")]
        assert caps == ["s", "l", "u"]
        _press(browser, "s")

        frankly = _shown(browser, "frankly")
        # The page says what audit.json says (the triage measures discourse markers first).
        assert frankly["reliance"]["relied on"] == (
            "yes" if measured["frankly"]["relied_on"] else "no"
        )
        assert frankly["label"] == "0"
        _press(browser, "l")

        cast = _shown(browser, "cast")
        assert "reliance" not in cast  # not measured: not shown
        assert cast["association"]["support"] == f"{measured['cast']['support']} training rows"
        _find(browser, 'button.choice[data-value="unsure"]').click()
        _wait(browser, lambda _: _find(browser, "#done").is_displayed())
        assert _find(browser, "#status").text == "Saved \u201ccast\u201d as Unsure."
        assert console_errors(browser) == []
    finally:
        assert task.stop() == 0
    folder = source / "annotations" / "shortcut-or-signal"
    exported = run_cli("annotate", "export", str(folder))
    assert exported.returncode == 0, exported.stderr
    text = (folder / "judgements.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text) == {"shortcut": ["honestly"], "signal": ["frankly"]}
    assert text.splitlines()[1] == (
        "# (1 shortcut, 1 signal, 1 left out: a tie or only unsure answers)."
    )
    # The exported file, read by the audit: the annotator's groups, and --fix's targets with them.
    record, stdout = audit_with_judgements(folder / "judgements.yaml", tmp_path)
    groups = {c["candidate"]: (c["group"], c["group_source"]) for c in record["candidates"]}
    assert groups["honestly"] == ("shortcut", "judged")
    assert groups["frankly"] == ("signal", "judged")  # a discourse marker, judged signal
    targets = [t["candidate"] for t in record["fix"]["targets"]]
    assert "honestly" in targets and "frankly" not in targets
    signal = stdout[stdout.index("Label signal (") : stdout.index("Needs your judgement (")]
    assert "  frankly: label 0 · your judgement · " in signal
