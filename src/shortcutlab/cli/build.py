"""``shortcutlab build FAMILY``: one sub-command per family that builds benchmarks.

Each family's command (``cli/build_maze.py``, ``build_mps.py``, ``build_suite.py``) registers
itself with :func:`family_command`, takes only its own options plus the shared input options
(:class:`~shortcutlab.data.options.InputOptions`, turned into options by :data:`shared_inputs`),
and its line in ``build --help`` is the family's registry summary. The form before the
sub-commands (``build --family X ...``) and an option of another family's build each answer
with one line naming the right command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from shortcutlab.cli.app import AlphabeticalGroup, app
from shortcutlab.cli.console import user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.metavars import choices
from shortcutlab.cli.output import FORMAT_HELP, FORMATS
from shortcutlab.cli.renamed_options import renamed_option_message
from shortcutlab.data.options import InputOptions
from shortcutlab.errors import ConfigError, ended
from shortcutlab.families import FAMILIES

#: The shared options of every build; the command line always writes, so ``--out`` is required.
shared_inputs = dataclass_options(required=("out",), inputs=InputOptions)
#: A build's summary table: ``--table-format``, beside ``--file-format`` (the files it writes).
TableFormat = Annotated[
    str,
    typer.Option(
        "--table-format",
        help="The summary table's format (--file-format is the written files'): " + FORMAT_HELP,
        metavar=choices(FORMATS),
    ),
]


class BuildGroup(AlphabeticalGroup):
    """The ``build`` group: options before a family name are the old form, refused in one line."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0].startswith("-") and args[0] not in ctx.help_option_names:
            with user_errors():
                raise ConfigError(old_form_message(args))
        return super().parse_args(ctx, args)


class FamilyBuildCommand(TyperCommand):
    """A family's build: a bad command line answers in one line, and an option that belongs to
    another family's build names that build."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except Exception as error:
            # Typer ships its own copy of click, so its exceptions are recognised by name.
            if not _is_a(error, "UsageError"):
                raise
            message = _usage_message(ctx, error)
        with user_errors():
            raise ConfigError(message)


def _is_a(error: Exception, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(error).__mro__)


def _usage_message(ctx: Any, error: Any) -> str:
    """One line for a click usage error of ``build NAME``: a renamed option names its new
    spelling, an option of another family's build names that build, ``--family`` the new form,
    anything else click's message and the help."""
    renamed = renamed_option_message(ctx, error)
    if renamed is not None:
        return renamed
    name = ctx.info_name
    flag = getattr(error, "option_name", None) if _is_a(error, "NoSuchOption") else None
    owners = [
        other
        for other, command in ctx.parent.command.commands.items()
        if flag and any(flag in parameter.opts for parameter in command.params)
    ]
    if owners:
        return (
            f"{flag} is an option of 'shortcutlab build {' or '.join(owners)}', not of "
            f"'build {name}'. Drop it, or run 'shortcutlab build {owners[0]}'."
        )
    if flag == "--family":
        return f"'build {name}' names its family already: drop --family."
    return f"{ended(error.format_message())} See 'shortcutlab build {name} --help'."


build_app = typer.Typer(
    cls=BuildGroup,
    help="Build a benchmark: one sub-command per family, each with its own options "
    "('shortcutlab build FAMILY --help').",
    no_args_is_help=True,
)
app.add_typer(build_app, name="build")


def family_command(name: str) -> Callable[[Callable[..., Any]], Any]:
    """Register a ``build`` sub-command for the family ``name``; its line in ``build --help`` is
    the family's registry summary."""
    return build_app.command(name, short_help=FAMILIES.get(name).summary, cls=FamilyBuildCommand)


def check_output_folder(inputs: InputOptions) -> None:
    """Refuse an output folder the build may not write before any work, not after it."""
    from shortcutlab.data.writing import check_output_dir

    if inputs.out is not None:
        check_output_dir(inputs.out, overwrite=inputs.overwrite)


def old_form_message(args: list[str]) -> str:
    """What ``build --family X ...`` (or ``build --train ...``, once Maze by default) is now."""
    families = FAMILIES.having("build")
    named = _family_option(args)
    if named in families:
        return (
            f"'build --family {named}' is now the sub-command 'shortcutlab build {named}': run it "
            f"with the other options as they were (see 'shortcutlab build {named} --help')."
        )
    return (
        f"'build' takes the family first now: 'shortcutlab build FAMILY ...' with FAMILY one of "
        f"{', '.join(families)} (Maze was the default: 'shortcutlab build maze ...')."
    )


def _family_option(args: list[str]) -> str | None:
    """The value of ``--family`` among ``args`` (None without one)."""
    for i, arg in enumerate(args):
        if arg.startswith("--family="):
            return arg.partition("=")[2]
        if arg == "--family" and i + 1 < len(args):
            return args[i + 1]
    return None
