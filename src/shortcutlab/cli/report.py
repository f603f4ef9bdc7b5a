"""``shortcutlab report``: one self-contained HTML page of a run folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import out_console, user_errors


@app.command(
    short_help="Write every table, figure and the rows behind them as one offline HTML file."
)
def report(
    run_dir: Annotated[
        Path,
        typer.Argument(
            help="A run folder (shortcutlab run), a demo folder, or a folder of outputs."
        ),
    ],
    out: Annotated[
        Path | None, typer.Option(help="The HTML file to write (default: RUN_DIR/report.html).")
    ] = None,
    include: Annotated[
        list[Path] | None,
        typer.Option(help="Another output folder to add to the page (repeatable)."),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing --out file.")] = False,
) -> None:
    """Write every table, figure and the rows behind them as one HTML file (inline CSS and SVG,
    no network): opens offline in any browser, printable."""
    from shortcutlab.data.writing import check_no_file_above
    from shortcutlab.errors import OutputExistsError
    from shortcutlab.webreport.build import REPORT_FILE, write_html_report

    with user_errors():
        target = out if out is not None else run_dir / REPORT_FILE
        if out is not None:  # RUN_DIR itself is checked by the report below
            check_no_file_above(out)
        if target.is_dir():
            raise OutputExistsError(
                f"--out '{target}' is a folder; give a file path such as {target / REPORT_FILE}."
            )
        if target.exists() and not overwrite:
            raise OutputExistsError(f"'{target}' exists. Choose another --out or pass --overwrite.")
        if target.exists() and target.suffix.lower() not in (".html", ".htm"):
            # such as RUN_DIR/results.sqlite, which the report reads: replacing it destroys the run
            raise OutputExistsError(
                f"'{target}' is not an HTML page, and --overwrite replaces only a page. Choose "
                "another --out, such as report.html."
            )
        written = write_html_report(run_dir, target, include or ())
    out_console.print(f"Wrote {written} ({_size(written.stat().st_size)})", markup=False)


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"
