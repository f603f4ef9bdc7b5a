"""The ``shortcutlab`` command line: parse options, call the library, print, set the exit code.

Errors caused by input (:class:`ShortcutlabError`) print one line and exit with code 2; any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from shortcutlab._version import __version__
from shortcutlab.cli import render
from shortcutlab.cli.options import parse_floats, parse_key_values, parse_list, parse_named_paths
from shortcutlab.errors import ConfigError, ShortcutlabError, ShortcutlabWarning

app = typer.Typer(
    name="shortcutlab",
    help="Measure how much text classifiers rely on shortcuts, and whether it matters.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
out_console = Console(
    highlight=False, soft_wrap=True
)  # messages stay on one line; tables size themselves
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn input errors into one line on stderr and exit code 2; show warnings as they come."""
    with warnings.catch_warnings():  # restores the warning machinery on exit
        warnings.simplefilter("always", ShortcutlabWarning)
        original = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
            if issubclass(category, ShortcutlabWarning):
                err_console.print(f"Warning: {message}", markup=False, soft_wrap=True)
            else:
                original(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        try:
            yield
        except ShortcutlabError as error:
            err_console.print(f"Error: {error}", markup=False, soft_wrap=True)
            raise typer.Exit(code=2) from None


def _version(value: bool) -> None:
    if value:
        out_console.print(f"shortcutlab {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = None,
) -> None:
    """Measure how much text classifiers rely on shortcuts, and whether it matters."""


@app.command()
def build(
    train: Annotated[
        str,
        typer.Option(
            help="Training table: CSV, TSV, JSONL, Parquet or a saved HF dataset (PATH::SPLIT)."
        ),
    ],
    test: Annotated[str, typer.Option(help="Test table, same formats.")],
    shortcut: Annotated[
        str,
        typer.Option(
            help="single-term, synonym, category, concept-occurrence or concept-correlation."
        ),
    ],
    out: Annotated[
        Path, typer.Option(help="Output folder (must not exist or be empty, unless --overwrite).")
    ],
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
    test_strength: Annotated[float, typer.Option(help="λ of test and anti-test.")] = 1.0,
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
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty output folder.")] = False,
) -> None:
    """Build a Shortcut Maze benchmark: train, validation, test, anti_test, original_test."""
    from shortcutlab.data.writing import check_output_dir
    from shortcutlab.splits import build_maze_benchmark, distractor_from_files

    with user_errors():
        check_output_dir(out, overwrite=overwrite)  # fail before the work, not after
        test_paths = parse_named_paths(test_distractor, flag="--test-distractor")
        distractors = None
        if distractor:
            train_paths = parse_named_paths(distractor, flag="--distractor")
            distractors = {
                name: distractor_from_files(
                    name,
                    path,
                    test_paths.get(name),
                    text_col=text_col,
                    label_col=label_col,
                    encoding=encoding,
                )
                for name, path in train_paths.items()
            }
        benchmark = build_maze_benchmark(
            train,
            test,
            shortcut=shortcut,
            shortcut_options=parse_key_values(option, flag="--option"),
            strength=strength,
            strength_mode=strength_mode,
            test_strength=test_strength,
            sampling=sampling,
            schedule=parse_floats(schedule, flag="--schedule"),
            seed=seed,
            val_size=int(val_size) if float(val_size).is_integer() else val_size,
            labels=parse_list(labels),
            distractors=distractors,
            text_col=text_col,
            label_col=label_col,
            text_pair_col=text_pair_col,
            encoding=encoding,
            on_empty=on_empty,
        )
        benchmark.save(out, fmt=fmt, overwrite=overwrite)
    render.benchmark_summary(out_console, benchmark)


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
    out: Annotated[
        Path | None, typer.Option(help="Results folder (default: BENCHMARK/results/MODEL).")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty results folder.")] = False,
) -> None:
    """Train on train, evaluate on test / anti_test / original_test, test the drop."""
    from shortcutlab.experiments.evaluate import evaluate_benchmark

    with user_errors():
        started = time.perf_counter()
        result = evaluate_benchmark(
            benchmark,
            model=model,
            model_params=parse_key_values(param, flag="--param"),
            seeds=seeds,
            bootstrap=bootstrap,
        )
        target = result.save(out or benchmark / "results" / model, overwrite=overwrite)
    render.evaluation(out_console, result, elapsed=time.perf_counter() - started, written=target)


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
    jobs: Annotated[
        int | None, typer.Option(help="Worker processes (default: the CPUs available, up to 8).")
    ] = None,
    overwrite: Annotated[
        bool, typer.Option(help="Replace a non-empty folder that is not a previous demo.")
    ] = False,
) -> None:
    """Generate the corpus, build all eight shortcut types at λ = 1, 0.8, 0.6 and evaluate tfidf-logreg."""
    from shortcutlab.experiments.demo import run_demo

    with user_errors():
        started = time.perf_counter()
        with render.progress(err_console, "Shortcut Maze demo") as update:
            result = run_demo(
                out,
                train_size=train_size,
                test_size=test_size,
                seeds=seeds,
                jobs=jobs,
                overwrite=overwrite,
                on_progress=update,
            )
    render.demo(out_console, result, elapsed=time.perf_counter() - started)


