"""The README's commands as one bash script, in the order a new user runs them.

    python3 tools/readme_commands.py > readme.sh && bash readme.sh     # a new user's way
    python3 tools/readme_commands.py --keep-demo-output FILE > readme.sh   # what .ci/run does

The quick start's first command (install and demo), then the commands of "Your data in three
commands" with their hidden set-up, then the quick start's second command (install the test extra
through the lock and run the tests). With ``--keep-demo-output FILE`` the demo's stdout is also
written to FILE (at the README excerpt's width) and the tests are told where it is
(:data:`DEMO_STDOUT_ENV`): the README's excerpt is then checked against the demo the README's own
first command just ran, not a second 3-minute run of it. So CI shows that the README's test command passes in a clone
where every other README command has already run. Plain Python, no third-party import: it runs
before anything is installed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.doc_pages import fenced_blocks, parse_page  # noqa: E402
from tools.readme_excerpt import COLUMNS, DEMO_STDOUT_ENV  # noqa: E402

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


def readme_script(readme: str, *, demo_output: str | None = None) -> str:
    """A bash script that stops at the first command that fails; before each command it prints
    the command and the seconds since the script started (bash's ``SECONDS``) on stderr.
    ``demo_output``: a file the demo's stdout is copied to, named to the tests (see above)."""
    demo, tests = quick_start(readme)
    page = parse_page(readme)
    lines = ["set -euo pipefail"]
    for command in [demo, *page.setup, *page.commands, tests]:
        lines.append(f'echo "[${{SECONDS}} s]" {quoted("$ " + command)} >&2')
        if command == demo and demo_output is not None:
            # Only the demo's stdout (not pip's before it), at the excerpt's width; pipefail keeps
            # the demo's exit status.
            setup, _, run = command.rpartition(" && ")
            kept = f"{{ COLUMNS={COLUMNS} NO_COLOR=1 {run} | tee {quoted(demo_output)}; }}"
            command = f"{setup} && {kept}" if setup else kept
        if command == tests and demo_output is not None:
            lines.append(f"export {DEMO_STDOUT_ENV}={quoted(demo_output)}")
        lines.append(command)
    return "\n".join(lines) + "\n"


def quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


if __name__ == "__main__":
    kept = sys.argv[2] if sys.argv[1:2] == ["--keep-demo-output"] and len(sys.argv) == 3 else None
    if len(sys.argv) > 1 and kept is None:
        sys.exit("usage: python3 tools/readme_commands.py [--keep-demo-output FILE]")
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    sys.stdout.write(readme_script(text, demo_output=kept))
