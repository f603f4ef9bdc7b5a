"""Checks of values users give, one vocabulary and one message for every caller: CLI options,
builder and component arguments, and the keys of a spec file.

Every refusal is a :class:`~shortcutlab.errors.ConfigError` in scikit-learn's words, naming what
was checked, what it must be and what it got:

- an argument: "The 'lr' parameter of transformer must be a positive float. Got -1 instead.";
- a spec key, with its place in the file: "The 'test_size' key in spec.yaml: datasets[0] must be
  an integer >= 10. Got 5 instead.";
- a name from a list adds the closest allowed one: "... Got 'jsno' instead. Did you mean 'json'?"

Argument checks take ``(owner, parameter, value)``; spec checks take ``(value, where)``, where
``where`` is the key's place in the file, ``"spec.yaml: datasets[0]: test_size"`` (the file, the
entries down to the key, joined by ": "). A neutral module (it imports only ``errors``), so every
package may use it.

Examples:
    >>> check_positive_float("transformer", "lr", -1)
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The 'lr' parameter of transformer must be a positive float. Got -1 instead.
    >>> natural(5, "spec.yaml: datasets[0]: test_size", minimum=10)
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The 'test_size' key in spec.yaml: datasets[0] must be an integer >= 10. Got 5 instead.
"""

from __future__ import annotations

import difflib
import math
import reprlib
from collections.abc import Mapping, Sequence
from typing import Any

from shortcutlab.errors import ConfigError, one_line

