"""``shortcutlab split``: split a table into train (dev) and test files by a group column."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import out_console, user_errors


@app.command()
def split(
    data: Annotated[
        str,
        typer.Argument(help="The table to split: CSV, TSV, JSONL, Parquet or a saved HF dataset."),
    ],
    by: Annotated[
        str, typer.Option(help="The column whose values stay on one side (e.g. premise).")
    ],
    out: Annotated[Path, typer.Option(help="Folder for train, test (and dev) files.")],
    test_size: Annotated[float, typer.Option(help="The test side's share of the rows.")] = 0.3,
    dev_size: Annotated[
        float | None, typer.Option(help="A dev side's share of the rows (default: no dev file).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the shuffle of the groups.")] = 0,
    encoding: Annotated[str, typer.Option(help="Encoding of a text input file.")] = "utf-8",
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
) -> None:
    """Write train and test files (and dev) in the input's format, every value of --by on one
    side only: for NLI data split by premise, so that no premise is in both."""
    from shortcutlab.data.split_files import write_group_split

    with user_errors():
        written = write_group_split(
            data,
            out,
            by=by,
            test_size=test_size,
            dev_size=dev_size,
            seed=seed,
            encoding=encoding,
            overwrite=overwrite,
        )
    out_console.print(
        f"Split {written.source} by {written.column} (seed {seed}): {written.rows:,} rows, "
        f"{written.groups:,} groups; no value of {written.column} is on two sides.",
        markup=False,
    )
    width = max(len(str(path)) for path in written.files.values())
    digits = len(f"{written.rows:,}")
    for side, path in written.files.items():
        rows = len(written.split.rows[side])
        out_console.print(
            f"  {side:<5}  {str(path):<{width}}  {rows:>{digits},} rows "
            f"({100 * rows / written.rows:4.1f} %), {written.split.groups[side]:,} groups",
            markup=False,
        )
    out_console.print(f"Wrote {written.record}", markup=False)
