"""A dataclass as a group of command options, declared once.

:func:`dataclass_options` replaces a command's parameter typed with a dataclass by one Typer
option per field of that dataclass (its default, its help text and its flags, declared with
:func:`~shortcutlab.fields.option_field`), and hands the command the dataclass built from
them. Every ``shortcutlab build`` sub-command takes its shared input options this way, so they
are written once and read the same everywhere; a command groups its own options the same way
where they belong together.

Examples:
    >>> from dataclasses import dataclass
    >>> import typer
    >>> from typer.testing import CliRunner
    >>> from shortcutlab.fields import option_field
    >>> @dataclass(frozen=True)
    ... class Window:
    ...     width: int = option_field(80, "--width", "-w", help="Columns.")
    >>> app = typer.Typer()
    >>> @app.command()
    ... @dataclass_options(window=Window)
    ... def show(name: str, window: Window) -> None:
    ...     print(name, window)
    >>> print(CliRunner().invoke(app, ["box", "-w", "12"]).output.strip())
    box Window(width=12)
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeVar

import typer

from shortcutlab.cli.console import user_errors

Command = TypeVar("Command", bound=Callable[..., Any])


def dataclass_options(required: Iterable[str] = (), **groups: type) -> Callable[[Command], Command]:
    """A decorator: each parameter named in ``groups`` becomes the options of its dataclass's
    fields (``required``: fields the command line must give, whatever their default)."""
    required = set(required)

    def decorate(command: Command) -> Command:
        signature = inspect.signature(command, eval_str=True)
        parameters: list[inspect.Parameter] = []
        members: dict[str, list[str]] = {}
        for parameter in signature.parameters.values():
            group = groups.get(parameter.name)
            if group is None:
                parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))
                continue
            hints = typing.get_type_hints(group)
            fields = dataclasses.fields(group)
            members[parameter.name] = [f.name for f in fields]
            parameters += [_option(f, hints[f.name], f.name in required) for f in fields]

        @functools.wraps(command)
        def with_groups(**values: Any) -> Any:
            with user_errors():  # a dataclass that checks its fields refuses in one line
                for name, group in groups.items():
                    values[name] = group(**{field: values.pop(field) for field in members[name]})
            return command(**values)

        with_groups.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        with_groups.__annotations__ = {p.name: p.annotation for p in parameters}
        return typing.cast(Command, with_groups)

    return decorate


def _option(field: dataclasses.Field[Any], hint: Any, required: bool) -> inspect.Parameter:
    """The Typer option of one dataclass field: ``--field-name`` (or the ``flags`` its metadata
    names), its help, and its default unless ``required``."""
    flags = field.metadata.get("flags", ())
    option = typer.Option(
        *flags, help=field.metadata.get("help"), metavar=field.metadata.get("metavar")
    )
    if required or field.default is dataclasses.MISSING:
        default: Any = inspect.Parameter.empty
    else:
        default = field.default
    return inspect.Parameter(
        field.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[hint, option],
    )
