"""The rewriter contract: texts -> the same texts in a target style (Shortcut Maze, 2.2.2).

A style shortcut asks its rewriter for every row of an input table in both of its styles; a
``None`` (or empty) rewrite marks a row whose rewrite failed, which the shortcut's ``on_failed``
policy then handles.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from shortcutlab.data.loading import LoadedTable
from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted

# Shortcut Maze register (formal/casual) and author (Shakespeare/Hemingway) styles; Shortcut Suite
# (section 4.1) Bible style, set against the original text.
STYLES = ("formal", "casual", "shakespeare", "hemingway", "bible", "original")
ORIGINAL = "original"


class Rewriter(ABC):
    """Base of every rewriter. Constructors only store their keyword options."""

    name: ClassVar[str]

    @abstractmethod
    def supported_styles(self) -> tuple[str, ...]:
        """The styles this rewriter can produce with its current options."""

    def supports(self, style: str) -> bool:
        return style in self.supported_styles()

    def check_supports(self, style: str, shortcut: str | None = None) -> None:
        """Raise a one-line ConfigError when ``style`` (needed by ``shortcut``) is not supported."""
        if not self.supports(style):
            needed_by = f" of the {shortcut} shortcut" if shortcut else ""
            raise ConfigError(
                f"The {self.name} rewriter does not support the style {quoted(style)}{needed_by}; "
                f"it supports: {', '.join(self.supported_styles()) or 'none'}."
                f"{self.unsupported_hint(style)}"
            )

    def unsupported_hint(self, style: str) -> str:
        """A sentence appended to the unsupported-style error saying how to add ``style``."""
        return ""

    def attach(self, table: LoadedTable, *, role: str) -> None:  # noqa: B027 - optional hook
        """See the input table of ``role`` before its rows are rewritten (e.g. to check alignment)."""

    @abstractmethod
    def rewrite(
        self, texts: Sequence[str], style: str, *, role: str, row_ids: Sequence[int] | np.ndarray
    ) -> list[str | None]:
        """Return ``texts`` in ``style``, one per text; None where the rewrite failed."""

    def provenance(self, style: str, role: str) -> dict[str, Any] | None:
        """Where the ``style`` rewrites of ``role`` came from, for the manifest (None: nothing)."""
        return None
