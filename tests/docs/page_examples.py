"""Run a documentation page's ``python`` blocks the way a reader would: in order, in one
namespace, in one folder (the page's files land there)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from shortcutlab.registry import user_entries
from tools.doc_pages import fenced_blocks


def run_python_blocks(
    page: Path, folder: Path, *, watch: str = "result", env: dict[str, str] | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """The namespace after the last block, and the value of ``watch`` after each block. What the
    page registers (``sl.MODELS.add``) is forgotten afterwards: a registry is per process, and a
    later test on this worker (a grid with ``jobs=2``) would carry the page's class to workers."""
    namespace: dict[str, Any] = {}
    watched: list[Any] = []
    before = {(found.registry, found.name) for found in user_entries()}
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(folder)
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            for lines in fenced_blocks(page.read_text(encoding="utf-8"), "python"):
                exec(compile("\n".join(lines), str(page), "exec"), namespace)  # noqa: S102 - the page's own examples
                watched.append(namespace.get(watch))
    finally:
        for found in user_entries():
            if (found.registry, found.name) not in before:
                module, _, attribute = found.registry.partition(":")
                getattr(importlib.import_module(module), attribute).remove(found.name)
    return namespace, watched
