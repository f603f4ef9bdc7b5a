"""``shortcutlab build maze``: a Shortcut Maze benchmark (train, validation, test, anti_test,
original_test) through :func:`~shortcutlab.families.maze.build.build_maze_benchmark`.

Its options come in groups: the cue (:class:`CueOptions`: the shortcut, its options and the files
it reads), its strength (:class:`StrengthOptions`) and the shared input options; each group turns
its text into the builder's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import typer

from shortcutlab.cli.build import TableFormat, check_output_folder, family_command, shared_inputs
from shortcutlab.cli.console import user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.options import (
    count_or_fraction,
    parse_floats,
    parse_key_values,
    parse_list,
    parse_named_paths,
    parse_strength,
    style_file_options,
)
from shortcutlab.data.options import InputOptions
from shortcutlab.fields import option_field


@dataclass(frozen=True)
class CueOptions:
    """The cue: a shortcut, its options, and the files it reads (style rewrites, the reviews of
    another aspect for the concept shortcuts)."""

    shortcut: str = option_field(
        help="single-term, synonym, category, register, author, bible, concept-occurrence, "
        "concept-correlation or tautology.",
        metavar="NAME",
    )
    option: list[str] | None = option_field(
        None,
        "--option",
        "-o",
        help="Shortcut option KEY=VALUE, e.g. -o term=frankly.",
        metavar="KEY=VALUE",
    )
    distractor: list[str] | None = option_field(
        None, help="Concept shortcuts: NAME=PATH of reviews of another aspect.", metavar="NAME=PATH"
    )
    test_distractor: list[str] | None = option_field(
        None, help="NAME=PATH of that aspect's reviews for test splits.", metavar="NAME=PATH"
    )
    rewrites: list[str] | None = option_field(
        None,
        help="Style shortcuts: STYLE=PATH of rewrites, a file or a release folder with train.csv "
        "and test.csv.",
        metavar="STYLE=PATH",
    )
    rewrite_encoding: str | None = option_field(
        None,
        help="Encoding of the rewrite files (default: strict UTF-8; the release's GoEmotions "
        "formal/ files: latin-1).",
        metavar="ENCODING",
    )
    inject_on: str = option_field(
        "text",
        help="The part that carries the cue: text, or text_pair (e.g. an NLI hypothesis).",
        metavar="[text|text_pair]",
    )

    def distractors(self, inputs: InputOptions) -> dict[str, Any] | None:
        """Each ``--distractor`` aspect's reviews (and its ``--test-distractor`` ones), read with
        the build's columns and encoding."""
        from shortcutlab.families.maze.distractors import distractor_from_files

        test_paths = parse_named_paths(self.test_distractor, flag="--test-distractor")
        if not self.distractor:
            return None
        train_paths = parse_named_paths(self.distractor, flag="--distractor")
        return {
            name: distractor_from_files(
                name,
                path,
                test_paths.get(name),
                text_col=inputs.text_col,
                label_col=inputs.label_col,
                encoding=inputs.encoding,
            )
            for name, path in train_paths.items()
        }

    def shortcut_options(self) -> dict[str, Any]:
        """``-o KEY=VALUE`` options, with ``--rewrites`` and ``--rewrite-encoding`` folded in."""
        return style_file_options(
            parse_key_values(self.option, flag="--option"),
            parse_named_paths(self.rewrites, flag="--rewrites"),
            self.rewrite_encoding,
            self.shortcut,
        )


@dataclass(frozen=True)
class StrengthOptions:
    """How often the cue goes with each label: λ of the training and the test splits, and how it
    turns into a per-label rate."""

    strength: float = option_field(
        0.8, help="Shortcut strength λ of the training splits, in [0, 1]."
    )
    strength_mode: str = option_field(
        "mix",
        help="mix: λ·p + (1-λ)/2 (released data); scale: λ·p (paper text).",
        metavar="[mix|scale]",
    )
    test_strength: str = option_field(
        "1",
        help="λ of test and anti-test: a number in [0, 1], or 'same' (the training λ, as the "
        "paper's released files).",
        metavar="FLOAT|same",
    )
    sampling: str = option_field(
        "exact",
        help="exact: cue counts per label match the target; bernoulli: independent draws.",
        metavar="[exact|bernoulli]",
    )
    schedule: str | None = option_field(
        None, help="Custom per-label base probabilities, e.g. 0,0.5,1.", metavar="FLOAT,FLOAT,..."
    )

    def arguments(self) -> dict[str, Any]:
        """The builder's keyword arguments these options set."""
        return {
            "strength": self.strength,
            "strength_mode": self.strength_mode,
            "test_strength": parse_strength(self.test_strength, flag="--test-strength"),
            "sampling": self.sampling,
            "schedule": parse_floats(self.schedule, flag="--schedule"),
        }


@family_command("maze")
@shared_inputs
@dataclass_options(cue=CueOptions, strengths=StrengthOptions)
def maze(
    train: Annotated[
        str,
        typer.Option(
            help="Training table: CSV, TSV, JSONL, Parquet or a saved HF dataset (PATH::SPLIT).",
            metavar="PATH",
        ),
    ],
    test: Annotated[str, typer.Option(help="Test table, same formats.", metavar="PATH")],
    cue: CueOptions,
    strengths: StrengthOptions,
    labels: Annotated[
        str | None,
        typer.Option(
            help="Label order, comma-separated (numeric labels sort by themselves).",
            metavar="LABEL,LABEL,...",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    val_size: Annotated[
        float, typer.Option(help="Validation rows carved from train (count, or fraction < 1).")
    ] = 0,
    table_format: TableFormat = "table",
    *,
    inputs: InputOptions,
) -> None:
    """Build a Shortcut Maze benchmark: train, validation, test and anti_test with an injected
    cue at strength λ, and original_test without it."""
    from shortcutlab.cli.build_summary import benchmark_summary
    from shortcutlab.cli.output import check_format
    from shortcutlab.families.maze.build import build_maze_benchmark

    with user_errors():
        check_format(table_format, "table_format")
        check_output_folder(inputs)  # before the distractor files are read, not after
        distractors = cue.distractors(inputs)
        benchmark = build_maze_benchmark(
            train,
            test,
            shortcut=cue.shortcut,
            shortcut_options=cue.shortcut_options(),
            **strengths.arguments(),
            seed=seed,
            val_size=count_or_fraction(val_size),
            labels=parse_list(labels),
            distractors=distractors,
            inject_on=cue.inject_on,
            inputs=inputs,
        )
    benchmark_summary(table_format, benchmark)
