"""The terminal output of ``audit --fix``: a table per repaired candidate, its notes and the
recommendation (the same tables as the report's "Repairs" section)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console

from shortcutlab.cli.output import Section, show
from shortcutlab.families.audit.report.repair import fix_frame, fix_notes, fix_title


def print_fix(console: Console, fix: Mapping[str, Any], *, fmt: str = "table") -> None:
    """Each candidate's table under its title, then its notes and recommendation."""
    targets = fix.get("targets") or []
    if not targets:
        console.print(
            "\nNo candidate to repair: the model relies on none the audit could test, and none "
            "was named with --candidate.",
            markup=False,
        )
        return
    sections = [
        Section(fix_frame(target), title=fix_title(target), notes=fix_notes(fix, target))
        for target in targets
    ]
    show(fmt, sections, console=console)
