"""One table as HTML, and the notebook view built of such tables: the markup the HTML report
and the ``_repr_html_`` of a benchmark, run results and an audit share.

It sits below ``data`` (a :class:`~shortcutlab.data.benchmark.Benchmark` shows itself with it),
so it knows no report block: the report's ``Table`` block hands its fields here. Every text from
data is escaped (Jinja2 autoescape); a view loads nothing from the network: no script, no link,
no image, only a ``<style>`` scoped to the view.

Examples:
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"rows": [3]}, index=pd.Index(["<b>test</b>"], name="split"))
    >>> "&lt;b&gt;test&lt;/b&gt;" in table_block_html("splits", "Splits", frame)
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
from markupsafe import Markup

NOT_MEASURED = "—"  # VAR(Δ) where nothing varied between seeds: not a measured 0

# The report's table block (templates/blocks/table.html.j2 before it moved here), kept in the
# module so that the layers below the report need no package data to show a table.
TABLE_TEMPLATE = """\
<figure class="block table" id="{{ name }}" data-name="{{ name }}">
<figcaption>{{ title }}</figcaption>
<div class="table-scroll">
<table{% if layout.sortable %} data-sortable{% endif %}>
<thead>
{% for row in layout.head %}
<tr>
{% for cell in row %}
<th scope="col"{% if cell.colspan > 1 %} colspan="{{ cell.colspan }}"{% endif %}\
{% if cell.rowspan > 1 %} rowspan="{{ cell.rowspan }}"{% endif %}\
{% if cell.numeric %} class="num"{% endif %}>{{ cell.text }}</th>
{% endfor %}
</tr>
{% endfor %}
</thead>
<tbody>
{% for row in layout.body %}
<tr{% if layout.group_starts[loop.index0] %} class="group-start"{% endif %}>
{% for cell in row %}
{% if cell.header %}
<th scope="row"{% if cell.rowspan > 1 %} rowspan="{{ cell.rowspan }}"{% endif %}>{{ cell.text }}</th>
{% else %}
<td class="num">{{ cell.text }}</td>
{% endif %}
{% endfor %}
</tr>
{% endfor %}
</tbody>
</table>
</div>
{% if notes %}
<ul class="notes">
{% for note in notes %}
<li>{{ note }}</li>
{% endfor %}
</ul>
{% endif %}
</figure>
"""

# The report's table rules (static/report.css), scoped to one view so a notebook's own styles
# stay as they are.
VIEW_STYLE = """\
.shortcutlab-view table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9em; }
.shortcutlab-view th, .shortcutlab-view td { padding: 2px 8px; border-bottom: 1px solid #d5dae1; vertical-align: top; }
.shortcutlab-view thead th { border-bottom: 2px solid #1d2430; text-align: left; }
.shortcutlab-view thead th.num { text-align: center; }
.shortcutlab-view tbody th { text-align: left; font-weight: 500; white-space: nowrap; }
.shortcutlab-view td.num { text-align: right; white-space: nowrap; }
.shortcutlab-view tr.group-start > * { border-top: 2px solid #1d2430; }
.shortcutlab-view figure { margin: 10px 0; }
.shortcutlab-view figcaption, .shortcutlab-view h3 { font-weight: 600; margin: 0 0 4px; }
.shortcutlab-view .notes { margin: 4px 0 0; padding-left: 18px; color: #5b6574; font-size: 0.85em; }
.shortcutlab-view .facts dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 12px; margin: 0; }
.shortcutlab-view .facts dd { margin: 0; }
"""


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


def table_block_html(
    name: str, title: str, frame: pd.DataFrame, notes: Sequence[str] = (), digits: int = 3
) -> Markup:
    """The table block's markup: caption, table (header and index levels merged), footnotes."""
    layout = table_layout(frame, digits)
    return Markup(_template().render(name=name, title=title, layout=layout, notes=list(notes)))


def notebook_view(title: str, parts: Sequence[Markup]) -> str:
    """A notebook's HTML of one object: its title, then ``parts`` (markup made by this module or
    the report's blocks), in a ``div`` styled by :data:`VIEW_STYLE` alone."""
    body = Markup("\n").join(parts)
    return str(
        Markup(
            '<div class="shortcutlab-view">\n<style>\n{}</style>\n<h3>{}</h3>\n{}</div>\n'
        ).format(Markup(VIEW_STYLE), title, body)
    )


def table_layout(frame: pd.DataFrame, digits: int = 3) -> TableLayout:
    """Header rows (column levels, colspans) and body rows (index levels, rowspans; NaN as —)."""
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
            body[position].append(Cell(_value(frame.iat[position, column], digits), numeric=True))
    starts = [
        position > 0 and n_index > 1 and keys_by_row[position][:1] != keys_by_row[position - 1][:1]
        for position in range(len(keys_by_row))
    ]
    return TableLayout(head=head, body=body, group_starts=starts)


def format_cell(value: Any, digits: int = 3) -> str:
    """A table value as text: strings as they are, whole numbers whole, others to ``digits``."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "-"
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return str(value)  # counts stay whole numbers
    return f"{value:.{digits}f}"


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


def jinja_environment(**options: Any) -> Any:
    """A Jinja2 environment with the settings of every shortcutlab page: autoescape on, an
    unknown name an error, block tags leaving no blank lines (``options`` add a loader)."""
    from jinja2 import Environment, StrictUndefined

    return Environment(
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        **options,
    )


@lru_cache(maxsize=1)
def _template() -> Any:
    return jinja_environment().from_string(TABLE_TEMPLATE)


__all__ = [
    "NOT_MEASURED",
    "Cell",
    "TableLayout",
    "format_cell",
    "jinja_environment",
    "notebook_view",
    "table_block_html",
    "table_layout",
]
