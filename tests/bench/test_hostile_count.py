"""The docs say how many hostile cases bench/hostile_cases.py tries: the number its --list prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("docs/reference/bad-input.md", "docs/benchmarks.md")


def test_the_docs_give_the_number_of_hostile_cases_the_battery_lists():
    listed = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "hostile_cases.py"), "--list"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout.splitlines()  # fmt: skip
    assert len(listed) > 100, listed[:5]  # one line per case
    for page in PAGES:
        said = re.findall(r"(\d+) hostile cases", (ROOT / page).read_text(encoding="utf-8"))
        assert said == [str(len(listed))], f"{page} says {said} hostile cases: {len(listed)} listed"
