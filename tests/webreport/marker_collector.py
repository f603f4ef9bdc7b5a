"""A test collector: a folder holding ``marker.txt`` gives one section with the file's text."""

from __future__ import annotations

from pathlib import Path

from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Paragraphs, Section, Table

MARKER = "marker.txt"


def recognises(path: Path) -> bool:
    return (path / MARKER).is_file()


def sections(found: ReportInput) -> list[Section]:
    import pandas as pd

    text = (found.path / MARKER).read_text(encoding="utf-8")
    frame = pd.DataFrame({"value": [1.5]}, index=pd.Index(["x"], name="name"))
    return [
        Section(
            id="marker",
            title="Marker",
            blocks=[Paragraphs([text]), Table("values", "Values", frame)],
        )
    ]
