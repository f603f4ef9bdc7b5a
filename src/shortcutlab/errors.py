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
    ├── FolderInUseError(RuntimeError)     a run folder another process's run holds
    └── BackendError(RuntimeError)         an LLM server or local model failed to answer
        ├── RateLimited                    the server asked us to slow down (HTTP 429)
        └── Timeout(TimeoutError)          no answer within the time limit

The CLI prints ``str(error)`` as one line and exits with code 2; anything else is a bug.
"""

from __future__ import annotations

import os
import sys
import warnings


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


class FolderInUseError(ShortcutlabError, RuntimeError):
    """A run folder is locked by a run in another process (one run per folder at a time)."""


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


def warn(message: str) -> None:
    """Issue a :class:`ShortcutlabWarning` attributed to the first caller outside this package,
    however deep inside it the warning arises (a fixed ``stacklevel`` breaks when a function is
    split)."""
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame, level = sys._getframe(1), 2  # stacklevel 2 is warn()'s caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, ShortcutlabWarning, stacklevel=level)