#: The most characters of a user's value a message quotes.
QUOTE_LIMIT = 80
#: ... and of a path (people need all of a path to find the file).
PATH_LIMIT = 500
_QUOTER = reprlib.Repr()  # builtin repr, but stops early inside long strings, lists and mappings
_QUOTER.maxstring = _QUOTER.maxother = _QUOTER.maxlong = QUOTE_LIMIT
_QUOTER.maxlevel, _QUOTER.maxlist, _QUOTER.maxtuple, _QUOTER.maxdict = 3, 8, 8, 6
_QUOTER.maxset = _QUOTER.maxfrozenset = 8


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, on one line and at most ``limit`` characters (a path may
    take a larger ``limit``: people need all of it).

    Values come from users' files, so a value may be a megabyte long or hold a NUL or a line
    break; a message quotes the start of it.

    Examples:
        >>> quoted("frankly"), quoted("two\\nlines")
        ("'frankly'", "'two\\\\nlines'")
        >>> len(quoted("x" * 10**6)), len(quoted(list(range(10**6))))
        (80, 29)
    """
    if isinstance(value, str):  # repr escapes line breaks and NULs
        text = repr(value[:limit])
    else:
        text = one_line(_QUOTER.repr(value))
        if "..." not in text:  # nothing was cut, so repr is as short (and keeps the key order)
            text = one_line(repr(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def close_matches(
    value: object, allowed: list[str] | tuple[str, ...], n: int = 3, cutoff: float = 0.5
) -> list[str]:
    """Allowed names close to ``value``, ignoring case (so ``c`` suggests ``C``).

    Examples:
        >>> close_matches("strenghts", ["strengths", "seeds"])
        ['strengths']
    """
    if not isinstance(value, str):  # only a name is close to a name (and a huge value is slow)
        return []
    lowered = {str(a).lower(): str(a) for a in allowed}
    exact = [lowered[str(value).lower()]] if str(value).lower() in lowered else []
    fuzzy = [
        lowered[m]
        for m in difflib.get_close_matches(str(value).lower(), list(lowered), n=n, cutoff=cutoff)
    ]
    return list(dict.fromkeys(exact + fuzzy))[:n]


def parameter(name: str, owner: str = "") -> str:
    """The subject of a message about an argument: "The 'lr' parameter of transformer"."""
    return f"The {quoted(name)} parameter" + (f" of {owner}" if owner else "")


def spec_key(where: str) -> str:
    """The subject of a message about a spec key at ``where`` ("spec.yaml: datasets[0]: seed"):
    "The 'seed' key in spec.yaml: datasets[0]"."""
    place, _, key = where.rpartition(": ")
    return f"The {quoted(key)} key in {place}" if place else f"The {quoted(key)} key"


def refuse(subject: str, expected: str, value: Any, hint: str = "") -> ConfigError:
    """The one message: "<subject> must be <expected>. Got <value> instead.<hint>"."""
    return ConfigError(f"{subject} must be {expected}. Got {quoted(value)} instead.{hint}")


def require(ok: bool, owner: str, parameter_name: str, expected: str, value: Any) -> None:
    """Raise the standard ConfigError about an argument unless ``ok``."""
    if not ok:
        raise refuse(parameter(parameter_name, owner), expected, value)


def did_you_mean(value: Any, allowed: Sequence[Any], cutoff: float = 0.5, n: int = 1) -> str:
    """The hint naming the (up to ``n``) allowed names closest to ``value`` ("" when none is
    close). It ends its own sentence: what follows starts a new one, never after "?.".

    Examples:
        >>> did_you_mean("jsno", ["csv", "json"])
        " Did you mean 'json'?"
        >>> did_you_mean("alpah", ["alpha", "alpine", "beta"], n=3)
        " Did you mean 'alpha' or 'alpine'?"
    """
    close = close_matches(value, [str(a) for a in allowed], n=n, cutoff=cutoff)
    return f" Did you mean {' or '.join(map(quoted, close))}?" if close else ""


#: The largest integer a value may take: SQLite stores integers (a cell's seed) in 64 signed
#: bits, and numpy and C libraries take no more either.
INT64_MAX = 2**63 - 1


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_int64(value: Any) -> bool:
    return _is_int(value) and abs(value) <= INT64_MAX


def _too_big(value: Any) -> str:
    """What follows the expected kind of an integer past 64 bits: " (at most 9223372036854775807)"."""
    return f" (at most {INT64_MAX})" if _is_int(value) and value > INT64_MAX else ""


def is_finite_number(value: Any) -> bool:
    """An int or a float other than inf and nan (a bool is no number)."""
    return _is_int(value) or (
        isinstance(value, float) and math.isfinite(value)
    )  # an int is finite (and isfinite(10**400) overflows)


def _one_of(allowed: Sequence[Any]) -> str:
    return f"one of {', '.join(map(repr, allowed))}"


# Arguments of components, builders and commands: (owner, parameter, value).


def check_positive_int(owner: str, parameter_name: str, value: Any) -> None:
    require(
        _is_int64(value) and value > 0,
        owner,
        parameter_name,
        "a positive integer" + _too_big(value),
        value,
    )


def check_non_negative_int(owner: str, parameter_name: str, value: Any) -> None:
    require(
        _is_int64(value) and value >= 0,
        owner,
        parameter_name,
        "a non-negative integer" + _too_big(value),
        value,
    )


def check_positive_float(owner: str, parameter_name: str, value: Any) -> None:
    require(is_finite_number(value) and value > 0, owner, parameter_name, "a positive float", value)


def check_non_negative_float(owner: str, parameter_name: str, value: Any) -> None:
    require(
        is_finite_number(value) and value >= 0, owner, parameter_name, "a non-negative float", value
    )


def check_fraction(owner: str, parameter_name: str, value: Any) -> None:
    require(
        is_finite_number(value) and 0 <= value < 1,
        owner,
        parameter_name,
        "a float in [0, 1)",
        value,
    )


def check_bool(owner: str, parameter_name: str, value: Any) -> None:
    require(isinstance(value, bool), owner, parameter_name, "true or false", value)


def check_one_of(owner: str, parameter_name: str, value: Any, allowed: Sequence[Any]) -> None:
    """Refuse ``value`` unless it is one of ``allowed``, naming the closest allowed one."""
    if value not in allowed:
        raise refuse(
            parameter(parameter_name, owner), _one_of(allowed), value, did_you_mean(value, allowed)
        )


def check_choice(parameter_name: str, value: Any, allowed: Sequence[Any]) -> None:
    """:func:`check_one_of` for an option that belongs to no one component (a CLI option, a
    format): "The 'format' parameter must be one of 'csv', 'json'. Got 'x' instead."."""
    check_one_of("", parameter_name, value, allowed)


# Keys of a spec file: (value, where), ``where`` the key's place ("spec.yaml: datasets[0]: seed").


def check_keys(mapping: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    """Refuse the first key of ``mapping`` (the entry at ``where``) not in ``allowed``, as an
    unknown name is refused everywhere: the closest allowed one and the full list."""
    for key in mapping:
        if key not in allowed:
            raise ConfigError(
                f"Unknown key {quoted(key)} in {where}.{did_you_mean(key, allowed, 0.6)} Allowed keys: "
                f"{', '.join(allowed)}."
            )


def non_empty_string(value: Any, where: str) -> str:
    """A spec value that must be a non-empty string (a name, a column, a path), checked before
    anything formats it."""
    if not isinstance(value, str) or not value.strip():
        raise refuse(spec_key(where), "a non-empty string", value)
    return value


def as_list(value: Any, where: str) -> list[Any]:
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple) or not value:
        raise refuse(spec_key(where), "a non-empty list", value)
    return list(value)


def unique(values: Sequence[Any], where: str, what: str, hint: str = "") -> None:
    """Refuse a ``what`` (a name, a value, ...) that the list at ``where`` holds twice."""
    seen = set()
    for value in values:
        if value in seen:
            raise ConfigError(
                f"Each {what} in {where} must be unique. Got {quoted(value)} twice.{hint and ' ' + hint}"
            )
        seen.add(value)


def unit_interval(value: Any, where: str) -> float:
    if not (is_finite_number(value) and 0 <= value <= 1):
        raise refuse(spec_key(where), "a number in [0, 1]", value)
    return float(value)


def natural(value: Any, where: str, *, minimum: int = 0, maximum: int = INT64_MAX) -> int:
    """An integer in [minimum, maximum] (the maximum is named when the value passes it)."""
    if not (_is_int(value) and minimum <= value <= maximum):
        too_big = _is_int(value) and value > maximum
        expected = (
            f"an integer in [{minimum}, {maximum}]" if too_big else f"an integer >= {minimum}"
        )
        raise refuse(spec_key(where), expected, value)
    return value


def choice(value: Any, allowed: Sequence[str], where: str) -> str:
    if value not in allowed:
        raise refuse(spec_key(where), _one_of(allowed), value, did_you_mean(value, allowed))
    return str(value)


def val_size(value: Any, where: str) -> float:
    """0, a fraction in (0, 1), or a whole row count (``500.0`` is 500 rows)."""
    whole = is_finite_number(value) and value >= 1 and float(value).is_integer()
    if not (is_finite_number(value) and 0 <= value < 1 or whole and value <= INT64_MAX):
        raise refuse(
            spec_key(where), f"0, a fraction in (0, 1) or a row count in [1, {INT64_MAX}]", value
        )
    return value  # as given: 500.0 stays a float, so a stored spec keeps its hash


#: More resamples move no printed digit and take hours (the papers draw 1000).
MAX_BOOTSTRAP = 1_000_000


def bootstrap(value: Any, where: str) -> int:
    return natural(value, where, minimum=100, maximum=MAX_BOOTSTRAP)


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise refuse(spec_key(where), "true or false", value)
    return value


def check_spec_numbers(raw: Any, where: str) -> None:
    """Refuse a number anywhere in a spec (``raw``, as read from YAML) that no key may take: a
    non-finite float (``.inf``, ``.nan``) or an integer past 64 bits, which SQLite, JSON and C
    libraries cannot hold. Keys with a range of their own are checked by their parsers first;
    this covers the rest at any depth (a model's ``C``, an attribute's options).

    Examples:
        >>> check_spec_numbers({"models": [{"name": "tfidf-svm", "C": float("inf")}]}, "spec.yaml")
        Traceback (most recent call last):
        ...
        shortcutlab.errors.ConfigError: The 'C' key in spec.yaml: models[0] must be a finite number. Got inf instead.
    """
    seen: set[int] = set()  # a YAML alias repeats one object: check it once (and end on a cycle)
    pending = [(raw, where)]
    while pending:
        value, place = pending.pop()
        if isinstance(value, Mapping | list | tuple):
            if id(value) in seen:
                continue
            seen.add(id(value))
            items = value.items() if isinstance(value, Mapping) else enumerate(value)
            pending.extend(
                (item, f"{place}: {key}" if isinstance(value, Mapping) else f"{place}[{key}]")
                for key, item in reversed(list(items))
            )
        elif isinstance(value, float) and not math.isfinite(value):
            raise refuse(spec_key(place), "a finite number", value)
        elif _is_int(value) and not -INT64_MAX - 1 <= value <= INT64_MAX:
            raise refuse(spec_key(place), f"an integer in [{-INT64_MAX - 1}, {INT64_MAX}]", value)
