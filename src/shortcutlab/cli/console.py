"""The terminal of every command: the two consoles and the one way input errors end a command
(one line on stderr, exit code 2). It imports nothing of the CLI, so any CLI module may use it."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

import typer
from rich.console import Console

from shortcutlab.errors import ShortcutlabError, ShortcutlabWarning
from shortcutlab.params import one_line

# soft_wrap: messages stay on one line (tests and logs read them whole); tables size themselves.
out_console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn input errors into one line on stderr and exit code 2; show warnings as they come."""
    with warnings.catch_warnings():  # restores the warning machinery on exit
        # Each distinct warning once per command: a model fitted per seed says it once, not N times.
        warnings.simplefilter("default", ShortcutlabWarning)
        original = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
            if issubclass(category, ShortcutlabWarning):
                err_console.print(f"Warning: {message}", markup=False, soft_wrap=True)
            else:
                original(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        try:
            yield
        except ShortcutlabError as error:
            # one_line: a user's value quoted raw (a file name, a column) may hold a line break or NUL.
            err_console.print(f"Error: {one_line(str(error))}", markup=False, soft_wrap=True)
            raise typer.Exit(code=2) from None
