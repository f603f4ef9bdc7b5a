"""How the xdist workers share the tests out (tests/parallel.py)."""

from __future__ import annotations

from tests.parallel import BROWSER, ModuleScheduling


def test_modules_go_whole_browser_modules_together_and_doc_pages_one_by_one():
    scope = ModuleScheduling.__new__(ModuleScheduling)._split_scope  # the split reads no state
    assert scope("tests/cli/test_cli.py::test_demo_command") == "tests/cli/test_cli.py"
    assert scope("tests/cli/test_cli.py::test_version[x]") == "tests/cli/test_cli.py"
    assert scope("tests/webreport/test_report_browser.py::test_a") == BROWSER
    assert scope("tests/annotate/test_app_browser.py::test_b") == BROWSER
    page = "tests/docs/test_doc_commands.py::test_the_page_commands_run[docs/how-to/ray.md]"
    assert scope(page) == page
    assert scope("tests/docs/test_doc_pages.py::test_c") == "tests/docs/test_doc_pages.py"
