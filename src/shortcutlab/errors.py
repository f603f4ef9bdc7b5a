"""The exception tree of shortcutlab.

Every error a user can cause derives from :class:`ShortcutlabError` and also from the builtin it
means, so ``except ValueError`` keeps working for callers who do not know this package::

    ShortcutlabError
    ├── ConfigError(ValueError)            a parameter or option has an invalid value
    │   └── UnknownComponentError(KeyError) a registry name that does not exist (did-you-mean)
    ├── DataError(ValueError)              an input table is unreadable or malformed
    │   ├── InputFileError(FileNotFoundError-like: missing / unsupported / empty file)
    │   └── EncodingError                  bytes that are not valid in the declared encoding
    ├── OutputExistsError(FileExistsError) refusing to overwrite a non-empty output folder
    ├── StorageError(OSError)              the machine refused a read or write (full, read-only disk)
    ├── FolderInUseError(RuntimeError)     a run folder another process's run holds
    ├── CellsFailedError(RuntimeError)     cells of a grid failed (``.report`` holds the run's report)
    └── BackendError(RuntimeError)         an LLM server or local model failed to answer
        ├── RateLimited                    the server asked us to slow down (HTTP 429)
        └── Timeout(TimeoutError)          no answer within the time limit

The CLI prints ``str(error)`` as one line and exits with code 2; anything else is a bug.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any


class ShortcutlabError(Exception):
    """Root of every error caused by bad input or configuration."""


class ConfigError(ShortcutlabError, ValueError):
    """A parameter or option has a value outside what is allowed."""


class UnknownComponentError(ConfigError, KeyError):
    """A name that no registry knows."""

    def __str__(self) -> str:  # KeyError would repr() the message and add quotes.
        return str(self.args[0]) if self.args else ""


class DataError(ShortcutlabError, ValueError):
    """An input table is unreadable, empty or lacks what the task needs."""


class InputFileError(DataError):
    """An input file is missing, of an unsupported format, or empty."""


class EncodingError(DataError):
    """A text file holds bytes that are invalid in the declared encoding."""


class OutputExistsError(ShortcutlabError, FileExistsError):
    """The output folder exists and is not empty, and overwriting was not asked for."""


class StorageError(ShortcutlabError, OSError):
    """The machine refused to read or write a file: no permission, a read-only or full disk, an
    I/O error (what a user can fix on their side, unlike a bug)."""


class FolderInUseError(ShortcutlabError, RuntimeError):
    """A run folder is locked by a run in another process (one run per folder at a time)."""


class CellsFailedError(ShortcutlabError, RuntimeError):
    """Cells of a grid failed; the run's report (every failure's reason) is ``.report``."""

    def __init__(self, message: str, report: Any = None) -> None:
        super().__init__(message)
        self.report = report


class BackendError(ShortcutlabError, RuntimeError):
    """An LLM server or local model failed to answer; ``retryable`` says whether trying again may help."""

    def __init__(
        self, message: str, *, retryable: bool = False, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after  # seconds the server asked us to wait, when it said so


class RateLimited(BackendError):
    """The server refused the request for now (HTTP 429); always worth retrying after a pause."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message, retryable=True, retry_after=retry_after)


class Timeout(BackendError, TimeoutError):
    """No answer within the client's time limit; always worth retrying."""

    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=True)


class ShortcutlabWarning(UserWarning):
    """Something the user should know about but that does not stop the run."""


# Whose terms a message names a setting in: the command line's options, a grid spec's keys, or
# the Python API's keyword arguments. The CLI and the grid engine set it around their work.
CLI, GRID, PYTHON = "cli", "grid", "python"
_CALLER: contextvars.ContextVar[str] = contextvars.ContextVar("shortcutlab_caller", default=PYTHON)
# Whose terms name a run's own settings (out, force, jobs) inside a grid: the grid's caller's.
_RUNNER: contextvars.ContextVar[str] = contextvars.ContextVar("shortcutlab_runner", default=PYTHON)
_SUBJECT: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "shortcutlab_subject", default=None
)


@contextlib.contextmanager
def caller(terms: str) -> Iterator[None]:
    """Within the block, :func:`knob` names settings as ``terms`` (CLI, GRID or PYTHON) does; a
    grid keeps its caller's terms for the settings of the run itself (``knob(..., run=True)``)."""
    token = _CALLER.set(terms)
    runner = _RUNNER.set(_RUNNER.get() if terms == GRID else terms)
    try:
        yield
    finally:
        _RUNNER.reset(runner)
        _CALLER.reset(token)


