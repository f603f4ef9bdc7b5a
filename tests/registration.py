"""Components registered by a test for a ``with`` block: the registry line is added on entry and
removed on exit, so no other test sees the component."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from shortcutlab.registry import Registry


@contextmanager
def registered_for(
    registry: Registry[Any], name: str, entry: Any, **capabilities: Any
) -> Iterator[str]:
    """``registry.add(name, entry, **capabilities)`` inside the block; ``name`` is yielded."""
    registry.add(name, entry, **capabilities)
    try:
        yield name
    finally:
        registry.remove(name)
