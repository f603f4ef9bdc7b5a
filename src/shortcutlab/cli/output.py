"""One output style for every command that prints a table: ``--format table|md|csv|json|latex``.

``table`` (the default) prints terminal tables whose names and numbers are never cut; ``md`` and
``latex`` print the same tables as text, with their footnotes; ``csv`` and ``json`` print the
data alone (tidy rows), so a pipe gets nothing else. In every format but ``table`` the command's
other messages go to stderr (:func:`messages`): stdout holds only what was asked for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.table import Table

from shortcutlab.cli.console import err_console, out_console
from shortcutlab.cli.metavars import choices
from shortcutlab.params import check_choice

if TYPE_CHECKING:  # pandas and the table renderers load when a table is printed, not at start-up
    import pandas as pd

FORMATS = ("table", "md", "csv", "json", "latex")
TIDY = ("csv", "json")
FORMAT_HELP = (
    "table (terminal tables, the default), md or latex (the same tables as text, with "
    "footnotes), csv or json (the data alone on stdout; messages go to stderr)."
)
FormatOption = Annotated[str, typer.Option("--format", help=FORMAT_HELP, metavar=choices(FORMATS))]
# Wider than any table: measuring at the console's own width would report the squeezed size.
_UNBOUNDED = 100_000
PROSE_WIDTH = 60  # a prose column wraps at spaces within this width
PROSE_MIN_WIDTH = 16  # and narrows to this before a table outgrows the terminal


@dataclass(frozen=True)
class Section:
    """One printed table: its title, the frame (index levels become the leading columns) and the
    footnotes shown below it in the table, md and latex formats."""

    table: pd.DataFrame
    title: str | None = None
    notes: Sequence[str] = ()
    digits: int = 3


def check_format(fmt: str, option: str = "format") -> None:
    """Refuse a format outside :data:`FORMATS` (one ``Error:`` line listing them, naming the
    parameter ``option``)."""
    check_choice(option, fmt, FORMATS)


def messages(fmt: str) -> Console:
    """Where a command's other lines go: stdout beside terminal tables, stderr otherwise, so that
    ``--format csv > file.csv`` (or md, latex, json) writes the data alone."""
    return out_console if fmt == "table" else err_console


def show(
    fmt: str,
    sections: Sequence[Section],
    *,
    tidy: pd.DataFrame | Mapping[str, pd.DataFrame] | None = None,
    console: Console = out_console,
) -> None:
    """Print ``sections`` in ``fmt``. ``csv``/``json`` print ``tidy`` (the statistics as rows;
    several named frames become one CSV with a ``table`` column, or one JSON object), else the
    sections' own tables."""
    if fmt == "table":
        for position, section in enumerate(sections):
            if position:
                console.print()
            table = frame_table(section.table, title=section.title, digits=section.digits)
            print_table(console, table)
            notes(console, section.notes)
    elif fmt in TIDY:
        plain(console, tidy_output(tidy if tidy is not None else _section_frames(sections), fmt))
    else:
        plain(console, sections_text(sections, fmt))


def sections_text(sections: Sequence[Section], fmt: str) -> str:
    """Markdown or LaTeX of the sections: each title as a heading (a comment in LaTeX)."""
    from shortcutlab.reports.tables import render

    prefix = "% " if fmt == "latex" else "### "
    return "\n".join(
        (f"{prefix}{s.title}\n\n" if s.title else "")
        + render(s.table, fmt, digits=s.digits, notes=s.notes)
        for s in sections
    )


def tidy_output(tidy: pd.DataFrame | Mapping[str, pd.DataFrame], fmt: str) -> str:
    """CSV or JSON of one frame, or of several named ones (CSV: stacked, a leading ``table``
    column naming each row's frame; JSON: an object of record lists)."""
    import pandas as pd

    from shortcutlab.reports.tables import tidy_text

    if isinstance(tidy, pd.DataFrame):
        return tidy_text(tidy, fmt)
    if fmt == "csv":
        stacked = pd.concat(
            [frame.assign(table=name) for name, frame in tidy.items()], ignore_index=True
        )
        return tidy_text(stacked[["table", *stacked.columns.drop("table")]], fmt)
    records = {name: json.loads(tidy_text(frame, "json")) for name, frame in tidy.items()}
    return json.dumps(records, indent=1, ensure_ascii=False) + "\n"


def _section_frames(sections: Sequence[Section]) -> pd.DataFrame | dict[str, pd.DataFrame]:
    frames = {s.title or f"table {i + 1}": _flat(s.table) for i, s in enumerate(sections)}
    return next(iter(frames.values())) if len(frames) == 1 else frames


def _flat(table: pd.DataFrame) -> pd.DataFrame:
    """Index levels as columns and two-level column names joined, as the tables show them."""
    flat = table.copy()
    if flat.columns.nlevels > 1:
        flat.columns = [" ".join(str(part) for part in column) for column in flat.columns]
    named = [n for n in flat.index.names if n] if flat.index.nlevels > 1 else [flat.index.name]
    return flat.reset_index() if any(named) else flat.reset_index(drop=True)


