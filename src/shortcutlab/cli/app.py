"""The ``shortcutlab`` command line: parse options, call the library, print, set the exit code.

Errors caused by input (:class:`ShortcutlabError`) print one line and exit with code 2; any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from shortcutlab._version import __version__
from shortcutlab.cli.console import out_console, user_errors
from shortcutlab.cli.replaced_inputs import check_overwrite_spares_inputs
from shortcutlab.errors import CLI, ConfigError, caller


class AlphabeticalGroup(TyperGroup):
    """A command group whose help lists its commands by name, each with its whole first
    sentence (click cuts summaries to the terminal width with "...")."""

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(super().list_commands(ctx))

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                # No limit: the first sentence whole, wrapped by the formatter, never truncated.
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _command_words(group: Any, args: list[str]) -> int:
    """How many leading words of ``args`` name a command and its sub-commands (``build mps``)."""
    count, command = 0, group
    while count < len(args) and args[count] in getattr(command, "commands", {}):
        command = command.commands[args[count]]
        count += 1
    return count


class ShortcutlabGroup(AlphabeticalGroup):
    """The root command. Before any command runs, a refused ``--overwrite`` (one that would delete
    a path the command line names) ends it with one line; a sub-command's bad command line (an
    unreadable path argument, a value of the wrong type) answers with one line and exit code 2,
    as an input error does, not click's usage block."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        with user_errors():
            check_overwrite_spares_inputs(args, _command_words(self, args))
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            with caller(CLI):  # messages name command-line options (a grid run names spec keys)
                return super().invoke(ctx)
        except Exception as error:
            # Typer ships its own copy of click, so its exceptions are recognised by name;
            # NoArgsIsHelpError prints the help, which is what a bare group should do.
            names = {cls.__name__ for cls in type(error).__mro__}
            if "UsageError" not in names or "NoArgsIsHelpError" in names:
                raise
            where = error.ctx.command_path if getattr(error, "ctx", None) else "shortcutlab"
            message = f"{error.format_message().rstrip('.')}. See '{where} --help'."
        with user_errors():
            raise ConfigError(message)


app = typer.Typer(
    cls=ShortcutlabGroup,
    name="shortcutlab",
    help="Measure how much text classifiers rely on shortcuts, and whether it matters.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        out_console.print(f"shortcutlab {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = None,
) -> None:
    """Measure how much text classifiers rely on shortcuts, and whether it matters."""


# The CLI owns the terminal: Hugging Face's load reports and progress bars would interleave with
# ours. Environment defaults reach spawned workers too; a user's own settings still win.
QUIET_LIBRARIES = {
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def main() -> None:
    """Console-script entry point."""
    for name, value in QUIET_LIBRARIES.items():
        os.environ.setdefault(name, value)
    app(prog_name="shortcutlab")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


# The commands live in their own modules and register themselves on ``app`` when imported.
import shortcutlab.cli.suite  # noqa: E402, F401
from shortcutlab.cli import annotate as _annotate  # noqa: E402, F401
from shortcutlab.cli import audit as _audit  # noqa: E402, F401
from shortcutlab.cli import benchmarks, build_maze, build_mps, build_suite, grids, llm_commands  # noqa: E402, F401
from shortcutlab.cli import cat as _cat  # noqa: E402, F401
from shortcutlab.cli import explain as _explain  # noqa: E402, F401
from shortcutlab.cli import report as _report  # noqa: E402, F401
from shortcutlab.cli import split as _split  # noqa: E402, F401
