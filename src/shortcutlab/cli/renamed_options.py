"""Options that were renamed: the old spelling answers with one line naming the new one.

A command that has the new flag refuses the old one (click's "No such option") with the
sentence of :data:`RENAMED`, so a script written for the old spelling learns what to write
instead of running with a different meaning. Both the root group and the build sub-commands
ask :func:`renamed_option_message` about every unknown option.

Examples:
    >>> RENAMED["--format"][0]
    '--file-format'
"""

from __future__ import annotations

from typing import Any

#: Old flag -> (new flag, what the new one is; what the old spelling means elsewhere).
RENAMED: dict[str, tuple[str, str]] = {
    "--format": (
        "--file-format",
        "the type of the files it writes); --format means the printed table's style elsewhere.",
    ),
}


def renamed_option_message(ctx: Any, error: Any) -> str | None:
    """The line for click's ``error`` when its unknown option is the old spelling of one the
    command in ``ctx`` has (None for any other error)."""
    names = {cls.__name__ for cls in type(error).__mro__}  # Typer ships its own copy of click
    flag = getattr(error, "option_name", None) if "NoSuchOption" in names else None
    if flag not in RENAMED or ctx is None:
        return None
    new, meaning = RENAMED[flag]
    if not any(new in parameter.opts for parameter in ctx.command.params):
        return None
    words = ctx.command_path.split()
    command = words[1] if len(words) > 1 else words[0]  # 'build' for 'shortcutlab build maze'
    return f"{command}'s {flag} is now {new} ({meaning}"