@app.command()
def run(
    spec: Annotated[Path, typer.Argument(help="Experiment spec (YAML).")],
    out: Annotated[
        Path,
        typer.Option(
            help="Run folder: results.sqlite, benchmarks/, spec copy. Re-running resumes."
        ),
    ],
    executor: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
    jobs: Annotated[
        int | None,
        typer.Option(
            help="Parallel workers (local: processes; ray: CPUs of a new local instance)."
        ),
    ] = None,
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (HOST:PORT, ray://HOST:PORT or auto).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option(help="Print the cells and an estimate; run nothing.")
    ] = False,
    fail_fast: Annotated[bool, typer.Option(help="Stop at the first failed cell.")] = False,
    force: Annotated[
        bool,
        typer.Option(
            help="Run into a folder holding another spec's results (shared cells are kept)."
        ),
    ] = False,
) -> None:
    """Run (or resume) an experiment grid: datasets x shortcuts x strengths x models x seeds."""
    from shortcutlab.experiments.runner import estimate_seconds, plan_run, run_experiment

    with user_errors():
        if dry_run:
            spec_obj, planned = plan_run(spec, out)
            render.dry_run(out_console, spec_obj, planned, estimate_seconds(out, planned))
            return
        with render.progress(err_console, "run") as update:
            report = run_experiment(
                spec,
                out,
                executor=executor,
                jobs=jobs,
                address=address,
                fail_fast=fail_fast,
                force=force,
                on_progress=update,
            )
    render.run_report(out_console, err_console, report)
    if report.failed:
        raise typer.Exit(code=1)


@app.command()
def results(
    run_dir: Annotated[Path, typer.Argument(help="A run folder written by 'shortcutlab run'.")],
    fmt: Annotated[str, typer.Option("--format", help="md, csv or latex.")] = "md",
    metric: Annotated[
        str, typer.Option(help="Metric of the Table-9 view: accuracy or macro_f1.")
    ] = "accuracy",
    out: Annotated[
        Path | None, typer.Option(help="Write every table, groups.csv, cells.csv and figures here.")
    ] = None,
    bootstrap: Annotated[
        int | None, typer.Option(help="Bootstrap resamples (default: the spec's).")
    ] = None,
) -> None:
    """Print the paper's tables for a run (Table 1, Table 9) and write the Δ-vs-λ figures."""
    from shortcutlab.experiments.results import load_results
    from shortcutlab.reports import run_report

    with user_errors():
        loaded = load_results(run_dir, bootstrap=bootstrap)
        text = run_report.tables(loaded, fmt, metric)
        written = (
            run_report.write_report(loaded, out, fmt)
            if out
            else run_report.figures(loaded, run_dir / "figures")
        )
    out_console.print(text, markup=False, highlight=False, soft_wrap=True)
    err_console.print(f"Wrote {len(written)} files to {out or run_dir / 'figures'}", markup=False)


@app.command(name="make-tiny-model")
def make_tiny_model(
    out: Annotated[Path, typer.Option(help="Folder for the model and tokenizer.")],
    kind: Annotated[
        str, typer.Option(help="bert (encoder for 'transformer') or llama (decoder, for LoRA).")
    ] = "bert",
    texts: Annotated[
        Path | None,
        typer.Option(
            help="Table whose 'text' column trains the tokenizer (default: generated reviews)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random weights.")] = 0,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing folder.")] = False,
) -> None:
    """Build a tiny randomly initialised model folder, to try the transformer backend offline."""
    from shortcutlab.corpus import generate_reviews
    from shortcutlab.data.loading import load_table
    from shortcutlab.models import tiny
    from shortcutlab.registry import check_choice

    with user_errors():
        check_choice("kind", kind, ("bert", "llama"))
        corpus = (
            load_table(texts, role="texts").frame["text"].tolist()
            if texts
            else generate_reviews(400, seed=seed)["text"].tolist()
        )
        builder = tiny.build_tiny_bert if kind == "bert" else tiny.build_tiny_llama
        path = builder(out, corpus, seed=seed, overwrite=overwrite)
    out_console.print(f"Wrote a tiny {kind} model to {path}")


