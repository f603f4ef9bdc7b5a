"""The ``shortcutlab`` command line: parse options, call the library, print, set the exit code.

Errors caused by input (:class:`ShortcutlabError`) print one line and exit with code 2; any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from shortcutlab._version import __version__
from shortcutlab.cli.console import out_console, user_errors
from shortcutlab.cli.lazy_commands import LazyCommands
from shortcutlab.cli.metavars import name_what_options_take
from shortcutlab.cli.replaced_inputs import check_overwrite_spares_inputs
from shortcutlab.errors import CLI, ConfigError, caller, ended


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
    as an input error does, not click's usage block. Its commands load on first use
    (:class:`.lazy_commands.LazyCommands`): a process imports only the command it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():  # every command is built here, lazy ones too
            name_what_options_take(command)
        self.lazy_commands = LazyCommands(self.commands, _registered_commands)
        self.commands = self.lazy_commands

    def list_commands(self, ctx: Any) -> list[str]:
        self.lazy_commands.load_all()  # listing shows every command's summary: build them in one go
        return super().list_commands(ctx)

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
            from shortcutlab.cli.renamed_options import renamed_option_message

            where = error.ctx.command_path if getattr(error, "ctx", None) else "shortcutlab"
            message = renamed_option_message(getattr(error, "ctx", None), error) or (
                f"{ended(error.format_message())} See '{where} --help'."
            )
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


def _registered_commands() -> dict[str, Any]:
    """The click commands of everything registered on ``app`` so far."""
    group = typer.main.get_command(app)
    assert isinstance(group, ShortcutlabGroup)
    return group.lazy_commands.loaded


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
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    app(prog_name="shortcutlab")


def _stop_like_ctrl_c(signum: int, frame: Any) -> None:
    """SIGTERM (``kill``, a scheduler's stop) ends a command the way Ctrl-C does: as an exception,
    so what it cleans up on the way out runs (a fresh run's folder, a build's temporary folder)
    instead of the process dying mid-write. The exit code stays what a killed process gives."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it at once
    raise SystemExit(128 + signum)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
