"""A small registry of named components (shortcuts, models, ...) with lazy entries.

Entries are either objects or ``"module:attribute"`` strings imported on first use, so heavy
backends (torch, transformers) cost nothing until asked for. Unknown names answer with the close
matches and the full list.

Examples:
    >>> colours = Registry("colour")
    >>> colours.add("red", 1)
    >>> colours.get("red")
    1
    >>> colours.get("rde")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.UnknownComponentError: Unknown colour 'rde'. Did you mean 'red'? Known colours: red.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from shortcutlab.errors import ConfigError, UnknownComponentError

T = TypeVar("T")


def close_matches(
    value: object, allowed: list[str] | tuple[str, ...], n: int = 3, cutoff: float = 0.5
) -> list[str]:
    """Allowed names close to ``value``, ignoring case (so ``c`` suggests ``C``).

    Examples:
        >>> close_matches("strenghts", ["strengths", "seeds"])
        ['strengths']
    """
    lowered = {str(a).lower(): str(a) for a in allowed}
    exact = [lowered[str(value).lower()]] if str(value).lower() in lowered else []
    fuzzy = [
        lowered[m]
        for m in difflib.get_close_matches(str(value).lower(), list(lowered), n=n, cutoff=cutoff)
    ]
    return list(dict.fromkeys(exact + fuzzy))[:n]


class Registry(Generic[T]):
    """Maps names to components; string entries ``"pkg.module:Name"`` are imported lazily."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, T | str] = {}

    def add(self, name: str, entry: T | str) -> None:
        """Register ``entry`` (an object or a lazy ``"module:attribute"`` path) under ``name``."""
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self._entries[name] = entry

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def decorator(obj: T) -> T:
            self.add(name, obj)
            return obj

        return decorator

    def get(self, name: str) -> T:
        """Return the component called ``name``, importing it if it was registered lazily."""
        if name not in self._entries:
            raise UnknownComponentError(self.unknown_message(name))
        entry = self._entries[name]
        if isinstance(entry, str):
            module_name, _, attribute = entry.partition(":")
            entry = getattr(importlib.import_module(module_name), attribute)
            self._entries[name] = entry
        return entry  # type: ignore[return-value]

    def parameters(self, name: str) -> list[str]:
        """The keyword parameters of the named component's constructor."""
        return [p for p in inspect.signature(self.get(name).__init__).parameters if p != "self"]

    def create(
        self, name: str, params: Mapping[str, Any] | None = None, *, noun: str = "parameter"
    ) -> Any:
        """Instantiate ``name`` with ``params`` mapped 1:1 onto its constructor; unknown keys are errors."""
        allowed = self.parameters(name)
        unknown = sorted(set(params or {}) - set(allowed))
        if unknown:
            raise ConfigError(
                f"The {name} {self.kind} has no {noun} {', '.join(map(repr, unknown))}. "
                f"Its {noun}s are: {', '.join(allowed) or 'none'}."
            )
        return self.get(name)(**dict(params or {}))

    def unknown_message(self, name: str) -> str:
        known = self.names()
        close = close_matches(name, known)
        hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return f"Unknown {self.kind} {name!r}.{hint} Known {self.kind}s: {', '.join(known)}."

    def names(self) -> list[str]:
        return sorted(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self.names()!r})"


def check_choice(parameter: str, value: Any, allowed: list[str] | tuple[str, ...]) -> None:
    """Raise a ConfigError naming ``parameter`` when ``value`` is not one of ``allowed``."""
    if value not in allowed:
        close = close_matches(value, list(allowed), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ConfigError(
            f"The {parameter!r} parameter must be one of {', '.join(map(repr, allowed))}. "
            f"Got {value!r} instead.{hint}"
        )