@contextlib.contextmanager
def subject(name: str) -> Iterator[None]:
    """Within the block, every :func:`warn` begins with ``name`` (the build, attribute or cell it
    is about), so a warning raised deep inside a grid still says which part of it it means."""
    token = _SUBJECT.set(name)
    try:
        yield
    finally:
        _SUBJECT.reset(token)


def knob(
    key: str,
    value: Any = None,
    *,
    section: str | None = None,
    flag: str | None = None,
    run: bool = False,
) -> str:
    """The setting ``key`` (set to ``value``) in the current caller's terms.

    ``section`` is the grid spec's mapping holding the key (``mps``); ``flag`` the command-line
    option when it is not ``--`` + the key with dashes. A switch set to True is its bare flag.
    ``run`` marks a setting of the call that runs or reads a grid rather than a key of its spec
    (``out``, ``force``, ``jobs``): inside a grid it is named as the grid's caller names it.

    Examples:
        >>> with caller(CLI):
        ...     knob("label_mix", "matched", section="mps")
        '--label-mix matched'
        >>> with caller(GRID):
        ...     knob("label_mix", "matched", section="mps")
        'mps: {label_mix: matched}'
        >>> knob("label_mix", "matched", section="mps")
        "label_mix='matched'"
        >>> with caller(CLI):
        ...     knob("overwrite", True)
        '--overwrite'
        >>> with caller(CLI), caller(GRID):
        ...     knob("out", run=True), knob("force", True, run=True)
        ('--out', '--force')
        >>> with caller(GRID):
        ...     knob("force", True, run=True)
        'force=True'
    """
    terms = callers_terms(run=run)
    if terms == CLI:
        option = flag or "--" + key.replace("_", "-")
        return option if value is None or value is True else f"{option} {value}"
    if terms == GRID:
        setting = f"{key}: {'...' if value is None else value}"
        return f"{section}: {{{setting}}}" if section else setting
    return f"{key}=..." if value is None else f"{key}={value!r}"


def callers_terms(*, run: bool = False) -> str:
    """CLI, GRID or PYTHON: whose terms a message names settings in (``run``: see :func:`knob`)."""
    return _RUNNER.get() if run and _CALLER.get() == GRID else _CALLER.get()


def spelled(cli: str, python: str) -> str:
    """What a message advises doing, as the caller does it: ``cli`` (a command) on the command
    line, ``python`` (a call) from Python; inside a grid, as the grid's caller does it.

    Examples:
        >>> spelled("'shortcutlab split DATA'", "load_table(data)")
        'load_table(data)'
    """
    return cli if callers_terms(run=True) == CLI else python


def warn(message: str) -> None:
    """Issue a :class:`ShortcutlabWarning` attributed to the first caller outside this package,
    however deep inside it the warning arises (a fixed ``stacklevel`` breaks when a function is
    split). Inside :func:`subject` the message begins with what it is about."""
    about = _SUBJECT.get()
    if about:  # "The set ..." -> "MPS build ...: the set ..."; names ("Balanced", "MPS") stay
        lower = message.split(" ", 1)[0] in ("The", "This", "These", "A", "An")
        message = f"{about}: {message[:1].lower() + message[1:] if lower else message}"
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame, level = sys._getframe(1), 2  # stacklevel 2 is warn()'s caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, ShortcutlabWarning, stacklevel=level)


# What a user can do about an OSError their machine caused, by errno; {out} and {jobs} become
# the settings in the caller's terms (knob). An errno not listed here (EBADF, EINVAL, ...) points
# at a bug in this package and keeps its traceback.
OS_ERROR_ADVICE = {
    errno.ENOSPC: "The disk is full: free space on it, or point {out} at another disk.",
    errno.EDQUOT: "The disk quota is used up: free space within it, or choose another {out}.",
    errno.EFBIG: "The file grew past what this file system allows: choose another {out}.",
    errno.EROFS: "That file system is read-only: point {out} at a writable disk.",
    errno.EACCES: "Fix the permissions (ls -l, chmod), or choose another path or {out}.",
    errno.EPERM: "Fix the permissions (ls -l, chmod), or choose another path or {out}.",
    errno.ENOENT: "Check that the path exists (it may have been moved or deleted meanwhile).",
    errno.ENOTDIR: "A part of the path is a file, not a folder: check the path.",
    errno.EISDIR: "The path is a folder where a file was expected: pass a file.",
    errno.EBUSY: "The path is in use (a mount point or the current folder): choose another {out}.",
    errno.EIO: "The disk failed to read or write: check the device, then run the command again.",
    errno.EMFILE: "Too many files are open: raise the limit (ulimit -n) or lower {jobs}.",
    errno.ENFILE: "Too many files are open on this machine: close some, then run again.",
    errno.ENAMETOOLONG: "The path is too long for this file system: choose a shorter one.",
    errno.ELOOP: "The path's symbolic links form a loop: fix them or choose another path.",
    errno.ESTALE: "The network file system lost the file: run the command again.",
}


