"""``shortcutlab evaluate BENCH``: the build's own family evaluates it.

The folder's ``manifest.json`` names the kind of build; the family registry finds the family
that builds that kind (:func:`~shortcutlab.families.family_of_build`), and that family's record
names the command that evaluates one of its builds (``evaluate_command``): ``evaluate`` for a
Maze build, ``suite evaluate`` for a Shortcut Suite. ``evaluate`` hands the whole command line to
that command, so ``shortcutlab evaluate SUITE --out DIR ...`` is ``shortcutlab suite evaluate
SUITE --out DIR ...``. A family that evaluates no single build (MPS: a grid does) and a kind no
family builds answer with one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.core import TyperCommand

from shortcutlab.cli.console import user_errors


class EvaluateCommand(TyperCommand):
    """The ``evaluate`` command: a build of another family's kind is evaluated by the command
    that family's record names, with the same words."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        from shortcutlab.families import family_of_build

        folder = _benchmark_argument(args, parent)
        found = None
        if folder is not None and Path(folder).is_dir():
            with user_errors():
                found = family_of_build(folder)
        words = found.evaluate_command.split() if found and found.evaluate_command else []
        target = _command(parent, words) if parent is not None and words else self
        if isinstance(target, EvaluateCommand):  # the build is Maze's: this command's own
            return super().make_context(info_name, args, parent=parent, **extra)
        return target.make_context(" ".join(words), args, parent=parent, **extra)


def _command(parent: Any, words: list[str]) -> Any:
    """The command ``words`` names under the root group (loading its module on first use)."""
    command = parent.command
    for word in words:
        command = command.commands[word]
    return command


def _benchmark_argument(args: list[str], parent: Any) -> str | None:
    """The first positional word of ``args``: the benchmark folder (None without one).

    Options before it are skipped with their values; which options take a value is read from
    every command a family names to evaluate its builds (their options differ)."""
    if not args or not args[0].startswith("-"):
        return args[0] if args else None
    flags = _flags(parent)
    skip_value = False
    for word in args:
        if skip_value:
            skip_value = False
        elif word == "--":
            continue
        elif word.startswith("-"):
            skip_value = "=" not in word and word not in flags
        else:
            return word
    return None


def _flags(parent: Any) -> set[str]:
    """The options that take no value, over every family's evaluate command."""
    from shortcutlab.families import FAMILIES

    found: set[str] = set()
    if parent is None:
        return found
    for name in FAMILIES.names():
        words = FAMILIES.get(name).evaluate_command
        if words:
            for parameter in _command(parent, words.split()).params:
                if getattr(parameter, "is_flag", False):
                    found.update(parameter.opts + parameter.secondary_opts)
    return found
