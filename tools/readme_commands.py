"""The README's commands as one bash script, in the order a new user runs them.

    python3 tools/readme_commands.py > readme.sh && bash readme.sh     # what .ci/run does

The quick start's first command (install and demo), then the commands of "Your data in three
commands" with their hidden set-up, then the quick start's second command (install the test extra
through the lock and run the tests). So CI shows that the README's test command passes in a clone
where every other README command has already run. Plain Python, no third-party import: it runs
before anything is installed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.doc_pages import fenced_blocks, parse_page  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def quick_start(readme: str) -> list[str]:
    """The commands of the Quick start section's ``bash`` blocks: install + demo, then the tests."""
    section = re.search(r"^## Quick start.*?(?=^## )", readme, re.DOTALL | re.MULTILINE)
    if section is None:
        raise ValueError("README.md has no '## Quick start' section")
    commands = [" ".join(block).strip() for block in fenced_blocks(section[0], "bash")]
    if len(commands) != 2:
        raise ValueError(f"the Quick start holds {len(commands)} commands, not install+demo, tests")
    return commands


def readme_script(readme: str) -> str:
    """A bash script that stops at the first command that fails; before each command it prints
    the command and the seconds since the script started (bash's ``SECONDS``) on stderr."""
    demo, tests = quick_start(readme)
    page = parse_page(readme)
    lines = ["set -euo pipefail"]
    for command in [demo, *page.setup, *page.commands, tests]:
        lines += [f'echo "[${{SECONDS}} s]" {quoted("$ " + command)} >&2', command]
    return "\n".join(lines) + "\n"


def quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


if __name__ == "__main__":
    sys.stdout.write(readme_script((ROOT / "README.md").read_text(encoding="utf-8")))
