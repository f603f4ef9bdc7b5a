"""docs/reference/perturbations.md: its examples run, and it lists every registered class."""

from __future__ import annotations

import re
from pathlib import Path

from shortcutlab.perturb import PERTURBATIONS
from tests.docs.page_examples import run_python_blocks

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "perturbations.md"


def test_the_page_examples_run(tmp_path):
    namespace, _ = run_python_blocks(PAGE, tmp_path)
    assert namespace["result"].expected.tolist() == [0, -1, -1]


def test_the_page_lists_every_class_with_its_kind():
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (INV|DIR) \|", PAGE.read_text(), flags=re.M))
    assert rows == {name: PERTURBATIONS.capabilities(name)["kind"] for name in PERTURBATIONS}
