"""Commands that make and evaluate single benchmarks: generate, build (Shortcut Maze or MPS),
evaluate, demo, list."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import app, err_console, out_console, user_errors
from shortcutlab.cli.options import parse_key_values

EVALUATE_FORMATS = ("text", "md", "latex", "csv", "json")


@app.command()
def build(
    ctx: typer.Context,
    train: Annotated[
        str,
        typer.Option(
            help="Training table (MPS: the pool): CSV, TSV, JSONL, Parquet or a saved HF dataset (PATH::SPLIT)."
        ),
    ],
    out: Annotated[
        Path, typer.Option(help="Output folder (must not exist or be empty, unless --overwrite).")
    ],
    family: Annotated[
        str,
        typer.Option(
            help="maze: train / test / anti_test with an injected cue; mps: imbalanced / balanced / "
            "test redistributed around an attribute; suite: the Shortcut Suite's test sets."
        ),
    ] = "maze",
    test: Annotated[
        str | None,
        typer.Option(
            help="Test table, same formats (maze: required; mps: optional, else drawn from the pool)."
        ),
    ] = None,
    shortcut: Annotated[
        str | None,
        typer.Option(
            help="Maze: single-term, synonym, category, register, author, bible, "
            "concept-occurrence, concept-correlation or tautology."
        ),
    ] = None,
    text_col: Annotated[str, typer.Option(help="Column holding the text.")] = "text",
    label_col: Annotated[str, typer.Option(help="Column holding the label.")] = "label",
    text_pair_col: Annotated[
        str | None, typer.Option(help="Optional second text column (paired inputs).")
    ] = None,
    labels: Annotated[
        str | None,
        typer.Option(help="Label order, comma-separated (numeric labels sort by themselves)."),
    ] = None,
    strength: Annotated[
        float, typer.Option(help="Shortcut strength λ of the training splits, in [0, 1].")
    ] = 0.8,
    strength_mode: Annotated[
        str, typer.Option(help="mix: λ·p + (1-λ)/2 (released data); scale: λ·p (paper text).")
    ] = "mix",
    test_strength: Annotated[
        str,
        typer.Option(
            help="λ of test and anti-test: a number in [0, 1], or 'same' (the training λ, as the paper's released files)."
        ),
    ] = "1",
    sampling: Annotated[
        str,
        typer.Option(
            help="exact: cue counts per label match the target; bernoulli: independent draws."
        ),
    ] = "exact",
    schedule: Annotated[
        str | None, typer.Option(help="Custom per-label base probabilities, e.g. 0,0.5,1.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    val_size: Annotated[
        float, typer.Option(help="Validation rows carved from train (count, or fraction < 1).")
    ] = 0,
    fmt: Annotated[str, typer.Option("--format", help="csv, jsonl or parquet.")] = "csv",
    encoding: Annotated[str, typer.Option(help="Encoding of text input files.")] = "utf-8",
    on_empty: Annotated[
        str, typer.Option(help="Rows with an empty text or label: drop (counted) or error.")
    ] = "drop",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Shortcut option KEY=VALUE, e.g. -o term=frankly."),
    ] = None,
    distractor: Annotated[
        list[str] | None,
        typer.Option(help="Concept shortcuts: NAME=PATH of reviews of another aspect."),
    ] = None,
    test_distractor: Annotated[
        list[str] | None, typer.Option(help="NAME=PATH of that aspect's reviews for test splits.")
    ] = None,
    rewrites: Annotated[
        list[str] | None,
        typer.Option(
            help="Style shortcuts: STYLE=PATH of rewrites, a file or a release folder with train.csv and test.csv."
        ),
    ] = None,
    rewrite_encoding: Annotated[
        str | None,
        typer.Option(help="Encoding of the rewrite files (the paper's release: latin-1)."),
    ] = None,
    attribute: Annotated[
        str, typer.Option(help="MPS: the attribute the labels are redistributed around.")
    ] = "negation",
    attribute_option: Annotated[
        list[str] | None,
        typer.Option(help="MPS: attribute option KEY=VALUE (YAML value), e.g. lexicon=paper."),
    ] = None,
    values: Annotated[
        str | None,
        typer.Option(
            help="MPS: attribute values to keep, comma-separated (default: all, or the top ones)."
        ),
    ] = None,
    top_values: Annotated[
        int | None, typer.Option(help="MPS: keep this many of the most frequent values.")
    ] = None,
    dominance: Annotated[
        float | None,
        typer.Option(
            help="MPS: share of each imbalanced group taken by its dominant label(s), in (1/K, 1] "
            "(default 0.75 for 2 labels, 0.5 for 3-9, 0.75 over a label set for 10+)."
        ),
    ] = None,
    dominant: Annotated[
        list[str] | None,
        typer.Option(
            help="MPS: VALUE=LABEL (or LABEL,LABEL), the dominant label(s) of a group; give one per kept value."
        ),
    ] = None,
    dominant_labels: Annotated[
        int | None,
        typer.Option(
            help="MPS: labels per dominant set (default: 1, or ceil(K/G) for 10+ labels)."
        ),
    ] = None,
    size: Annotated[
        str | None,
        typer.Option(
            help="MPS: imbalanced (and balanced) rows; default: the largest feasible; 'even': "
            "groups only as large as Balanced can fill with uniform labels."
        ),
    ] = None,
    test_size: Annotated[
        float | None,
        typer.Option(
            help="MPS: test rows (count, or fraction < 1 of the eligible pool); default 0.2 of the "
            "pool, or all a test table's rarest label allows."
        ),
    ] = None,
    validation_size: Annotated[
        float, typer.Option(help="MPS: validation rows from the pool (count, or fraction < 1).")
    ] = 0,
    label_mix: Annotated[
        str,
        typer.Option(
            help="MPS: paper (every group as large as allowed; Imbalanced's label prior follows "
            "the group sizes) or matched (group sizes that hold every label equally often)."
        ),
    ] = "paper",
    annotate_on: Annotated[
        str,
        typer.Option(
            help="MPS: the text the attribute reads: text, or text_pair (e.g. an NLI hypothesis)."
        ),
    ] = "text",
    inject_on: Annotated[
        str,
        typer.Option(
            help="Maze: the part that carries the cue: text, or text_pair (e.g. an NLI hypothesis)."
        ),
    ] = "text",
    sets: Annotated[
        str | None,
        typer.Option(
            help="Suite: comma-separated sets: standard, negation, position, style, lexical-overlap, "
            "subsequence, constituent, sentiment-negation, paraphrase-overlap."
        ),
    ] = None,
    rewriter: Annotated[
        str, typer.Option(help="Suite: the style set's Bible-style rewriter: rules, llm or file.")
    ] = "rules",
    rewriter_option: Annotated[
        list[str] | None,
        typer.Option(
            help="Suite: rewriter option KEY=VALUE, e.g. rewrites={bible: PATH} for file."
        ),
    ] = None,
    hans: Annotated[
        Path | None,
        typer.Option(
            help="Suite: the official HANS heuristics_evaluation_set.txt (default: generate)."
        ),
    ] = None,
    paws: Annotated[
        Path | None,
        typer.Option(
            help="Suite: a PAWS file for the paraphrase-overlap set (default: the high-overlap pairs of --train)."
        ),
    ] = None,
    min_overlap: Annotated[
        float,
        typer.Option(
            help="Suite: word overlap (Jaccard) of the pairs paraphrase-overlap takes from --train."
        ),
    ] = 0.8,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty output folder.")] = False,
) -> None:
    """Build a benchmark: Shortcut Maze (train, validation, test, anti_test, original_test),
    MPS (imbalanced, balanced, validation, test) or Shortcut Suite (one file per set)."""
    from shortcutlab.cli.build_families import (
        build_maze,
        build_mps,
        build_suite,
        check_family_options,
        suite_summary,
    )
    from shortcutlab.cli.build_summary import benchmark_summary, mps_summary
    from shortcutlab.data.writing import check_output_dir

    builders = {"maze": build_maze, "mps": build_mps, "suite": build_suite}
    summaries = {"maze": benchmark_summary, "mps": mps_summary, "suite": suite_summary}
    with user_errors():
        check_family_options(ctx, family)
        check_output_dir(out, overwrite=overwrite)  # fail before the work, not after
        benchmark = builders[family](ctx.params)
    summaries[family](out_console, benchmark)


@app.command()
def evaluate(
    benchmark: Annotated[Path, typer.Argument(help="A folder written by 'shortcutlab build'.")],
    model: Annotated[
        str, typer.Option(help="Model name (see 'shortcutlab list').")
    ] = "tfidf-logreg",
    seeds: Annotated[int, typer.Option(help="Number of seeds (0..N-1).")] = 5,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="Model parameter KEY=VALUE, e.g. -p C=1."),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the 95 % interval of Δ.")
    ] = 1000,
    vary: Annotated[
        str,
        typer.Option(
            help="What each seed re-draws: model (the fit; the papers' protocol), data (the "
            "benchmark, from the inputs its manifest records) or both."
        ),
    ] = "model",
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="text (terminal tables), md or latex (with footnotes), csv or json (tidy).",
        ),
    ] = "text",
    out: Annotated[
        Path | None, typer.Option(help="Results folder (default: BENCHMARK/results/MODEL).")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty results folder.")] = False,
) -> None:
    """Train on train, evaluate on test / anti_test / original_test, test the drop."""
    from shortcutlab.cli import render
    from shortcutlab.families.maze.evaluate import evaluate_benchmark
    from shortcutlab.registry import check_choice

    with user_errors():
        check_choice("format", fmt, EVALUATE_FORMATS)
        started = time.perf_counter()
        result = evaluate_benchmark(
            benchmark,
            model=model,
            model_params=parse_key_values(param, flag="--param"),
            seeds=seeds,
            bootstrap=bootstrap,
            vary=vary,
        )
        target = result.save(out or benchmark / "results" / model, overwrite=overwrite)
    elapsed = time.perf_counter() - started
    if fmt == "text":
        render.evaluation(out_console, result, elapsed=elapsed, written=target)
    else:
        render.evaluation_text(out_console, err_console, result, fmt, written=target)


@app.command()
def generate(
    out: Annotated[Path, typer.Option(help="Output folder for train and test files.")],
    train_size: Annotated[int, typer.Option(help="Training rows.")] = 4000,
    test_size: Annotated[int, typer.Option(help="Test rows.")] = 2000,
    levels: Annotated[int, typer.Option(help="Rating levels: 4 or 5.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed; the same seed gives the same corpus.")] = 0,
    fmt: Annotated[str, typer.Option("--format", help="csv, jsonl or parquet.")] = "csv",
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


@app.command()
def demo(
    out: Annotated[
        Path, typer.Option(help="Output folder (a previous demo there is replaced).")
    ] = Path("shortcutlab-demo"),
    train_size: Annotated[int, typer.Option(help="Training rows of the generated corpus.")] = 4000,
    test_size: Annotated[int, typer.Option(help="Test rows of the generated corpus.")] = 2000,
    seeds: Annotated[int, typer.Option(help="Seeds per benchmark.")] = 3,
    vary: Annotated[
        str,
        typer.Option(help="What each seed re-draws: model, data (the benchmark) or both."),
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
) -> None:
    """Generate the corpus, build all eight shortcut types at λ = 1, 0.8, 0.6 and evaluate
    tfidf-logreg; then an MPS grid (negation, question, product type) on the same corpus; and
    report.html, every table and figure in one page."""
    from shortcutlab.cli import render
    from shortcutlab.demo import run_demo

    with user_errors():
        started = time.perf_counter()
        with render.progress(err_console, "Shortcut Maze demo") as update:
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
    render.demo(out_console, result, elapsed=time.perf_counter() - started)


@app.command(name="list")
def list_components() -> None:
    """List the shortcut types and models with their options."""
    from shortcutlab.cli import render

    render.components(out_console)
