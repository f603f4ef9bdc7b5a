"""The report's annotation sections: a task folder's exported summary (``summary.json``, written
by ``shortcutlab annotate export``) as Facts, Table blocks and the summary's notes.

A task folder recognised but without a readable summary gives a paragraph saying how to export
it, never an error (the collector protocol of :mod:`shortcutlab.webreport.inputs`).
"""

from __future__ import annotations

import json
from pathlib import Path

from shortcutlab.annotate.export_files import MARKER, SUMMARY_JSON
from shortcutlab.errors import DataError
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Paragraphs, Section, Table

KIND = "annotations"


def recognises(path: Path) -> bool:
    """A folder whose summary.json an annotation export wrote."""
    summary = Path(path) / SUMMARY_JSON
    if not summary.is_file():
        return False
    try:
        return json.loads(summary.read_text(encoding="utf-8")).get("format") == MARKER
    except (OSError, ValueError, AttributeError):
        return False


def sections(found: ReportInput) -> list[Section]:
    from shortcutlab.annotate.export import load_summary  # scipy, scikit-learn: on use only

    section_id = f"annotations-{found.path.name}"
    try:
        summary = load_summary(found.path)
    except DataError as exc:
        return [Section(id=section_id, title="Annotations", blocks=[Paragraphs(texts=[str(exc)])])]
    facts = Facts(
        title="Task",
        items=[("kind", summary.kind), ("source", summary.source)] + _facts(summary.facts),
    )
    blocks: list = [facts]
    for name, (title, frame) in summary.tables.items():
        blocks.append(Table(name=f"{section_id}-{name}", title=title, frame=frame))
    if summary.notes:
        blocks.append(Paragraphs(texts=list(summary.notes)))
    return [Section(id=section_id, title=summary.title, blocks=blocks)]


def _facts(facts: dict[str, object]) -> list[tuple[str, str]]:
    """One line per plain fact; a mapping of records (e.g. the sampled builds) one line each."""
    lines = []
    for key, value in facts.items():
        if isinstance(value, dict):
            lines += [(f"{key}: {name}", _fact(record)) for name, record in value.items()]
        else:
            lines.append((key, _fact(value)))
    return lines


def _fact(value: object) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k} {_fact(v)}" for k, v in value.items())
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


__all__ = ["KIND", "recognises", "sections"]
