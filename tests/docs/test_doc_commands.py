"""Every ``console`` block of the documentation runs, so the docs cannot go stale.

One test per page (docs/**/*.md and README.md): the page's set-up and then its commands run in
order in one bash process, in one fresh temporary folder, with this Python environment's
``shortcutlab`` first on PATH and as ``.venv`` in the folder. Every command must exit 0; a failure names the command, its exit
code and the end of its output. See tools/doc_pages.py for the convention.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tools.doc_pages import DocPage, parse_page

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("SHARED_DATA", ROOT.parent / "shared" / "data"))
TAIL_LINES = 40
_MARK = "@@doc-test@@"


def pages_with_commands() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [page for page in pages if "```console" in page.read_text(encoding="utf-8")]


def page_script(page: DocPage) -> str:
    """One bash script: before each command a marker line, after it a check that ends the
    script with the command's exit code."""
    lines = ["exec 2>&1 </dev/null"]
    for number, command in enumerate([*page.setup, *page.commands]):
        lines += [f"echo {_MARK}{number}", command, "__code=$?"]
        lines.append('if [ "$__code" -ne 0 ]; then exit "$__code"; fi')
    return "\n".join(lines) + "\n"


def environment() -> dict[str, str]:
    env = dict(os.environ, SHARED_DATA=str(SHARED_DATA))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    # A checkout run with PYTHONPATH=src must still find its sources from the temporary folder.
    if env.get("PYTHONPATH"):
        parts = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(part).resolve()) for part in parts if part)
    return env


def run_page(page: DocPage, folder: Path) -> tuple[int | None, str]:
    """The exit code (None when the page ran out of time) and the merged output."""
    # The README's commands run in the clone beside the quick start's .venv (.venv/bin/shortcutlab):
    # here that is this Python environment.
    if not (folder / ".venv").exists():
        (folder / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    process = subprocess.Popen(
        ["bash", "-c", page_script(page)],
        cwd=folder,
        env=environment(),
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # so a timeout ends the commands' own children too
    )
    try:
        output, _ = process.communicate(timeout=page.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output
    return process.returncode, output


def failure_report(page: DocPage, code: int | None, output: str) -> str:
    """The last command that started, how it ended and the end of its output."""
    chunks = output.split(_MARK)
    number_text, _, own_output = chunks[-1].partition("\n") if len(chunks) > 1 else ("", "", output)
    commands = [*page.setup, *page.commands]
    number = int(number_text) if number_text.isdigit() else 0
    where = "set-up command" if number < len(page.setup) else "command"
    ending = (
        f"ran past the page's timeout of {page.timeout} s" if code is None else f"exited {code}"
    )
    tail = "\n".join(own_output.rstrip("\n").splitlines()[-TAIL_LINES:])
    return f"{where}\n$ {commands[number]}\n{ending}; the end of its output:\n{tail}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", pages_with_commands(), ids=lambda path: str(path.relative_to(ROOT))
)
def test_the_page_commands_run(path, tmp_path):
    page = parse_page(path.read_text(encoding="utf-8"))
    if "shared-data" in page.needs and not SHARED_DATA.is_dir():
        pytest.skip(f"needs the shared data at {SHARED_DATA} (set SHARED_DATA to move it)")
    assert page.commands, f"{path.name} has a console block without a '$ ' command"
    code, output = run_page(page, tmp_path)
    assert code == 0, failure_report(page, code, output)


def test_a_failing_command_is_named_with_its_code_and_output(tmp_path):
    page = DocPage(setup=("touch ready",), commands=("test -f ready", "echo why; exit 3", "true"))
    code, output = run_page(page, tmp_path)
    report = failure_report(page, code, output)
    assert code == 3
    assert report == "command\n$ echo why; exit 3\nexited 3; the end of its output:\nwhy"


def test_commands_share_one_shell_and_folder_and_find_shortcutlab(tmp_path):
    page = DocPage(
        setup=("mkdir sub",),
        commands=(
            "cd sub && export WHERE=inside",
            'test "$WHERE" = inside',
            "shortcutlab --version",
        ),
    )
    code, output = run_page(page, tmp_path)
    assert code == 0, output
    assert "shortcutlab " in output.split(_MARK)[-1]


def test_a_page_past_its_timeout_is_stopped_and_named(tmp_path):
    page = DocPage(timeout=1, commands=("echo started", "sleep 30"))
    code, output = run_page(page, tmp_path)
    assert code is None
    assert failure_report(page, code, output).startswith(
        "command\n$ sleep 30\nran past the page's timeout of 1 s"
    )
