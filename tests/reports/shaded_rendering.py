"""Render the shaded_rows block with the report's renderer and read the tokens back out of the
markup."""

from __future__ import annotations

from html.parser import HTMLParser

from shortcutlab.reports.html.document import ShadedRows
from shortcutlab.reports.html.render import render_block


def render_shaded(block: ShadedRows) -> str:
    return str(render_block(block))


class ShadedText(HTMLParser):
    """Per shaded row: its text (as the browser shows it) and its token spans' attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[dict] = []
        self.tags: list[str] = []
        self._in_text = False
        self._span: dict | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attributes = dict(attrs)
        if tag == "p" and attributes.get("class") == "shaded-text":
            self._in_text = True
            self.rows.append({"text": "", "spans": []})
        elif tag == "span" and self._in_text:
            self._span = attributes | {"text": ""}
            self.rows[-1]["spans"].append(self._span)

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_text = False
        elif tag == "span":
            self._span = None

    def handle_data(self, data):
        if self._in_text:
            self.rows[-1]["text"] += data
            if self._span is not None:
                self._span["text"] += data


def parse_shaded(markup: str) -> ShadedText:
    parser = ShadedText()
    parser.feed(markup)
    return parser
