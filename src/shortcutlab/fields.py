"""Dataclass fields that are also command-line options: a default, a help text and the flags.

A neutral module (it imports nothing of the package), so a dataclass on any layer (the build
input options in ``data``, the test server's fault plan) declares its options once, and the CLI
turns them into Typer options (:func:`shortcutlab.cli.dataclass_options.dataclass_options`).

Examples:
    >>> from dataclasses import dataclass, fields
    >>> @dataclass(frozen=True)
    ... class Output:
    ...     fmt: str = option_field("csv", "--file-format", help="csv, jsonl or parquet.")
    >>> [(f.default, f.metadata["flags"], f.metadata["help"]) for f in fields(Output)]
    [('csv', ('--file-format',), 'csv, jsonl or parquet.')]
"""

from __future__ import annotations

from dataclasses import MISSING, field
from typing import Any


def option_field(default: Any = MISSING, *flags: str, help: str, metavar: str | None = None) -> Any:
    """A dataclass field with its default (none: required), its help text, where not
    ``--field-name`` its flags (``"--file-format"`` for a field ``fmt``), and what ``--help`` shows it
    takes where its type says too little (``"[csv|jsonl|parquet]"``, ``"KEY=VALUE"``)."""
    return field(default=default, metadata={"help": help, "flags": flags, "metavar": metavar})


__all__ = ["option_field"]
