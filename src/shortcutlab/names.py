"""What a safe name is: a name a user gives that becomes a folder or file name.

A dataset's name, a model's or mitigation's id, an attribute's id, a spec's name and a Suite
set's name each become part of a path (``RUN/benchmarks/<dataset>-<shortcut>-...``), so each is
checked here, once, before anything is written: 1 to :data:`MAX_NAME` ASCII letters, digits,
``.``, ``_`` or ``-``, starting with a letter, a digit or ``_``. That refuses ``..``, ``.``,
``/``, ``\\``, NUL, the empty name and hidden names, so a name never leaves its folder and never
collides with the ``.NAME.partial`` folders a build writes first. Annotators' names are shown to
people, never used as paths: :func:`check_name` with ``person=True`` also allows inner spaces,
``@`` and non-ASCII letters, under the same refusals of separators, dots and NUL.

Examples:
    >>> check_name("ESC4", "The dataset name")
    'ESC4'
    >>> check_name("../../ESC4", "The dataset name")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The dataset name must be 1-100 letters, digits, '.', '_' or '-', starting with a letter, a digit or '_' (it becomes a folder or file name). Got '../../ESC4' instead.
    >>> check_name("Ada Lovelace", "The annotator", person=True)
    'Ada Lovelace'
"""

from __future__ import annotations

import re
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.params import spec_key

MAX_NAME = 100  # leaves room below the usual 255-byte file-name limit for the parts added to it
MAX_PERSON = 64
_PATH_NAME = re.compile(rf"[A-Za-z0-9_][A-Za-z0-9._-]{{0,{MAX_NAME - 1}}}")
# \w is Unicode-aware here: letters of any script, digits and '_', never a separator or NUL.
_PERSON_NAME = re.compile(rf"\w[\w .@-]{{0,{MAX_PERSON - 1}}}")
_PATH_RULE = (
    f"1-{MAX_NAME} letters, digits, '.', '_' or '-', starting with a letter, a digit or '_' "
    "(it becomes a folder or file name)"
)
_PERSON_RULE = (
    f"a name of 1-{MAX_PERSON} letters, digits, spaces or . @ _ - (starting with a letter or digit)"
)
_QUOTED = 60  # characters of a refused name quoted in the message


def check_name(value: Any, subject: str, *, person: bool = False) -> str:
    """``value`` as a name (an integer such as ``2024`` is welcome as its text), or a ConfigError
    "<subject> must be <the rule>. Got <value> instead." quoting at most a few dozen characters.

    ``person=True`` checks a person's name (an annotator), which is shown, never a path.
    """
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    pattern, rule = (_PERSON_NAME, _PERSON_RULE) if person else (_PATH_NAME, _PATH_RULE)
    if isinstance(text, str) and pattern.fullmatch(text):
        return text
    raise ConfigError(f"{subject} must be {rule}. Got {_quoted(value)} instead.")


def spec_name(value: Any, where: str) -> str:
    """:func:`check_name` for a spec key at ``where`` ("spec.yaml: data: name")."""
    return check_name(value, spec_key(where))


def _quoted(value: Any) -> str:
    """A short repr: a 100 000-character name is not printed whole (repr escapes NUL)."""
    if isinstance(value, str) and len(value) > _QUOTED:
        return f"{value[:_QUOTED]!r}... ({len(value)} characters)"
    if not isinstance(value, str | int | float | type(None)):
        return f"a {type(value).__name__}"
    return repr(value)


__all__ = ["MAX_NAME", "check_name", "spec_name"]
