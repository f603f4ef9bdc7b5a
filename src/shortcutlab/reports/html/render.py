"""Render a :class:`~shortcutlab.reports.html.document.Report` into one self-contained HTML page.

Templates are files in this package (``templates/page.html.j2`` and one
``templates/blocks/<snake_case block class>.html.j2`` per block type); every ``static/*.css`` and
``static/*.js`` is inlined in sorted order, so a page needs no network and opens offline.
Autoescape is on: data never becomes markup, except :attr:`Figure.svg`, which our own code made.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd
from markupsafe import Markup

from shortcutlab.data.writing import follow_umask
from shortcutlab.errors import OutputExistsError, naming_path
from shortcutlab.reports.html.document import Figure, Report, Table
from shortcutlab.reports.html.svg import scoped_ids
from shortcutlab.reports.tables import NOT_MEASURED, format_cell

# No network at all: a stray fetch (font, image, CDN) becomes a console error in the browser.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
)


@dataclass
class Cell:
    """One ``<th>``/``<td>`` of a rendered table."""

    text: str
    header: bool = False
    rowspan: int = 1
    colspan: int = 1
    numeric: bool = False


@dataclass
class TableLayout:
    """A DataFrame as header rows and body rows of cells, spans merged (MultiIndex levels)."""

    head: list[list[Cell]]
    body: list[list[Cell]]
    group_starts: list[bool]  # body rows that begin a new top-level index group (a rule above)

    @property
    def sortable(self) -> bool:
        """Rows can be reordered (static/tables.js) only when no cell spans several of them."""
        return len(self.head) == 1 and all(cell.rowspan == 1 for row in self.body for cell in row)


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
    path = Path(path)
    text = render_report(report)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".partial", dir=path.parent
        )
    except OSError as error:
        raise OutputExistsError(
            f"Cannot write the report to '{path}': {error.strerror}. Choose a writable --out."
        ) from None
    try:
        with naming_path(path), os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        follow_umask(Path(temporary))  # a report is meant to be shared, not private like mkstemp's
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def block_template(block: Any) -> str:
    """``blocks/<snake_case class name>.html.j2`` (``RowExplorer`` -> ``row_explorer``)."""
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", type(block).__name__).lower()
    return f"blocks/{name}.html.j2"


def table_layout(table: Table) -> TableLayout:
    """Header rows (column levels, colspans) and body rows (index levels, rowspans; NaN as —)."""
    frame = table.frame
    index_names = [str(name) if name is not None else "" for name in frame.index.names]
    n_index, n_levels = len(index_names), frame.columns.nlevels
    # A named single column level (Table 9's λ) gets a spanning row of its own above the values.
    named = n_levels == 1 and frame.columns.name is not None
    head: list[list[Cell]] = []
    if named:
        head.append(
            [Cell(name, header=True, rowspan=2) for name in index_names]
            + [Cell(str(frame.columns.name), header=True, colspan=frame.shape[1], numeric=True)]
        )
    for level in range(n_levels):
        row = (
            [Cell(name, header=True, rowspan=n_levels) for name in index_names]
            if level == 0 and not named
            else []
        )
        labels = [_column_keys(column)[: level + 1] for column in frame.columns]
        for keys, width in _runs(labels):
            row.append(Cell(_label(keys[-1]), header=True, colspan=width, numeric=True))
        head.append(row)
    keys_by_row = [key if isinstance(key, tuple) else (key,) for key in frame.index]
    body: list[list[Cell]] = [[] for _ in keys_by_row]
    for level in range(n_index):
        prefixes = [keys[: level + 1] for keys in keys_by_row]
        # The last level is shown on every row; outer levels merge while their prefix repeats.
        if level == n_index - 1:
            for position, keys in enumerate(keys_by_row):
                body[position].append(Cell(str(keys[level]), header=True))
            continue
        position = 0
        for keys, height in _runs(prefixes):
            body[position].append(Cell(str(keys[-1]), header=True, rowspan=height))
            position += height
    for position in range(len(frame)):
        for column in range(frame.shape[1]):
            body[position].append(
                Cell(_value(frame.iat[position, column], table.digits), numeric=True)
            )
    starts = [
        position > 0 and n_index > 1 and keys_by_row[position][:1] != keys_by_row[position - 1][:1]
        for position in range(len(keys_by_row))
    ]
    return TableLayout(head=head, body=body, group_starts=starts)


def _column_keys(column: Any) -> tuple[Any, ...]:
    return column if isinstance(column, tuple) else (column,)


def _runs(keys: list[tuple[Any, ...]]) -> list[tuple[tuple[Any, ...], int]]:
    """Consecutive equal keys as (key, how many)."""
    runs: list[tuple[tuple[Any, ...], int]] = []
    for key in keys:
        if runs and runs[-1][0] == key:
            runs[-1] = (key, runs[-1][1] + 1)
        else:
            runs.append((key, 1))
    return runs


def _label(value: Any) -> str:
    return format_cell(value, 1) if isinstance(value, float) else str(value)


def _value(value: Any, digits: int) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return NOT_MEASURED
    return format_cell(value, digits)


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
    template = _environment().get_template(block_template(block))
    context: dict[str, Any] = {"block": block}
    if isinstance(block, Table):
        context["layout"] = table_layout(block)
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
    from jinja2 import Environment, PackageLoader, StrictUndefined

    environment = Environment(
        loader=PackageLoader("shortcutlab.reports.html"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.globals.update(
        as_data=_as_data, render_block=render_block, block_template=block_template
    )
    return environment
