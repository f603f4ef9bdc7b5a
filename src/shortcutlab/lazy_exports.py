"""A package's public names loaded on first use (PEP 562), so that importing the package, or one
light module of it, does not import the heavy libraries its other modules need.

    >>> import shortcutlab.metrics
    >>> shortcutlab.metrics.macro_f1.__module__
    'shortcutlab.metrics.classification'
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, modules: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: each name of ``modules`` (name -> the
    module defining it) is imported on first access, then kept in the package's namespace."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        if name in modules:
            value = getattr(importlib.import_module(modules[name]), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(modules))

    return __getattr__, __dir__


class _KeepsItsNames(types.ModuleType):
    """A package whose lazy public names win over its subpackages of the same name (see
    :func:`keep_public_names`)."""

    _public: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._public and isinstance(value, types.ModuleType):
            return  # the import system binding the subpackage: the public name stays
        super().__setattr__(name, value)


def keep_public_names(package: str, names: Mapping[str, str]) -> None:
    """Keep ``package.NAME`` the public function where a subpackage has the same name
    (``shortcutlab.check`` the function and ``shortcutlab.check`` the package): importing the
    subpackage makes the import system set the parent's attribute to the module, so
    ``sl.check(...)`` would say "module is not callable" once anything had imported it. The
    subpackage stays importable by its dotted name (``from shortcutlab.check.suite import ...``:
    the import system reads ``sys.modules``); only ``import shortcutlab.check.suite as s``, which
    walks the attributes, is refused.

        >>> import shortcutlab, shortcutlab.check.suite, shortcutlab.explain.shap_text
        >>> callable(shortcutlab.check), callable(shortcutlab.explain)
        (True, True)
    """
    module = sys.modules[package]
    subpackages = {found.name for found in pkgutil.iter_modules(module.__path__)} & set(names)
    module.__class__ = type(
        "Package", (_KeepsItsNames,), {"_public": frozenset(subpackages), "__slots__": ()}
    )
