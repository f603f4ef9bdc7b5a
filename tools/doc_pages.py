"""Read the tested commands of a documentation page (the doc-test convention).

A fenced block whose info string is ``console`` is run: each line starting with ``$ `` is a command,
a trailing backslash continues it on the next line, every other line is shown output. A page with
such blocks may start with a set-up comment::

    <!-- doc-test: needs=shared-data timeout=300
    ln -s "$SHARED_DATA/mnli-dev-matched/dev_matched.tsv" mnli.tsv
    -->

whose first line takes ``needs=shared-data`` and ``timeout=SECONDS`` (default 300), and whose
following lines, up to ``-->``, are hidden set-up commands run before the page's blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DEFAULT_TIMEOUT = 300
KNOWN_NEEDS = ("shared-data",)

# A fence may be indented (inside an admonition or a list item); its closing fence uses the same
# character, at least as many times.
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_HEADER = re.compile(r"<!--[ \t]*doc-test:(?P<body>.*?)-->", re.DOTALL)


class DocPageError(ValueError):
    """A page breaks the doc-test convention (an unknown option, an unclosed block)."""


@dataclass(frozen=True)
class DocPage:
    """What the doc tests run for one page."""

    needs: tuple[str, ...] = ()
    timeout: int = DEFAULT_TIMEOUT
    setup: tuple[str, ...] = ()
    commands: tuple[str, ...] = field(default_factory=tuple)


def console_blocks(text: str) -> list[list[str]]:
    """The lines of every ``console`` block of a Markdown text, in order, fence indentation removed."""
    return fenced_blocks(text, "console")


def fenced_blocks(text: str, language: str) -> list[list[str]]:
    """The lines of every block fenced as ``language`` (```bash, ```console...), in order."""
    blocks: list[list[str]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        index += 1
        if not opening:
            continue
        indent, fence = opening["indent"], opening["fence"]
        body: list[str] = []
        while index < len(lines):
            closing = _FENCE.match(lines[index])
            if closing and closing["fence"].startswith(fence) and not closing["info"].strip():
                break
            body.append(
                lines[index][len(indent) :] if lines[index].startswith(indent) else lines[index]
            )
            index += 1
        else:
            raise DocPageError(f"a ```{opening['info'].strip()} block is never closed")
        index += 1  # past the closing fence
        if opening["info"].strip().split(" ")[0] == language:
            blocks.append(body)
    return blocks


def commands_of(lines: list[str], *, prompt: str = "$ ") -> list[str]:
    """The commands among a block's lines: those starting with ``prompt`` (dropped from the
    command), each joined with the lines its trailing backslashes continue onto."""
    commands: list[str] = []
    continuing = False
    for line in lines:
        if continuing:
            commands[-1] += "\n" + line
        elif line.startswith(prompt):
            commands.append(line[len(prompt) :])
        else:
            continue
        continuing = line.rstrip().endswith("\\")
    return commands


def parse_header(text: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """``(needs, timeout, set-up commands)`` from the page's first doc-test comment, if any."""
    match = _HEADER.search(text)
    if match is None:
        return (), DEFAULT_TIMEOUT, ()
    first, _, rest = match["body"].partition("\n")
    needs: list[str] = []
    timeout = DEFAULT_TIMEOUT
    for word in first.split():
        key, _, value = word.partition("=")
        if key == "needs" and value in KNOWN_NEEDS:
            needs.append(value)
        elif key == "timeout" and value.isdigit() and int(value) > 0:
            timeout = int(value)
        else:
            raise DocPageError(
                f"unknown doc-test setting {word!r}: use needs=shared-data or timeout=SECONDS"
            )
    setup_lines = [line.strip() for line in rest.splitlines()]
    setup = commands_of([line for line in setup_lines if line], prompt="")
    return tuple(needs), timeout, tuple(setup)


def parse_page(text: str) -> DocPage:
    """The set-up and commands of one page (``commands`` is empty when it has no console block)."""
    needs, timeout, setup = parse_header(text)
    commands = [command for block in console_blocks(text) for command in commands_of(block)]
    return DocPage(needs=needs, timeout=timeout, setup=setup, commands=tuple(commands))
