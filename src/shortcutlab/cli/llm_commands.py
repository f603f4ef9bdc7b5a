"""Commands around language models: make-tiny-model, rewrite-quality, llm-server."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import out_console, user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.options import parse_client, parse_key_values
from shortcutlab.errors import ConfigError
from shortcutlab.serving.faults import FaultPlan

if TYPE_CHECKING:
    from shortcutlab.serving.server import ChatServer


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
    from shortcutlab.params import check_choice

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
    from shortcutlab.cli import render
    from shortcutlab.families.maze.rewrite_quality import rewrite_quality

    with user_errors():
        judge_config = parse_client(judge, flag="--judge")
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
@dataclass_options(faults=FaultPlan)
def llm_server(
    train: Annotated[
        Path | None,
        typer.Option(
            help="Labelled table: answer label prompts with a TF-IDF model trained on it."
        ),
    ] = None,
    text_col: Annotated[str, typer.Option(help="Text column of --train.")] = "text",
    text_pair_col: Annotated[
        str | None,
        typer.Option(
            help="Second text column of --train (e.g. hypothesis): a pair classifier answers NLI prompts."
        ),
    ] = None,
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
    *,
    faults: FaultPlan,
) -> None:
    """Serve a local OpenAI-compatible chat API (deterministic answers, optional faults) until Ctrl-C or SIGTERM.

    It answers the project's own prompts: labels (with --train; NLI prompts with chain-of-thought
    reasoning when --text-pair-col makes it a pair classifier), style rewrites and rewrite judging.
    """
    from shortcutlab.serving.backends import ClassifierAnswers, project_backend
    from shortcutlab.serving.server import ChatServer

    with user_errors():
        api_key = os.environ.get(api_key_env) if api_key_env else None
        if api_key_env and not api_key:
            raise ConfigError(
                f"--api-key-env names the variable {api_key_env}, which is not set or empty. Set it, or leave the option out."
            )
        classifier = (
            ClassifierAnswers.from_table(
                train, text_col=text_col, text_pair_col=text_pair_col, label_col=label_col
            )
            if train
            else None
        )
        server = ChatServer(
            project_backend(classifier),
            model=model,
            host=host,
            port=port,
            api_key=api_key,
            latency=latency,
            faults=faults,
        )
    _serve_until_stopped(server, model)


def _serve_until_stopped(server: ChatServer, model: str) -> None:
    """Start ``server``, print where it listens, and stop it on Ctrl-C or SIGTERM."""
    from shortcutlab.serving.shutdown import stop_on_signals

    # Handlers first: a signal that comes while the socket opens must still stop the server.
    with stop_on_signals() as stop:
        with user_errors():
            server.start()
        try:
            out_console.print(f"Serving {model!r} at {server.url} (Ctrl-C or SIGTERM stops).")
            received = stop.wait()
        finally:
            server.stop()
    name = received.name if received is not None else "a stop signal"
    out_console.print(f"Stopped by {name} after {server.stats.to_json()['requests']} requests.")
