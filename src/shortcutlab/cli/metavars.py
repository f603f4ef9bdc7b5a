"""What each option takes, as ``--help`` shows it after the option's name.

Typer's copy of click shows the Python type of an option with no metavar of its own (``<str>``,
``<int>``, ``<path>``), which tells a newcomer little. An option whose values are a fixed list
declares them with :func:`choices` (``[table|md|csv|json|latex]``) or names its form
(``KEY=VALUE``, ``NAME``); every other one gets click's words for its type
(:func:`name_what_options_take`, run once over the commands the root group holds).

Examples:
    >>> choices(("mix", "scale"))
    '[mix|scale]'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# Click's own words for its types (click.STRING is "TEXT"); a type not here shows its name.
_TYPE_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "path": "PATH", "bool": "BOOLEAN"}


def choices(values: Iterable[str]) -> str:
    """The metavar of an option that takes one of ``values``."""
    return "[" + "|".join(values) + "]"


def name_what_options_take(command: Any) -> None:
    """Give every option of ``command`` and of its sub-commands that declares no metavar the
    word for its type; flags take no value and show none."""
    for parameter in command.params:
        if parameter.param_type_name != "option" or getattr(parameter, "is_flag", False):
            continue
        if parameter.metavar is None:
            name = parameter.type.name
            parameter.metavar = _TYPE_WORDS.get(name, name.upper())
    for sub_command in getattr(command, "commands", {}).values():
        name_what_options_take(sub_command)
