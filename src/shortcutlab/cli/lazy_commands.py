"""Which module defines each top-level command, so that a process loads only the one it runs.

Every process pays its imports: ``shortcutlab build maze`` need not import the audit, the grids,
the annotation app or the LLM server, nor ``shortcutlab --version`` any of them. The root group's
``commands`` is a :class:`LazyCommands` mapping: its names come from :data:`COMMAND_MODULES`, and
a command's module is imported the first time the command itself is looked up (to run it, or for
``--help``, which lists every command and so loads them all).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from shortcutlab.families import FAMILIES

# Command name -> the modules that register it (and its sub-commands) on the typer app. A new
# command adds its line here (a family's own command is declared on its registry line instead);
# tests/cli/test_help_listing.py checks the table against the modules.
_OTHER_COMMANDS: dict[str, tuple[str, ...]] = {
    "annotate": ("shortcutlab.cli.annotate",),
    "build": (
        "shortcutlab.cli.build_maze",
        "shortcutlab.cli.build_mps",
        "shortcutlab.cli.build_suite",
        "shortcutlab.cli.build_robustness",
    ),
    "check": ("shortcutlab.cli.check",),
    "demo": ("shortcutlab.cli.benchmarks",),
    "evaluate": ("shortcutlab.cli.benchmarks",),
    "explain": ("shortcutlab.cli.explain",),
    "export": ("shortcutlab.cli.export",),
    "generate": ("shortcutlab.cli.benchmarks",),
    "list": ("shortcutlab.cli.benchmarks",),
    "llm-server": ("shortcutlab.cli.llm_commands",),
    "make-tiny-model": ("shortcutlab.cli.llm_commands",),
    "report": ("shortcutlab.cli.report",),
    "results": ("shortcutlab.cli.grids",),
    "rewrite-quality": ("shortcutlab.cli.llm_commands",),
    "run": ("shortcutlab.cli.grids",),
    "split": ("shortcutlab.cli.split",),
}
# A family that declares `command` on its registry line has it in the CLI module of its name.
_FAMILY_COMMANDS = {name: (f"shortcutlab.cli.{name}",) for name in FAMILIES.having("command")}
COMMAND_MODULES: dict[str, tuple[str, ...]] = dict(
    sorted((_OTHER_COMMANDS | _FAMILY_COMMANDS).items())
)


def import_command_modules(name: str) -> None:
    """Import the modules that register the command ``name`` (each registers once)."""
    for module in COMMAND_MODULES[name]:
        importlib.import_module(module)


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name: the names are known up front (:data:`COMMAND_MODULES`), and a
    command is built on first access, after importing its modules. ``build()`` returns every
    command registered so far. Membership and iteration never import anything."""

    def __init__(
        self, built: MutableMapping[str, Any], build: Callable[[], dict[str, Any]]
    ) -> None:
        self.loaded = dict(built)
        self._build = build

    def load_all(self) -> None:
        """Import every command's modules, then build them in one pass (``--help`` lists all)."""
        for name in COMMAND_MODULES:
            import_command_modules(name)
        self._add_built()

    def __getitem__(self, name: str) -> Any:
        if name not in self.loaded and name in COMMAND_MODULES:
            import_command_modules(name)
            self._add_built()
        return self.loaded[name]

    def _add_built(self) -> None:
        for name, command in self._build().items():
            self.loaded.setdefault(name, command)

    def __contains__(self, name: object) -> bool:
        return name in self.loaded or name in COMMAND_MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(self.loaded) | set(COMMAND_MODULES)))

    def __len__(self) -> int:
        return len(set(self.loaded) | set(COMMAND_MODULES))

    def __setitem__(self, name: str, command: Any) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self.loaded[name]
