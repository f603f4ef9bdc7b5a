"""Parameter checks shared by models, LLM clients and servers, with scikit-learn style messages.

A neutral module (it imports only ``errors``), so ``llm`` and ``models`` both use it without
importing each other.

Examples:
    >>> check_positive_float("transformer", "lr", -1)
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The 'lr' parameter of transformer must be a positive float. Got -1 instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shortcutlab.errors import ConfigError


def require(ok: bool, owner: str, parameter: str, expected: str, value: Any) -> None:
    """Raise the standard ConfigError unless ``ok``."""
    if not ok:
        raise ConfigError(
            f"The {parameter!r} parameter of {owner} must be {expected}. Got {value!r} instead."
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def check_positive_int(owner: str, parameter: str, value: Any) -> None:
    require(_is_int(value) and value > 0, owner, parameter, "a positive integer", value)


def check_non_negative_int(owner: str, parameter: str, value: Any) -> None:
    require(_is_int(value) and value >= 0, owner, parameter, "a non-negative integer", value)


def check_positive_float(owner: str, parameter: str, value: Any) -> None:
    require(_is_number(value) and value > 0, owner, parameter, "a positive float", value)


def check_non_negative_float(owner: str, parameter: str, value: Any) -> None:
    require(_is_number(value) and value >= 0, owner, parameter, "a non-negative float", value)


def check_fraction(owner: str, parameter: str, value: Any) -> None:
    require(_is_number(value) and 0 <= value < 1, owner, parameter, "a float in [0, 1)", value)


def check_bool(owner: str, parameter: str, value: Any) -> None:
    require(isinstance(value, bool), owner, parameter, "true or false", value)


def check_one_of(owner: str, parameter: str, value: Any, allowed: Sequence[Any]) -> None:
    require(value in allowed, owner, parameter, f"one of {', '.join(map(repr, allowed))}", value)
