"""Checks for a refused command: exit code 2, one line naming the problem, nothing written."""

from __future__ import annotations

from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from tests.conftest import tree_state

runner = CliRunner()

#: The smallest grid: one built-in dataset, one benchmark, the majority model, one seed.
TINY_GRID = """
name: g
data: {builtin: reviews, train_size: 300, test_size: 200}
shortcuts: [single-term]
strengths: [1.0]
models: [{name: majority}]
seeds: [0]
bootstrap: 100
"""


def invoke(*args: object) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def assert_user_error(result: Result, message: str) -> None:
    """Exit code 2 and exactly one line, on stderr, that contains ``message`` (no blank line
    before or after it)."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), repr(result.stderr)
    assert message in lines[0], lines[0]
    assert result.exception is None or isinstance(result.exception, SystemExit)


def assert_refused(watched: Path, message: str, *args: object) -> Result:
    """Run the command ``args``: a user error with ``message`` that leaves ``watched`` as it was.

    ``watched`` is the folder holding the inputs and the output path, so a half-written output,
    a temporary folder left beside it or a touched input all count as something written.
    """
    before = tree_state(watched)
    result = invoke(*args)
    assert_user_error(result, message)
    after = tree_state(watched)
    absent = object()
    changed = sorted(
        path
        for path in before.keys() | after.keys()
        if before.get(path, absent) != after.get(path, absent)
    )
    assert not changed, f"a refused command wrote or changed: {', '.join(changed)}"
    return result


def build_args(files: dict[str, Path], out: Path, *extra: object) -> list[object]:
    """``shortcutlab build maze`` on the ``files`` train and test tables, written to ``out``."""
    return [
        "build",
        "maze",
        "--train",
        files["train"],
        "--test",
        files["test"],
        "--out",
        out,
        *extra,
    ]
