"""``shortcutlab build robustness``: a test set perturbed by named classes, each perturbed row
paired to its source row, through
:func:`~shortcutlab.families.robustness.build.build_robustness_benchmark`."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from shortcutlab.cli.build import family_command, shared_inputs
from shortcutlab.cli.console import out_console, user_errors
from shortcutlab.cli.options import parse_key_values, parse_list
from shortcutlab.data.options import InputOptions
from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted


@family_command("robustness")
@shared_inputs
def robustness(
    test: Annotated[
        str,
        typer.Option(help="The rows to perturb: CSV, TSV, JSONL, Parquet or a saved HF dataset."),
    ],
    perturbation: Annotated[
        list[str],
        typer.Option(
            help="A perturbation class to apply (repeat for more; see 'shortcutlab list')."
        ),
    ],
    train: Annotated[
        str | None,
        typer.Option(help="Rows to fit models on, kept as the build's train split (same formats)."),
    ] = None,
    perturbation_option: Annotated[
        list[str] | None,
        typer.Option(
            help="A class's parameter NAME.KEY=VALUE (YAML value), e.g. typos-swap.rate=0.2."
        ),
    ] = None,
    labels: Annotated[
        str | None,
        typer.Option(help="Label order, comma-separated (numeric labels sort by themselves)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    *,
    inputs: InputOptions,
) -> None:
    """Build a robustness benchmark: the test rows, and per perturbation class the rows it
    changed, paired to their source rows by row_id."""
    from shortcutlab.families.robustness.build import build_robustness_benchmark

    with user_errors():  # the builder refuses an output folder it may not write, first
        built = build_robustness_benchmark(
            test,
            perturbations=class_options(perturbation, perturbation_option),
            train=train,
            labels=parse_list(labels),
            seed=seed,
            inputs=inputs,
        )
    out_console.print(f"Built a robustness benchmark (seed {seed}) in {built.path}")
    for name, record in built.manifest["perturbations"].items():
        out_console.print(
            f"  {name} ({record['kind']}): {record['rows']} of {len(built['test'])} rows changed",
            markup=False,
        )


def class_options(names: list[str], options: list[str] | None) -> dict[str, dict[str, Any]]:
    """``--perturbation`` names with their ``--perturbation-option NAME.KEY=VALUE`` parameters;
    an option naming a class that is not applied is refused."""
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ConfigError(
            f"--perturbation names {', '.join(map(quoted, repeated))} more than once. Give each "
            "class once."
        )
    chosen: dict[str, dict[str, Any]] = {name: {} for name in names}
    for option in options or []:
        name, dot, rest = option.partition(".")
        if not dot or "=" not in rest:
            raise ConfigError(
                f"--perturbation-option expects NAME.KEY=VALUE. Got {quoted(option)} instead."
            )
        if name not in chosen:
            raise ConfigError(
                f"--perturbation-option names the class {quoted(name)}, which no --perturbation "
                "applies. Add --perturbation for it, or drop the option."
            )
        chosen[name] |= parse_key_values([rest], flag="--perturbation-option")
    return chosen
