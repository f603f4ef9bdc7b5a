"""The terminal of every command: the two consoles and the one way input errors end a command
(one line on stderr, exit code 2). It imports nothing of the CLI, so any CLI module may use it.

Besides :class:`ShortcutlabError`, the failures a user's machine or files cause end the same way,
caught here by class as a safety net under the places that translate them with more context: an
OSError of an errno a user can fix (its path, reason, errno name and what to do), a damaged or
unwritable SQLite file, and bytes that are not text in the expected encoding. Any other exception
is a bug and keeps its traceback; so does an OSError whose errno no user causes (EBADF, EINVAL).
"""

from __future__ import annotations

import contextlib
import sqlite3
import warnings
from collections.abc import Iterator

import typer
from rich.console import Console

from shortcutlab.errors import ShortcutlabError, ShortcutlabWarning, one_line, os_error_message

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
                err_console.print(
                    f"Warning: {one_line(str(message))}", markup=False, soft_wrap=True
                )
            else:
                original(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        try:
            yield
        except ShortcutlabError as error:
            _refuse(str(error))
        except OSError as error:
            _refuse(os_error_message(error) or _reraise(error))
        except sqlite3.DatabaseError as error:  # a store names its file; this is the safety net
            from shortcutlab.data.sqlite_file import database_error  # only on this failure

            translated = database_error(error, None, "Find the file among the command's inputs")
            _refuse(str(translated) if translated is not None else _reraise(error))
        except UnicodeDecodeError as error:  # the readers name their file; this is the safety net
            _refuse(
                f"Text is not valid {error.encoding}: byte 0x{error.object[error.start]:02x} at "
                f"offset {error.start} ({error.reason}). Pass --encoding with the file's real "
                f"encoding, e.g. --encoding cp1252, or save it as UTF-8."
            )
        except ValueError as error:  # os.fspath refuses a NUL in a path the user typed
            if "embedded null" not in str(error):
                raise
            _refuse("A path or name holds a NUL byte (\\0): remove it.")


@contextlib.contextmanager
def held_warnings() -> Iterator[list[str]]:
    """Hold back the package's warnings raised inside (each once), to print after the output
    (:func:`print_warnings`) rather than between its tables; the list fills when the block ends."""
    held: list[str] = []
    caught: list[warnings.WarningMessage] = []
    failed = True
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default", ShortcutlabWarning)
            yield held
            failed = False
    finally:  # shown once the recorder is gone; on a failure ours too, before its Error line
        ours = [w for w in caught if issubclass(w.category, ShortcutlabWarning)]
        for w in caught:
            if failed or w not in ours:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        held.extend(dict.fromkeys(one_line(str(w.message)) for w in ours))


def print_warnings(console: Console, held: list[str]) -> None:
    for message in held:
        console.print(f"Warning: {message}", markup=False, soft_wrap=True)


def _refuse(message: str) -> None:
    err_console.print(f"Error: {one_line(message)}", markup=False, soft_wrap=True)
    raise typer.Exit(code=2) from None


def _reraise(error: BaseException) -> str:
    """Keep a bug's traceback: raise it again (typed as a message for the callers above)."""
    raise error
