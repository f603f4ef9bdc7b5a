"""Value checks for experiment specs: each error names its place in the file and the fix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.registry import close_matches


def check_keys(mapping: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    """Raise a ConfigError for the first key not in ``allowed``, with close matches."""
    for key in mapping:
        if key not in allowed:
            close = close_matches(key, list(allowed), n=1, cutoff=0.6)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            raise ConfigError(
                f"Unknown key '{key}' in {where}.{hint} Allowed keys: {', '.join(allowed)}."
            )


def as_list(value: Any, where: str) -> list[Any]:
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple) or not value:
        raise ConfigError(f"{where} must be a non-empty list. Got {value!r}.")
    return list(value)


def unique(values: Sequence[Any], where: str, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise ConfigError(f"{where} repeats a {what}: {value!r}.")
        seen.add(value)


def unit_interval(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ConfigError(f"{where} must be a number in [0, 1]. Got {value!r}.")
    return float(value)


def natural(value: Any, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{where} must be an integer >= {minimum}. Got {value!r}.")
    return value


def choice(value: Any, allowed: Sequence[str], where: str) -> str:
    if value not in allowed:
        close = close_matches(value, list(allowed), n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise ConfigError(f"{where} must be one of {', '.join(allowed)}. Got {value!r}.{hint}")
    return str(value)


def val_size(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"{where} must be a row count or a fraction in (0, 1). Got {value!r}.")
    return value


def bootstrap(value: Any, where: str) -> int:
    return natural(value, where, minimum=100)
