"""A small registry of named components (shortcuts, models, families, ...) with lazy entries.

Entries are either objects or ``"module:attribute"`` strings imported on first use, so heavy
backends (torch, transformers) cost nothing until asked for. Unknown names answer with the close
matches and the full list. Each entry may declare *capabilities* (reads pairs, needs torch, ...):
facts about the component stated once, on its registry line, and readable without importing it
(like scikit-learn's estimator tags). A registry names the capabilities it knows and their
defaults, so a misspelt one is refused where it is declared.

Examples:
    >>> colours = Registry("colour")
    >>> colours.add("red", 1)
    >>> colours.get("red")
    1
    >>> colours.get("rde")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.UnknownComponentError: Unknown colour 'rde'. Did you mean 'red'? Known colours: red.
    >>> paints = Registry("paint", capabilities={"glossy": False})
    >>> paints.add("enamel", "enamel-entry", glossy=True)
    >>> paints.add("chalk", "chalk-entry")
    >>> paints.having("glossy"), paints.capabilities("chalk")
    (['enamel'], {'glossy': False})
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from shortcutlab.errors import ConfigError, UnknownComponentError, listed
from shortcutlab.params import close_matches, quoted

T = TypeVar("T")
REQUIRED = "(required)"  # the default shown for a parameter that has none
_ARGS_HEADERS = ("Args:", "Arguments:", "Parameters:")
_ARG_ENTRY = re.compile(r"\*{0,2}(\w+)\s*(?:\([^)]*\))?:\s*(.*)")


def docstring_args(doc: str | None) -> dict[str, str]:
    r"""The entries of a Google-style ``Args:`` section: name -> description, wrapped lines joined.

    The section ends at the first line indented no deeper than its header (the next section).

    Examples:
        >>> docstring_args("Summary.\n\nArgs:\n    rate: Share kept,\n        in (0, 1).\n"
        ...                "    seed (int): Random seed.\n\nExamples:\n    >>> 1\n")
        {'rate': 'Share kept, in (0, 1).', 'seed': 'Random seed.'}
    """
    entries: dict[str, str] = {}
    header_depth: int | None = None
    entry_depth: int | None = None
    current = None
    for line in inspect.cleandoc(doc or "").splitlines():
        depth = len(line) - len(line.lstrip())
        if not line.strip():
            continue
        if header_depth is None:
            header_depth = depth if line.strip() in _ARGS_HEADERS else None
            continue
        if depth <= header_depth:
            break
        entry_depth = depth if entry_depth is None else entry_depth
        found = _ARG_ENTRY.fullmatch(line.strip())
        if depth == entry_depth and found:
            current = found[1]
            entries[current] = found[2].strip()
        elif current is not None:
            entries[current] = f"{entries[current]} {line.strip()}".strip()
    return entries


class Registry(Generic[T]):
    """Maps names to components; string entries ``"pkg.module:Name"`` are imported lazily."""

    def __init__(self, kind: str, *, capabilities: Mapping[str, Any] | None = None) -> None:
        self.kind = kind
        self._entries: dict[str, T | str] = {}
        self._defaults: dict[str, Any] = dict(capabilities or {})
        self._capabilities: dict[str, dict[str, Any]] = {}

    def add(self, name: str, entry: T | str, **capabilities: Any) -> None:
        """Register ``entry`` (an object or a lazy ``"module:attribute"`` path) under ``name``,
        with the ``capabilities`` that differ from the registry's defaults."""
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        unknown = sorted(set(capabilities) - set(self._defaults))
        if unknown:
            raise ValueError(
                f"{self.kind} {name!r} declares unknown capabilities {', '.join(unknown)}; "
                f"a {self.kind} has: {', '.join(sorted(self._defaults)) or 'none'}"
            )
        self._entries[name] = entry
        self._capabilities[name] = {**self._defaults, **capabilities}

    def remove(self, name: str) -> None:
        """Forget ``name`` (a component a test registered for itself)."""
        self._entries.pop(name, None)
        self._capabilities.pop(name, None)

    def capabilities(self, name: str) -> dict[str, Any]:
        """What ``name`` declared on its registry line (defaults filled in); imports nothing."""
        if name not in self._entries:
            raise UnknownComponentError(self.unknown_message(name))
        return dict(self._capabilities[name])

    def having(self, capability: str, value: Any = True) -> list[str]:
        """The names whose ``capability`` equals ``value``, sorted; imports nothing."""
        if capability not in self._defaults:
            raise ValueError(f"A {self.kind} has no capability {capability!r}.")
        return [n for n in self.names() if self._capabilities[n][capability] == value]

    def matching(self, requirements: Mapping[str, Any]) -> list[str]:
        """The names whose capabilities meet every requirement, sorted; imports nothing.

        A requirement is a capability and the value it must have, or a set of the values it may
        have; no requirements match every name.

        Examples:
            >>> paints = Registry("paint", capabilities={"glossy": False, "base": "oil"})
            >>> paints.add("enamel", "e", glossy=True)
            >>> paints.add("gouache", "g", base="water")
            >>> paints.matching({"glossy": False, "base": {"oil", "water"}}), paints.matching({})
            (['gouache'], ['enamel', 'gouache'])
        """
        unknown = sorted(set(requirements) - set(self._defaults))
        if unknown:
            raise ValueError(f"A {self.kind} has no capability {', '.join(map(repr, unknown))}.")

        def meets(value: Any, wanted: Any) -> bool:
            return value in wanted if isinstance(wanted, set | frozenset) else value == wanted

        return [
            name
            for name in self.names()
            if all(meets(self._capabilities[name][c], w) for c, w in requirements.items())
        ]

    def register(self, name: str, **capabilities: Any) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def decorator(obj: T) -> T:
            self.add(name, obj, **capabilities)
            return obj

        return decorator

    def get(self, name: str) -> T:
        """Return the component called ``name``, importing it if it was registered lazily."""
        if name not in self._entries:
            raise UnknownComponentError(self.unknown_message(name))
        entry = self._entries[name]
        if isinstance(entry, str):  # "module:attribute", or "module" for a module itself
            module_name, _, attribute = entry.partition(":")
            module = importlib.import_module(module_name)
            entry = getattr(module, attribute) if attribute else module
            self._entries[name] = entry
        return entry  # type: ignore[return-value]

    def parameters(self, name: str) -> list[str]:
        """The keyword parameters of the named component's constructor."""
        return [p for p in inspect.signature(self.get(name).__init__).parameters if p != "self"]

    def defaults(self, name: str) -> dict[str, Any]:
        """Each named keyword parameter of the component's constructor and its default
        (:data:`REQUIRED` where it has none); ``*args``/``**kwargs`` are not options."""
        variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        return {
            p.name: REQUIRED if p.default is inspect.Parameter.empty else p.default
            for p in inspect.signature(self.get(name).__init__).parameters.values()
            if p.name != "self" and p.kind not in variadic
        }

    def option_help(self, name: str) -> dict[str, str]:
        """Each option of :meth:`defaults` and its description ("" where none is written).

        A description is the option's entry in the ``Args:`` section of a class docstring: the
        component's own or, for an inherited constructor, that of the first class in the method
        resolution order whose own docstring has an entry for it (a base class describes the
        options its constructor defines once, for every subclass).

        Examples:
            >>> class Base:
            ...     '''A base.
            ...
            ...     Args:
            ...         rate: Share kept.
            ...     '''
            ...     def __init__(self, rate=0.5, seed=0): ...
            >>> class Child(Base):
            ...     '''A child.'''
            >>> things = Registry("thing")
            >>> things.add("child", Child)
            >>> things.option_help("child")
            {'rate': 'Share kept.', 'seed': ''}
        """
        component = self.get(name)
        if inspect.isclass(component):  # each class's own docstring, not an inherited one
            docs = [vars(owner).get("__doc__") for owner in inspect.getmro(component)]
        else:
            docs = [getattr(component, "__doc__", None)]
        sections = [docstring_args(doc) for doc in docs]
        return {
            option: next((s[option] for s in sections if s.get(option)), "")
            for option in self.defaults(name)
        }

    def summary(self, name: str) -> str:
        """The first sentence of the component's docstring ("" without one)."""
        text = " ".join((inspect.getdoc(self.get(name)) or "").split("\n\n")[0].split())
        return text.split(". ")[0].rstrip(".") + "." if text else ""

    def create(
        self, name: str, params: Mapping[str, Any] | None = None, *, noun: str = "parameter"
    ) -> Any:
        """Instantiate ``name`` with ``params`` mapped 1:1 onto its constructor; unknown keys are errors."""
        allowed = self.parameters(name)
        unknown = sorted(set(params or {}) - set(allowed))
        if unknown:
            raise ConfigError(
                f"The {name} {self.kind} has no {noun} {listed(unknown, show=repr)}. "
                f"Its {noun}s are: {', '.join(allowed) or 'none'}."
            )
        return self.get(name)(**dict(params or {}))

    def unknown_message(self, name: str) -> str:
        known = self.names()
        close = close_matches(name, known)
        hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return f"Unknown {self.kind} {quoted(name)}.{hint} Known {self.kind}s: {', '.join(known)}."

    def names(self) -> list[str]:
        return sorted(self._entries)

    def registration_order(self) -> list[str]:
        """The names in the order they were registered (where order means something: the
        sections of a report page)."""
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self.names()!r})"
