"""Run a documentation page's ``python`` blocks the way a reader would: in order, in one
namespace, in one folder (the page's files land there)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.doc_pages import fenced_blocks


def run_python_blocks(
    page: Path, folder: Path, *, watch: str = "result", env: dict[str, str] | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """The namespace after the last block, and the value of ``watch`` after each block."""
    namespace: dict[str, Any] = {}
    watched: list[Any] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        for key, value in (env or {}).items():
            patch.setenv(key, value)
        for lines in fenced_blocks(page.read_text(encoding="utf-8"), "python"):
            exec(compile("\n".join(lines), str(page), "exec"), namespace)  # noqa: S102 - the page's own examples
            watched.append(namespace.get(watch))
    return namespace, watched
