"""MkDocs hook: the command-line reference is generated from the typer app at build time.

``docs/reference/cli.md`` holds the marker ``<!-- cli-reference -->``; this hook replaces it with
one section per command (the root, every group and every sub-command, alphabetically), each with
the command's own ``--help`` text. So the page can never disagree with the installed CLI.

A hook rather than the mkdocs-click plugin: typer ships its own copy of click, and its commands
are not instances of the ``click.Command`` that mkdocs-click documents.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer.main

from shortcutlab.cli.app import app

MARKER = "<!-- cli-reference -->"
PAGE = "reference/cli.md"
# Wide enough that option help rarely wraps, narrow enough for the page's code blocks.
WIDTH = 100


def command_sections(root: Any, name: str = "shortcutlab") -> Iterator[tuple[str, str, str]]:
    """``(command path, one-line summary, --help text)`` for the command and everything below it."""

    def walk(command: Any, parent: Any, info_name: str) -> Iterator[tuple[str, str, str]]:
        context = command.context_class(
            command,
            info_name=info_name,
            parent=parent,
            terminal_width=WIDTH,
            max_content_width=WIDTH,
        )
        summary = command.get_short_help_str(limit=10_000)
        yield context.command_path, summary, command.get_help(context)
        list_commands = getattr(command, "list_commands", None)
        if list_commands is None:
            return
        for child_name in sorted(list_commands(context)):
            child = command.get_command(context, child_name)
            if child is not None and not child.hidden:
                yield from walk(child, context, child_name)

    yield from walk(root, None, name)


def render_reference() -> str:
    parts = []
    for path, summary, help_text in command_sections(typer.main.get_command(app)):
        parts.append(f"## {path}\n\n{summary}\n\n```text\n{help_text.rstrip()}\n```\n")
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"{PAGE} lost its marker {MARKER!r}: the generated reference goes there")
    return markdown.replace(MARKER, render_reference())
