"""``shortcutlab robustness evaluate``: a model on every perturbation class of a robustness build
(``shortcutlab evaluate BUILD`` sends a robustness folder here)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import AlphabeticalGroup, app
from shortcutlab.cli.console import user_errors
from shortcutlab.cli.options import parse_key_values
from shortcutlab.cli.output import FormatOption, Section, check_format, messages, show

robustness_app = typer.Typer(
    cls=AlphabeticalGroup,
    help="Perturbation robustness: evaluate a model on a robustness build.",
    no_args_is_help=True,
)
app.add_typer(robustness_app, name="robustness")


@robustness_app.command(name="evaluate")
def evaluate_command(
    bench: Annotated[Path, typer.Argument(help="A folder written by 'build robustness'.")],
    model: Annotated[
        str,
        typer.Option(
            help="A registered model name (fitted on the train rows) or a saved .joblib/.pkl "
            "pipeline (refitted on them)."
        ),
    ] = "tfidf-logreg",
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="Model parameter KEY=VALUE, e.g. -p C=0.5."),
    ] = None,
    train: Annotated[
        Path | None,
        typer.Option(help="Rows to fit on (default: the build's train split)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the fit and the bootstrap.")] = 0,
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples (>= 100).")] = 1000,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for results.json, classes.csv, flipped.csv and tables.md."),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out.")] = False,
    fmt: FormatOption = "table",
) -> None:
    """Fit the model once, predict the original and every class's perturbed rows, and print each
    class's accuracy drop, flip rate and (DIR) how often the expected label's probability rose."""
    from shortcutlab.data.writing import check_output_dir
    from shortcutlab.families.robustness.evaluate import evaluate_robustness
    from shortcutlab.families.robustness.tables import CLASS_NOTE, class_frame

    with user_errors():
        check_format(fmt)
        if out is not None:
            check_output_dir(out, overwrite=overwrite)
        evaluation = evaluate_robustness(
            bench,
            model=model,
            params=parse_key_values(param, flag="--param"),
            train=train,
            seed=seed,
            bootstrap=bootstrap,
        )
        if out is not None:
            evaluation.save(out, overwrite=overwrite)
    sections = [Section(class_frame(evaluation.classes), "Per perturbation class", [CLASS_NOTE])]
    show(fmt, sections, tidy=evaluation.to_pandas())
    if out is not None:
        messages(fmt).print(f"Wrote {out / 'results.json'} and {out / 'tables.md'}", markup=False)
