"""Read a notebook view (``_repr_html_``) back: its tables as rows of cell texts, its headings,
and every tag or attribute that would load something (for the no-external-resources checks)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pandas as pd

from shortcutlab.reports.tables import NOT_MEASURED, format_cell

# Tags that fetch or run something, and attributes that name something to fetch.
LOADING_TAGS = ("script", "link", "img", "iframe", "object", "embed", "video", "audio", "source")
LOADING_ATTRIBUTES = ("src", "href", "srcset", "data", "poster", "action")


@dataclass
class ViewTable:
    caption: str = ""
    rows: list[list[str]] = field(default_factory=list)  # every cell, headers included
    values: list[str] = field(default_factory=list)  # the data cells (td), row by row

    def column(self, header: str) -> dict[str, str]:
        """Row label (the first cell) -> the cell under ``header`` (one header row, one index)."""
        position = self.rows[0].index(header)
        return {row[0]: row[position] for row in self.rows[1:]}


class View(HTMLParser):
    """The tables (by figure id), the headings (h3) and what would load of a view."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, ViewTable] = {}
        self.headings: list[str] = []
        self.loading: list[str] = []
        self._table: ViewTable | None = None
        self._text: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag in LOADING_TAGS:
            self.loading.append(tag)
        self.loading += [f"{tag}[{name}]" for name in attributes if name in LOADING_ATTRIBUTES]
        if tag == "figure" and "table" in (attributes.get("class") or ""):
            self._table = self.tables.setdefault(str(attributes["id"]), ViewTable())
        elif tag == "tr" and self._table is not None:
            self._table.rows.append([])
        elif tag in ("td", "th", "figcaption", "h3"):
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        text = "".join(self._text or [])
        if tag == "figure":
            self._table = None
        elif tag in ("td", "th") and self._table is not None:
            self._table.rows[-1].append(text)
            if tag == "td":
                self._table.values.append(text)
        elif tag == "figcaption" and self._table is not None:
            self._table.caption = text
        elif tag == "h3":
            self.headings.append(text)
        if tag in ("td", "th", "figcaption", "h3"):
            self._text = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def assert_shows_tables(view: View, tables: list[Any]) -> None:
    """The view holds exactly these report ``Table`` blocks: each caption, and each value as the
    report prints it (``format_cell`` with the table's digits, NaN as —)."""
    assert set(view.tables) == {table.name for table in tables}
    for table in tables:
        shown = view.tables[table.name]
        assert shown.caption == table.title
        expected = [
            NOT_MEASURED if _missing(value) else format_cell(value, table.digits)
            for value in table.frame.to_numpy().ravel()
        ]
        assert shown.values == expected, table.title


def assert_csv_holds(csv_text: str, table: pd.DataFrame) -> None:
    """The CSV (``results --format csv``), read back, holds ``table``'s columns and values; a
    missing value (None, NaN or an empty text) is an empty field."""
    read_back = pd.read_csv(io.StringIO(csv_text))

    def plain(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.astype(object).where(frame.notna() & (frame != ""), None)

    pd.testing.assert_frame_equal(plain(read_back), plain(table), check_dtype=False)


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))
