"""Render a :class:`~shortcutlab.reports.html.document.Report` into one self-contained HTML page.

Templates are files in this package (``templates/page.html.j2`` and one
``templates/blocks/<snake_case block class>.html.j2`` per block type, except tables, whose markup
:mod:`shortcutlab.html_table` holds for the notebook views too); every ``static/*.css`` and
``static/*.js`` is inlined in sorted order, so a page needs no network and opens offline.
Autoescape is on: data never becomes markup, except :attr:`Figure.svg`, which our own code made.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from markupsafe import Markup

from shortcutlab.data.writing import write_text_atomically
from shortcutlab.html_table import jinja_environment, table_block_html
from shortcutlab.reports.html.document import Figure, Report, Table
from shortcutlab.reports.html.svg import scoped_ids

# No network at all: a stray fetch (font, image, CDN) becomes a console error in the browser.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
)


def render_report(report: Report) -> str:
    """The page's HTML text; the same report gives the same text."""
    page = _environment().get_template("page.html.j2")
    return (
        page.render(
            report=report, styles=_static("css"), scripts=_static("js"), csp=CONTENT_SECURITY_POLICY
        )
        + "\n"
    )


def write_report_html(report: Report, path: str | Path) -> Path:
    """Write the page to ``path`` atomically (a temporary file beside it, then a rename)."""
    return write_text_atomically(path, render_report(report))


def block_template(block: Any) -> str:
    """``blocks/<snake_case class name>.html.j2`` (``RowExplorer`` -> ``row_explorer``)."""
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", type(block).__name__).lower()
    return f"blocks/{name}.html.j2"


def _as_data(value: Any) -> Any:
    """A block as JSON values: what ``dataclasses.asdict`` gives, without its deep copy of every
    leaf, which cost a 1,000-cell report most of a second (tuples become lists, as in JSON)."""
    kind = type(value)
    if kind in _LEAVES:  # most of an explorer's ~120,000 values: answered without a lookup
        return value
    if dataclasses.is_dataclass(kind):  # an instance (a dataclass type itself has type ``type``)
        return {name: _as_data(getattr(value, name)) for name in _field_names(kind)}
    if isinstance(value, list | tuple):
        return [_as_data(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_data(item) for key, item in value.items()}
    return value


_LEAVES = frozenset({str, int, float, bool, type(None)})


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


def render_block(block: Any) -> Markup:
    """One block's markup, as the page renders it."""
    if isinstance(block, Table):  # the table markup the notebook views share
        table = table_block_html(block.name, block.title, block.frame, block.notes, block.digits)
        if not block.collapsed:
            return table
        return Markup('<details class="block folded">\n<summary>{}</summary>\n{}</details>').format(
            block.collapsed, table
        )
    template = _environment().get_template(block_template(block))
    context: dict[str, Any] = {"block": block}
    if isinstance(block, Figure):  # the block's name is unique on the page; its SVG ids become so
        context["block"] = dataclasses.replace(block, svg=scoped_ids(block.svg, block.name))
    return Markup(template.render(**context))


def _static(suffix: str) -> list[Markup]:
    """Every ``static/*.<suffix>`` file's text, in sorted name order (ours: trusted markup)."""
    folder = resources.files("shortcutlab.reports.html") / "static"
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(f".{suffix}"))
    return [Markup((folder / name).read_text(encoding="utf-8")) for name in names]


@lru_cache(maxsize=1)
def _environment() -> Any:
    from jinja2 import PackageLoader

    environment = jinja_environment(loader=PackageLoader("shortcutlab.reports.html"))
    environment.globals.update(
        as_data=_as_data, render_block=render_block, block_template=block_template
    )
    return environment
