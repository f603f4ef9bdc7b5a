"""A package's public names loaded on first use (PEP 562), so that importing the package, or one
light module of it, does not import the heavy libraries its other modules need.

    >>> import shortcutlab.metrics
    >>> shortcutlab.metrics.macro_f1.__module__
    'shortcutlab.metrics.classification'
"""

from __future__ import annotations

import importlib
import sys
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