def os_error_message(error: OSError) -> str | None:
    """One line for an OSError a user's machine caused (the path, the reason, its errno name and
    what to do), or None for one that points at a bug."""
    advice = OS_ERROR_ADVICE.get(error.errno) if error.errno is not None else None
    if advice is None:
        return None
    advice = advice.format(out=knob("out", run=True), jobs=knob("jobs", run=True))
    name = errno.errorcode.get(error.errno, str(error.errno))
    reason = error.strerror or os.strerror(error.errno)
    if error.filename is None:  # pyarrow and plain writes: the message may hold the path itself
        plain = str(error) in ("", f"[Errno {error.errno}] {reason}")
        detail = reason if plain or reason not in str(error) else str(error)
        return f"{detail} [{name}]. {advice}"
    where = _path_text(error.filename)
    if error.filename2 is not None:
        where += f" -> {_path_text(error.filename2)}"
    return f"{where}: {reason} [{name}]. {advice}"


@contextlib.contextmanager
def naming_path(path: str | os.PathLike[str]) -> Iterator[None]:
    """Give an OSError raised inside the block that names no file (a write that found the disk
    full) ``path``, the file or folder being written, so its message says where."""
    try:
        yield
    except OSError as error:
        if error.filename is None and error.errno is not None:
            error.filename = os.fspath(path)
        raise


def _path_text(path: object) -> str:
    return repr(os.fsdecode(path)) if isinstance(path, str | bytes | os.PathLike) else repr(path)


#: Values a message lists before "and N more" (:func:`listed`).
LISTED_VALUES = 5
#: ... and column names, where the fix is to pick one of them (``--text-col``).
LISTED_NAMES = 12
#: The most characters of one listed value (a label or column name from a user's file).
LISTED_WIDTH = 60


def listed(
    values: Iterable[Any],
    *,
    limit: int = LISTED_VALUES,
    show: Callable[[Any], str] = str,
    separator: str = ", ",
    width: int = LISTED_WIDTH,
) -> str:
    """``values`` for a one-line message: the first ``limit``, each as ``show`` writes it (one
    line, cut at ``width`` characters), joined by ``separator``, then "and N more". Every
    message that lists values from users' data goes through it: a file may hold 10,000 labels.

    Examples:
        >>> listed(["neg", "pos"])
        'neg, pos'
        >>> listed(range(10_000))
        '0, 1, 2, 3, 4 and 9,995 more'
        >>> listed(["two\\nlines", "x" * 500], show=repr)
        "'two\\\\nlines', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
    """
    items = list(values)
    texts = [one_line(show(value)) for value in items[:limit]]
    shown = separator.join(t if len(t) <= width else t[: width - 1] + "…" for t in texts)
    rest = len(items) - limit
    return shown if rest <= 0 else f"{shown} and {rest:,} more"


def one_line(message: str) -> str:
    """``message`` as one line: line breaks and tabs become spaces, other control characters
    (NUL, terminal escapes) their escape, so an error stays one line and bytes from a file cannot
    garble the terminal.

    Examples:
        >>> one_line("found a\\nbad\\x00 key")
        'found a bad\\\\x00 key'
    """
    message = " ".join(message.replace("\t", " ").splitlines())
    if message.isprintable():
        return message
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in message
    )


def ended(sentence: str) -> str:
    """``sentence`` closed once: a full stop added unless it ends with ".", "?" or "!" already
    (a message that goes on after another's ends its sentence without "?." or "..").

    Examples:
        >>> ended("No such command 'evalute'. Did you mean 'evaluate'?"), ended("No such option")
        ("No such command 'evalute'. Did you mean 'evaluate'?", 'No such option.')
    """
    sentence = sentence.rstrip()
    return sentence if sentence.endswith((".", "?", "!")) else sentence + "."