def frame_table(
    frame: pd.DataFrame, *, title: str | None = None, digits: int = 3, prose: Sequence[str] = ()
) -> Table:
    """A rich table of ``frame``: index levels first, a repeated group label shown once. Every
    column is as wide as its widest cell, so no name is cut; ``prose`` columns wrap at spaces."""
    from shortcutlab.reports.tables import format_cell, grouped_rows

    levels = frame.index.nlevels
    names = list(frame.index.names) if levels > 1 else [frame.index.name or ""]
    rows = [
        (new_group, [*shown, *(format_cell(v, digits) for v in values)])
        for shown, values, new_group in grouped_rows(frame)
    ]
    headers = [str(name or "") for name in names] + [_header(c) for c in frame.columns]
    return cells_table(headers, rows, leading=len(names), title=title, prose=prose)


def cells_table(
    headers: Sequence[str],
    rows: Sequence[tuple[bool, Sequence[str]]],
    *,
    leading: int = 1,
    title: str | None = None,
    prose: Sequence[str] = (),
) -> Table:
    """The rich table :func:`frame_table` prints, from cells already as text: ``rows`` are
    (starts a new group, cells) pairs; the ``leading`` columns (the index) are left-aligned."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for column, header in enumerate(headers):
        cells = [header, *(row[column] for _, row in rows)]
        wraps = header in prose
        table.add_column(
            header,
            justify="left" if column < leading or wraps else "right",
            no_wrap=not wraps,
            overflow="fold",
            min_width=None if wraps else max(cell_len(c) for c in cells),
            max_width=PROSE_WIDTH if wraps else None,
        )
    for new_group, cells in rows:
        if new_group:
            table.add_section()
        table.add_row(*cells)
    return table


def _header(column: Any) -> str:
    if isinstance(column, tuple):  # ("reviews", "δ") -> "reviews δ", as the md tables do
        return " ".join(str(part) for part in column)
    if isinstance(column, float):
        from shortcutlab.reports.tables import format_cell

        return format_cell(column, 1)
    return str(column)


def print_whole(console: Console, table: Table) -> None:
    """Print a table built elsewhere with no cell cut or wrapped: each column as wide as its
    widest text cell."""
    for column in table.columns:
        texts = [c for c in (column.header, *column.cells) if isinstance(c, str)]
        column.no_wrap = True
        column.min_width = max((cell_len(c) for c in texts), default=column.min_width)
    print_table(console, table)


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` within the console's width (80 in a pipe; ``COLUMNS`` sets it), its prose
    columns wrapped narrower where needed, or past it where names alone do not fit: a wider
    line beats a cut name."""
    needed = _narrowest(console, table)
    if needed <= console.width:
        console.print(table)  # rich narrows the prose columns, never the others, to fit
        return
    # print(width=) is capped at the console's width: a wider table needs a console of its own.
    wide = Console(
        file=console.file,
        width=needed,
        highlight=False,
        soft_wrap=True,
        force_terminal=console.is_terminal,
        color_system=console.color_system,  # type: ignore[arg-type]
        no_color=console.no_color,
    )
    wide.print(table)


def _narrowest(console: Console, table: Table) -> int:
    """The width of ``table`` with each prose column at most :data:`PROSE_MIN_WIDTH` wide."""
    prose = [column for column in table.columns if not column.no_wrap]
    widest = [column.max_width for column in prose]
    for column in prose:
        column.max_width = min(column.max_width or PROSE_MIN_WIDTH, PROSE_MIN_WIDTH)
    try:  # rendered, not measured: rich's measure of a table undercounts some columns' padding
        lines = console.render_lines(table, console.options.update_width(_UNBOUNDED), pad=False)
    finally:
        for column, width in zip(prose, widest, strict=True):
            column.max_width = width
    return max((Segment.get_line_length(line) for line in lines), default=0)


def findings(fmt: str, sentences: Sequence[str]) -> None:
    """The findings in plain words, one per line under ``Findings:`` (a Markdown list): on stdout
    after terminal tables and md, on stderr beside latex, csv and json so those stay parseable."""
    if sentences:
        closing(fmt, ["", "Findings:", *(f"- {sentence}" for sentence in sentences)])


def plain(console: Console, text: str) -> None:
    """Machine-readable text exactly as given: no markup, emoji codes, highlighting or wrapping."""
    console.print(text, markup=False, emoji=False, highlight=False, soft_wrap=True, end="")


def notes(console: Console, lines: Sequence[str]) -> None:
    for line in lines:
        console.print(line, markup=False, emoji=False)


def closing(fmt: str, lines: Sequence[str]) -> None:
    """Sentences after the tables (findings, where results were written): on stdout after
    terminal tables and Markdown, on stderr after csv, json and latex, whose stdout is data."""
    notes(out_console if fmt in ("table", "md") else err_console, lines)
