"""``shortcutlab build suite``: the Shortcut Suite's test sets (one file per set) through
:func:`~shortcutlab.families.suite.build.build_suite_benchmark`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.build import family_command, shared_inputs
from shortcutlab.cli.console import out_console, user_errors
from shortcutlab.cli.options import parse_key_values
from shortcutlab.data.options import InputOptions
from shortcutlab.families.suite import DEFAULT_SIZE


@family_command("suite")
@shared_inputs
def suite(
    train: Annotated[
        str,
        typer.Option(
            help="The data the sets are made from: CSV, TSV, JSONL, Parquet or a saved HF dataset."
        ),
    ],
    sets: Annotated[
        str,
        typer.Option(
            help="Comma-separated sets: standard, negation, position, style, lexical-overlap, "
            "subsequence, constituent, sentiment-negation, paraphrase-overlap."
        ),
    ],
    size: Annotated[int, typer.Option(help="Rows per set.")] = DEFAULT_SIZE,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    rewriter: Annotated[
        str, typer.Option(help="The style set's Bible-style rewriter: rules, llm or file.")
    ] = "rules",
    rewriter_option: Annotated[
        list[str] | None,
        typer.Option(help="Rewriter option KEY=VALUE, e.g. rewrites={bible: PATH} for file."),
    ] = None,
    hans: Annotated[
        Path | None,
        typer.Option(help="The official HANS heuristics_evaluation_set.txt (default: generate)."),
    ] = None,
    paws: Annotated[
        Path | None,
        typer.Option(
            help="A PAWS file for the paraphrase-overlap set (default: the high-overlap pairs of "
            "--train)."
        ),
    ] = None,
    min_overlap: Annotated[
        float,
        typer.Option(
            help="Word overlap (Jaccard) of the pairs paraphrase-overlap takes from --train."
        ),
    ] = 0.8,
    *,
    inputs: InputOptions,
) -> None:
    """Build Shortcut Suite test sets from NLI data (sentiment or paraphrase data for the
    extended sets): one file per set and a manifest."""
    from shortcutlab.cli.build_summary import suite_summary
    from shortcutlab.families.suite.build import build_suite_benchmark

    with user_errors():  # the builder refuses an output folder it may not write, first
        built = build_suite_benchmark(
            train,
            sets=sets,
            size=size,
            seed=seed,
            rewriter=rewriter,
            rewriter_options=parse_key_values(rewriter_option, flag="--rewriter-option"),
            hans=hans,
            paws=paws,
            min_overlap=min_overlap,
            inputs=inputs,
        )
    suite_summary(out_console, built)
