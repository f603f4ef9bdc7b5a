"""Every ``shortcutlab`` process pays its imports: a command loads its own module only, and
neither ``--version`` nor a command's ``--help`` loads numpy or pyarrow."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shortcutlab.cli.lazy_commands import COMMAND_MODULES
from tests.cli.refusals import invoke
from tests.cli.test_help_listing import command_rows


def whole_process(*argv: str) -> tuple[str, set[str]]:
    """What a whole ``shortcutlab ARGV`` process prints, and the modules it has imported when it
    ends (it must succeed)."""
    code = (
        f"import runpy, sys; sys.argv = ['shortcutlab', *{list(argv)!r}]\n"
        "try:\n    runpy.run_module('shortcutlab', run_name='__main__')\n"
        "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
        "print('LOADED', ' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    printed, loaded = done.stdout.rsplit("LOADED ", 1)
    return printed, set(loaded.split())


def loaded_after(*argv: str) -> set[str]:
    return whole_process(*argv)[1]


def test_the_root_help_lists_exactly_the_commands_of_the_lazy_table():
    """A command missing from the table, or a table line no module registers, shows here."""
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    assert sorted(command_rows(result.stdout)) == sorted(COMMAND_MODULES)


@pytest.mark.parametrize("argv", [("--version",), ("build", "maze", "--help"), ("audit", "--help")])
def test_version_and_help_load_neither_numpy_nor_pyarrow(argv):
    loaded = loaded_after(*argv)
    assert not {"numpy", "pyarrow", "pandas"} & loaded


def test_a_command_loads_only_its_own_module():
    loaded = loaded_after("build", "maze", "--help")
    assert "shortcutlab.cli.build_maze" in loaded
    others = {"annotate", "audit", "benchmarks", "cat", "explain", "grids", "llm_commands", "suite"}
    assert not {f"shortcutlab.cli.{name}" for name in others} & loaded
    assert not {"shortcutlab.serving.faults", "shortcutlab.llm"} & loaded


def test_the_version_loads_no_command():
    loaded = loaded_after("--version")
    assert not {m for m in loaded if m.startswith("shortcutlab.cli.")} - {
        "shortcutlab.cli.app", "shortcutlab.cli.console", "shortcutlab.cli.lazy_commands",
        "shortcutlab.cli.metavars", "shortcutlab.cli.replaced_inputs",
    }  # fmt: skip


def test_the_library_import_stays_light():
    code = "import sys, shortcutlab, shortcutlab.data; print(' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not {"numpy", "pyarrow", "pandas", "typer"} & set(done.stdout.split())
