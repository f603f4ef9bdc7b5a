"""``shortcutlab build mps``: an MPS benchmark (imbalanced, balanced, validation, test) through
:func:`~shortcutlab.families.mps.build.build_mps_benchmark`.

Its options come in groups: the attribute the labels are redistributed around
(:class:`AttributeOptions`), how they are redistributed and held out
(:class:`RedistributionOptions`) and the shared input options; each group turns its text into
the builder's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import typer

from shortcutlab.cli.build import TableFormat, family_command, shared_inputs
from shortcutlab.cli.console import user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.options import (
    count_or_fraction,
    parse_dominant,
    parse_key_values,
    parse_list,
    parse_size,
)
from shortcutlab.data.options import InputOptions
from shortcutlab.errors import subject
from shortcutlab.fields import option_field


@dataclass(frozen=True)
class AttributeOptions:
    """The attribute the labels are redistributed around, and the values of it that are kept."""

    attribute: str = option_field(
        "negation", help="The attribute the labels are redistributed around."
    )
    attribute_option: list[str] | None = option_field(
        None, help="Attribute option KEY=VALUE (YAML value), e.g. lexicon=paper."
    )
    values: str | None = option_field(
        None, help="Attribute values to keep, comma-separated (default: all, or the top ones)."
    )
    top_values: int | None = option_field(None, help="Keep this many of the most frequent values.")
    annotate_on: str = option_field(
        "text", help="The text the attribute reads: text, or text_pair (e.g. an NLI hypothesis)."
    )

    def arguments(self) -> dict[str, Any]:
        """The builder's keyword arguments these options set."""
        return {
            "attribute": self.attribute,
            "attribute_options": parse_key_values(self.attribute_option, flag="--attribute-option"),
            "values": parse_list(self.values),
            "top_values": self.top_values,
            "annotate_on": self.annotate_on,
        }


@dataclass(frozen=True)
class RedistributionOptions:
    """How the groups' labels are skewed in Imbalanced, how large the sets are, and the
    held-out test and validation rows."""

    dominance: float | None = option_field(
        None,
        help="Share of each imbalanced group taken by its dominant label(s), in (1/K, 1] "
        "(default 0.75 for 2 labels, 0.5 for 3-9, 0.75 over a label set for 10+).",
    )
    dominant: list[str] | None = option_field(
        None,
        help="VALUE=LABEL (or LABEL,LABEL), the dominant label(s) of a group; give one per kept "
        "value.",
    )
    dominant_labels: int | None = option_field(
        None, help="Labels per dominant set (default: 1, or ceil(K/G) for 10+ labels)."
    )
    size: str | None = option_field(
        None,
        help="Imbalanced (and balanced) rows; default: the largest feasible; 'even': groups only "
        "as large as Balanced can fill with uniform labels.",
    )
    label_mix: str = option_field(
        "paper",
        help="paper (every group as large as allowed; Imbalanced's label prior follows the group "
        "sizes) or matched (group sizes that hold every label equally often).",
    )
    test_size: float | None = option_field(
        None,
        help="Test rows (count, or fraction < 1 of the eligible pool); default 0.2 of the pool, "
        "or all a test table's rarest label allows.",
    )
    validation_size: float = option_field(
        0, help="Validation rows from the pool (count, or fraction < 1)."
    )

    def arguments(self) -> dict[str, Any]:
        """The builder's keyword arguments these options set."""
        return {
            "dominance": self.dominance,
            "dominant": parse_dominant(self.dominant, flag="--dominant"),
            "dominant_labels": self.dominant_labels,
            "size": parse_size(self.size, flag="--size"),
            "test_size": count_or_fraction(self.test_size),
            "validation_size": count_or_fraction(self.validation_size),
            "label_mix": self.label_mix,
        }


@family_command("mps")
@shared_inputs
@dataclass_options(attribute=AttributeOptions, redistribution=RedistributionOptions)
def mps(
    train: Annotated[
        str,
        typer.Option(
            help="The pool: CSV, TSV, JSONL, Parquet or a saved HF dataset (PATH::SPLIT)."
        ),
    ],
    test: Annotated[
        str | None,
        typer.Option(help="Test table, same formats (default: drawn from the pool)."),
    ] = None,
    *,
    attribute: AttributeOptions,
    redistribution: RedistributionOptions,
    labels: Annotated[
        str | None,
        typer.Option(help="Label order, comma-separated (numeric labels sort by themselves)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    table_format: TableFormat = "table",
    inputs: InputOptions,
) -> None:
    """Build an MPS benchmark: imbalanced, balanced (and validation) and a label-balanced test
    set, the pool's rows redistributed around an attribute."""
    from shortcutlab.cli.build_summary import mps_summary
    from shortcutlab.cli.output import check_format
    from shortcutlab.families.mps.build import build_mps_benchmark

    about = f"MPS build of attribute {attribute.attribute}"
    with user_errors(), subject(about):  # the builder refuses an unwritable --out first
        check_format(table_format, "table_format")
        benchmark = build_mps_benchmark(
            train,
            test,
            **attribute.arguments(),
            **redistribution.arguments(),
            seed=seed,
            labels=parse_list(labels),
            inputs=inputs,
        )
    mps_summary(table_format, benchmark)
