"""Commands around single benchmarks: generate (the embedded corpus), evaluate (a Maze build;
another family's build goes to its own evaluation, :mod:`.evaluate_dispatch`), demo, list. The
builds themselves are ``shortcutlab build FAMILY`` (:mod:`.build`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import err_console, held_warnings, out_console, user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.evaluate_dispatch import EvaluateCommand
from shortcutlab.cli.metavars import choices
from shortcutlab.cli.options import Details, parse_key_values
from shortcutlab.cli.output import FormatOption, check_format
from shortcutlab.data.existing_splits import ExistingSplits

VARY_CHOICES = choices(("model", "data", "both"))  # engine.replicates.VARY, read without loading it


@app.command(
    cls=EvaluateCommand,
    short_help="Measure a model's shortcut drop Δ on a built benchmark or on existing split files.",
)
@dataclass_options(splits=ExistingSplits)
def evaluate(
    benchmark: Annotated[
        Path | None,
        typer.Argument(
            help="A folder written by 'shortcutlab build maze' (or name split files with --train, "
            "--test and --anti-test). A 'build suite' folder runs 'shortcutlab suite evaluate' "
            "with the same options."
        ),
    ] = None,
    model: Annotated[
        str,
        typer.Option(
            help="Model name (see 'shortcutlab list'), or a saved scikit-learn estimator "
            "(.joblib/.pkl, cloned and fitted per seed).",
            metavar="NAME|FILE",
        ),
    ] = "tfidf-logreg",
    seeds: Annotated[int, typer.Option(help="Number of seeds (0..N-1).")] = 5,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param", "-p", help="Model parameter KEY=VALUE, e.g. -p C=1.", metavar="KEY=VALUE"
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the 95 % interval of Δ.")
    ] = 1000,
    vary: Annotated[
        str,
        typer.Option(
            help="What each seed re-draws: model (the fit; the papers' protocol), data (the "
            "benchmark, from the inputs its manifest records) or both.",
            metavar=VARY_CHOICES,
        ),
    ] = "model",
    fmt: FormatOption = "table",
    out: Annotated[
        Path | None,
        typer.Option(
            help="Results folder (default: BENCHMARK/results/MODEL; needed with --train)."
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty results folder.")] = False,
    details: Details = False,
    *,
    splits: ExistingSplits,
) -> None:
    """Train on train, evaluate on test / anti_test / original_test, test the drop: of a built
    benchmark, or of split files evaluated as they are (a Shortcut Maze release's train.csv,
    test.csv, test_anti-shortcut.csv)."""
    from shortcutlab.cli import render
    from shortcutlab.data.existing_splits import results_folder
    from shortcutlab.data.writing import check_output_dir
    from shortcutlab.engine.replicates import VARY
    from shortcutlab.families.maze.evaluate import evaluate_benchmark
    from shortcutlab.models.adapters import model_label
    from shortcutlab.params import check_choice

    with user_errors():
        check_format(fmt)  # options first: the most specific refusal
        check_choice("vary", vary, VARY)
        # A saved estimator's results go under its file's stem (results/pipe for pipe.joblib).
        target = results_folder(benchmark, splits, out, Path(model_label(model)).stem)
        check_output_dir(target, overwrite=overwrite)  # before the fit; earlier results are kept
        started = time.perf_counter()
        result = evaluate_benchmark(
            benchmark if benchmark is not None else splits.load(),
            model=model,
            params=parse_key_values(param, flag="--param"),
            seeds=seeds,
            bootstrap=bootstrap,
            vary=vary,
        )
        target = result.save(target, overwrite=overwrite)
    elapsed = time.perf_counter() - started
    render.evaluation(result, elapsed=elapsed, written=target, fmt=fmt, details=details)


@app.command()
def generate(
    out: Annotated[Path, typer.Option(help="Output folder for train and test files.")],
    train_size: Annotated[int, typer.Option(help="Training rows.")] = 4000,
    test_size: Annotated[int, typer.Option(help="Test rows.")] = 2000,
    levels: Annotated[int, typer.Option(help="Rating levels: 4 or 5.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed; the same seed gives the same corpus.")] = 0,
    fmt: Annotated[
        str,
        typer.Option("--file-format", help="csv, jsonl or parquet.", metavar="[csv|jsonl|parquet]"),
    ] = "csv",
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty output folder.")] = False,
) -> None:
    """Write the embedded review corpus (with distractor-aspect columns for concept shortcuts)."""
    from shortcutlab.corpus import save_corpus

    with user_errors():
        manifest = save_corpus(
            out,
            train_size=train_size,
            test_size=test_size,
            levels=levels,
            seed=seed,
            fmt=fmt,
            overwrite=overwrite,
        )
    written = ", ".join(
        f"{name} ({record['rows']} rows)" for name, record in manifest["files"].items()
    )
    out_console.print(f"Wrote {written} to {out}")


@app.command(
    short_help="Build and evaluate every shortcut type on the embedded corpus, then write report.html."
)
def demo(
    out: Annotated[
        Path, typer.Option(help="Output folder (a previous demo there is replaced).")
    ] = Path("shortcutlab-demo"),
    train_size: Annotated[int, typer.Option(help="Training rows of the generated corpus.")] = 4000,
    test_size: Annotated[int, typer.Option(help="Test rows of the generated corpus.")] = 2000,
    seeds: Annotated[int, typer.Option(help="Seeds per benchmark.")] = 3,
    vary: Annotated[
        str,
        typer.Option(
            help="What each seed re-draws: model, data (the benchmark) or both.",
            metavar=VARY_CHOICES,
        ),
    ] = "both",
    jobs: Annotated[
        int | None, typer.Option(help="Worker processes (default: the CPUs available, up to 8).")
    ] = None,
    mps: Annotated[
        bool, typer.Option(help="Also run the MPS section (negation, question, product type).")
    ] = True,
    overwrite: Annotated[
        bool, typer.Option(help="Replace a non-empty folder that is not a previous demo.")
    ] = False,
    fmt: FormatOption = "table",
    details: Details = False,
) -> None:
    """Generate the corpus, build all eight shortcut types at λ = 1, 0.8, 0.6 and evaluate
    tfidf-logreg; then an MPS grid (negation, question, product type) on the same corpus; and
    report.html, every table and figure in one page."""
    from shortcutlab.cli import render
    from shortcutlab.demo import run_demo

    with user_errors():
        check_format(fmt)
        started = time.perf_counter()
        # Warnings wait for the tables: printed as they come they would split the output.
        with held_warnings() as held, render.progress(err_console, "Shortcut Maze demo") as update:
            result = run_demo(
                out,
                train_size=train_size,
                test_size=test_size,
                seeds=seeds,
                vary=vary,
                jobs=jobs,
                mps=mps,
                overwrite=overwrite,
                on_progress=update,
            )
    render.demo(result, elapsed=time.perf_counter() - started, fmt=fmt, details=details)
    render.demo_warnings(err_console, held, out)


@app.command(name="list")
def list_components(fmt: FormatOption = "table") -> None:
    """List the families, metrics, shortcut types, models, attributes and mitigations, each
    with what it is and every option with its default and description."""
    from shortcutlab.cli import render

    with user_errors():
        check_format(fmt)
    render.components(fmt)
