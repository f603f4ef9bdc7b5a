"""A small registry of named components (shortcuts, models, families, ...) with lazy entries.

Entries are either objects or ``"module:attribute"`` strings imported on first use, so heavy
backends (torch, transformers) cost nothing until asked for. Unknown names answer with the close
matches and the full list. Each entry may declare *capabilities* (reads pairs, needs torch, ...):
facts about the component stated once, on its registry line, and readable without importing it
(like scikit-learn's estimator tags). A registry names the capabilities it knows and their
defaults, so a misspelt one is refused where it is declared.

Registering the same target again under its name (a notebook re-running its registration cell,
even one that re-defines the class) replaces the entry; another target under a taken name is
refused. Entries added by code outside shortcutlab (a user's script) are *user entries*:
:func:`user_entries` lists them, so that worker processes can add them again
(:func:`add_user_entries`), since a spawned process starts with shortcutlab's own lines only.

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
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from shortcutlab.errors import ConfigError, UnknownComponentError, listed
from shortcutlab.params import did_you_mean, quoted

T = TypeVar("T")
REQUIRED = "(required)"  # the default shown for a parameter that has none
_ARGS_HEADERS = ("Args:", "Arguments:", "Parameters:")
_ARG_ENTRY = re.compile(r"\*{0,2}(\w+)\s*(?:\([^)]*\))?:\s*(.*)")
# reST's inline markup in a docstring: ``literal`` and :role:`target` (~ shows the last name).
_LITERAL = re.compile(r"``(.+?)``")
_ROLE = re.compile(r":\w+:`~?(?:[\w.]+\.)?([^`.]+)`")
_PACKAGE = __name__.partition(".")[0]


def plain_text(text: str) -> str:
    """A docstring's words as a reader sees them, without reST's inline markup.

    Examples:
        >>> plain_text("The features of ``tfidf-logreg`` in a :class:`~sklearn.svm.LinearSVC`.")
        'The features of tfidf-logreg in a LinearSVC.'
    """
    return _ROLE.sub(r"\1", _LITERAL.sub(r"\1", text))


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

    def __init__(
        self,
        kind: str,
        *,
        capabilities: Mapping[str, Any] | None = None,
        plural: str | None = None,
    ) -> None:
        self.kind = kind
        self.plural = plural or kind + "s"  # "families", not "familys"
        self._entries: dict[str, T | str] = {}
        self._defaults: dict[str, Any] = dict(capabilities or {})
        self._capabilities: dict[str, dict[str, Any]] = {}
        self._targets: dict[str, str | None] = {}  # what each name was registered as
        self._user_names: set[str] = set()  # the names code outside shortcutlab added
        self._home: str | None = sys._getframe(1).f_globals.get("__name__")  # where it lives

    def add(self, name: str, entry: T | str, **capabilities: Any) -> None:
        """Register ``entry`` (an object or a lazy ``"module:attribute"`` path) under ``name``,
        with the ``capabilities`` that differ from the registry's defaults. The same target
        again (the same object or path, or a class re-defined with the same module and name)
        replaces the entry: the newest registration wins."""
        self._put(name, entry, capabilities, user=_added_outside_package())

    def _put(
        self, name: str, entry: T | str, capabilities: Mapping[str, Any], *, user: bool
    ) -> None:
        unknown = sorted(set(capabilities) - set(self._defaults))
        if unknown:
            raise ValueError(
                f"{self.kind} {name!r} declares unknown capabilities {', '.join(unknown)}; "
                f"a {self.kind} has: {', '.join(sorted(self._defaults)) or 'none'}"
            )
        if name in self._entries:
            registered = self._entries[name]
            if not self._same_target(name, entry):
                raise ConfigError(
                    f"The {self.kind} {name!r} is registered twice: as {_shown(registered)}, "
                    f"then as {_shown(entry)}. Register the second under another name."
                )
            if isinstance(entry, str) and not isinstance(registered, str):
                entry = registered  # already imported: the path names this very object
        self._entries[name] = entry
        self._capabilities[name] = {**self._defaults, **capabilities}
        self._targets.setdefault(name, _target(entry))
        if user:
            self._user_names.add(name)
            _WITH_USER_ENTRIES.add(self)
        else:
            self._user_names.discard(name)

    def _same_target(self, name: str, entry: Any) -> bool:
        """Whether ``entry`` stands for what ``name`` was registered as."""
        registered = self._entries[name]
        target = _target(entry)
        return entry is registered or (
            target is not None and target in (self._targets[name], _target(registered))
        )

    def remove(self, name: str) -> None:
        """Forget ``name`` (a component a test registered for itself)."""
        self._entries.pop(name, None)
        self._capabilities.pop(name, None)
        self._targets.pop(name, None)
        self._user_names.discard(name)

    def location(self) -> str | None:
        """``"module:attribute"`` of this registry, where a fresh process finds it (None for one
        that no module holds, as a registry made inside a function)."""
        module = sys.modules.get(self._home or "")
        found = [attr for attr, value in vars(module).items() if value is self] if module else []
        return f"{self._home}:{found[0]}" if found else None

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
        """Each option of :meth:`defaults` and its description, as plain text ("" where none is
        written).

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
            option: plain_text(next((s[option] for s in sections if s.get(option)), ""))
            for option in self.defaults(name)
        }

    def summary(self, name: str) -> str:
        """The first sentence of the component's docstring, as plain text ("" without one)."""
        text = plain_text(" ".join((inspect.getdoc(self.get(name)) or "").split("\n\n")[0].split()))
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
        hint = did_you_mean(name, known, n=3)
        return f"Unknown {self.kind} {quoted(name)}.{hint} Known {self.plural}: {', '.join(known)}."

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