@app.command(name="rewrite-quality")
def rewrite_quality_command(
    data: Annotated[
        Path, typer.Option(help="The table whose texts are rewritten (CSV, JSONL, Parquet, ...).")
    ],
    shortcut: Annotated[
        str, typer.Option(help="register, author or bible: which pair of styles to check.")
    ] = "register",
    rewriter: Annotated[str, typer.Option(help="rules, file or llm.")] = "rules",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="Rewriter option KEY=VALUE, e.g. -o rewrites=... or -o client=...",
        ),
    ] = None,
    role: Annotated[
        str, typer.Option(help="Which split the table is (file rewriter: which rewrite files).")
    ] = "train",
    text_col: Annotated[str, typer.Option(help="Text column.")] = "text",
    label_col: Annotated[str, typer.Option(help="Label column.")] = "label",
    encoding: Annotated[str, typer.Option(help="Encoding of the table.")] = "utf-8",
    judge: Annotated[
        str | None,
        typer.Option(
            help="LLM judge client as YAML, e.g. '{name: openai-chat, base_url: ..., model: ...}'."
        ),
    ] = None,
    embeddings: Annotated[
        bool, typer.Option(help="Compute sentence-embedding similarity (all-MiniLM-L6-v2).")
    ] = True,
    sample: Annotated[
        int | None, typer.Option(help="Check a seeded random sample of this many rows.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sample and the cross-fitting.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(help="Write summary.csv, rows.csv, flagged.csv and quality.json here."),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out.")] = False,
) -> None:
    """Check style rewrites: LLM-judge scores (paper figure 7), embedding similarity, length, label consistency."""
    from shortcutlab.experiments.rewrite_quality import rewrite_quality

    with user_errors():
        judge_config = (
            parse_key_values([f"judge={judge}"], flag="--judge")["judge"] if judge else None
        )
        if judge is not None and not isinstance(judge_config, dict):
            raise ConfigError(
                f"--judge must be a YAML mapping like '{{name: openai-chat, base_url: URL, model: NAME}}'. Got {judge!r} instead."
            )
        report = rewrite_quality(
            data,
            shortcut=shortcut,
            rewriter=rewriter,
            rewriter_options=parse_key_values(option, flag="--option"),
            role=role,
            judge=judge_config,
            embeddings=embeddings,
            sample=sample,
            seed=seed,
            text_col=text_col,
            label_col=label_col,
            encoding=encoding,
        )
        if out is not None:
            report.save(out, overwrite=overwrite)
    render.rewrite_quality(out_console, report, written=out)


@app.command(name="llm-server")
def llm_server(
    train: Annotated[
        Path | None,
        typer.Option(
            help="Labelled table: answer label prompts with a TF-IDF model trained on it."
        ),
    ] = None,
    text_col: Annotated[str, typer.Option(help="Text column of --train.")] = "text",
    label_col: Annotated[str, typer.Option(help="Label column of --train.")] = "label",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0 picks a free one).")] = 8000,
    model: Annotated[
        str, typer.Option(help="The model name the server answers to.")
    ] = "shortcutlab-test",
    latency: Annotated[float, typer.Option(help="Seconds added to every answer.")] = 0.0,
    api_key_env: Annotated[
        str | None, typer.Option(help="Require the key held in this environment variable.")
    ] = None,
    rate_429: Annotated[float, typer.Option(help="Share of requests answered 429.")] = 0.0,
    rate_500: Annotated[float, typer.Option(help="Share answered 500.")] = 0.0,
    rate_timeout: Annotated[
        float, typer.Option(help="Share that stall past the client's timeout.")
    ] = 0.0,
    rate_malformed: Annotated[float, typer.Option(help="Share answered with broken JSON.")] = 0.0,
    rate_drop: Annotated[float, typer.Option(help="Share whose connection is dropped.")] = 0.0,
    timeout_seconds: Annotated[
        float, typer.Option(help="How long a stalled request stalls.")
    ] = 2.0,
    seed: Annotated[int, typer.Option(help="Seed of the fault decisions.")] = 0,
) -> None:
    """Serve a local OpenAI-compatible chat API (deterministic answers, optional faults) until Ctrl-C.

    It answers the project's own prompts: labels (with --train), style rewrites and rewrite judging.
    """
    from shortcutlab.llm.backends import ClassifierAnswers, project_backend
    from shortcutlab.llm.faults import FaultPlan
    from shortcutlab.llm.server import ChatServer

    with user_errors():
        api_key = os.environ.get(api_key_env) if api_key_env else None
        if api_key_env and not api_key:
            raise ConfigError(
                f"--api-key-env names the variable {api_key_env}, which is not set or empty. Set it, or leave the option out."
            )
        classifier = (
            ClassifierAnswers.from_table(train, text_col=text_col, label_col=label_col)
            if train
            else None
        )
        faults = FaultPlan(
            rate_429=rate_429,
            rate_500=rate_500,
            rate_timeout=rate_timeout,
            rate_malformed=rate_malformed,
            rate_drop=rate_drop,
            timeout_seconds=timeout_seconds,
            seed=seed,
        )
        server = ChatServer(
            project_backend(classifier),
            model=model,
            host=host,
            port=port,
            api_key=api_key,
            latency=latency,
            faults=faults,
        ).start()
    out_console.print(f"Serving {model!r} at {server.url} (Ctrl-C stops).")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    out_console.print(f"Stopped after {server.stats.to_json()['requests']} requests.")


@app.command(name="list")
def list_components() -> None:
    """List the shortcut types and models with their options."""
    render.components(out_console)


# The CLI owns the terminal: Hugging Face's load reports and progress bars would interleave with
# ours. Environment defaults reach spawned workers too; a user's own settings still win.
QUIET_LIBRARIES = {
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def main() -> None:
    """Console-script entry point."""
    for name, value in QUIET_LIBRARIES.items():
        os.environ.setdefault(name, value)
    app(prog_name="shortcutlab")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
