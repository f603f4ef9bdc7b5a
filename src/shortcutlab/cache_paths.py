"""Where shortcutlab keeps its caches (embeddings, LLM answers) unless told otherwise.

A neutral module with no shortcutlab imports, so ``models`` and ``llm`` share the location
without importing each other.
"""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """``$SHORTCUTLAB_CACHE`` when set, else ``~/.cache/shortcutlab``."""
    return Path(os.environ.get("SHORTCUTLAB_CACHE") or Path.home() / ".cache" / "shortcutlab")