def _target(entry: Any) -> str | None:
    """What an entry stands for: a lazy path as written, a module by its name, a class or
    function by where it is defined ("module:qualified name", so that a notebook cell's
    re-definition names the same target); None for any other object."""
    if isinstance(entry, str):
        return entry
    if inspect.ismodule(entry):
        return entry.__name__
    module, qualname = getattr(entry, "__module__", None), getattr(entry, "__qualname__", None)
    return f"{module}:{qualname}" if isinstance(module, str) and isinstance(qualname, str) else None


def _shown(entry: Any) -> str:
    """An entry as a one-line message names it."""
    return _target(entry) or f"a {type(entry).__name__} object"


def _added_outside_package() -> bool:
    """Whether the code that called :meth:`Registry.add` lies outside shortcutlab (a user's
    script, notebook or plugin): shortcutlab's own lines are added by importing it, anywhere."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back  # add() and the register() decorator
    module = "" if frame is None else str(frame.f_globals.get("__name__", ""))
    return not (module == _PACKAGE or module.startswith(_PACKAGE + "."))


# The registries holding user entries (weakly: a registry a test made for itself may go).
_WITH_USER_ENTRIES: weakref.WeakSet[Registry[Any]] = weakref.WeakSet()


@dataclass(frozen=True)
class UserEntry:
    """An entry code outside shortcutlab added, and where a worker process adds it again."""

    registry: str  # "module:attribute" of the registry
    kind: str
    name: str
    entry: Any
    capabilities: dict[str, Any]


def user_entries() -> list[UserEntry]:
    """Every user entry of a registry that a module holds (a registry made inside a function
    is out of a worker's reach, and so is no concern of it), in registration order."""
    found = []
    for registry in list(_WITH_USER_ENTRIES):
        location = registry.location()
        for name in registry.registration_order() if location else ():
            if name in registry._user_names:
                entry, capabilities = registry._entries[name], registry._capabilities[name]
                found.append(UserEntry(location, registry.kind, name, entry, capabilities))
    return found


def add_user_entries(entries: Iterable[UserEntry]) -> None:
    """Add ``entries`` (from :func:`user_entries` in another process) to this process's
    registries, as user entries again."""
    for found in entries:
        module, _, attribute = found.registry.partition(":")
        registry = getattr(importlib.import_module(module), attribute)
        registry._put(found.name, found.entry, found.capabilities, user=True)
