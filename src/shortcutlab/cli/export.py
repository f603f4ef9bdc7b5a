"""``shortcutlab export BENCH --to TARGET --out DIR``: a built benchmark in another tool's format."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import out_console, user_errors


@app.command()
def export(
    benchmark: Annotated[
        Path,
        typer.Argument(help="A folder written by 'shortcutlab build maze|mps|robustness|suite'."),
    ],
    to: Annotated[
        str,
        typer.Option(
            help="The target format: hf (Hugging Face datasets) or lm-eval (lm-evaluation-harness tasks)."
        ),
    ],
    out: Annotated[Path, typer.Option(help="Output folder (must not exist or be empty).")],
    license: Annotated[
        str, typer.Option(help="The license the dataset card names (an SPDX id, other, unknown).")
    ] = "unknown",
    push_to_hub: Annotated[
        str | None,
        typer.Option(help="Also upload the card and data/*.parquet to this Hub dataset repo."),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            help="llm-prompt parameter KEY=VALUE for the prompts of --to lm-eval, as in "
            "'shortcutlab evaluate', e.g. -p \"label_names=[negative, positive]\".",
            metavar="KEY=VALUE",
        ),
    ] = None,
) -> None:
    """Export a built benchmark: --to hf writes a Hugging Face DatasetDict with its dataset card,
    --to lm-eval lm-evaluation-harness tasks that prompt and score as llm-prompt does (with
    the parameters -p sets)."""
    from shortcutlab.cli.options import parse_key_values
    from shortcutlab.export import export_benchmark

    with user_errors():
        written = export_benchmark(
            benchmark,
            to=to,
            out=out,
            license=license,
            push_to_hub=push_to_hub,
            overwrite=overwrite,
            params=parse_key_values(param, flag="--param"),
        )
    out_console.print(f"Exported {benchmark} as {to} to {written}", markup=False)
    if push_to_hub is not None:
        out_console.print(f"Pushed to the Hub dataset repository {push_to_hub}", markup=False)
