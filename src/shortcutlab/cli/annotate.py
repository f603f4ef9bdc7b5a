"""``shortcutlab annotate``: serve an annotation task to people, export its answers, show progress."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import AlphabeticalGroup, app
from shortcutlab.cli.console import err_console, out_console, user_errors
from shortcutlab.cli.output import FormatOption, Section, check_format, messages, show

annotate_app = typer.Typer(
    cls=AlphabeticalGroup,
    help="A local web app where people label rows, verify concept labels and counterfactual "
    "pairs, judge rewrites, and judge an audit's candidates as shortcut or label signal.",
    no_args_is_help=True,
)
app.add_typer(annotate_app, name="annotate")


@annotate_app.command("serve")
def serve_command(
    source: Annotated[
        Path,
        typer.Argument(
            help="A run folder, a benchmark folder, or an audit folder (shortcut-or-signal)."
        ),
    ],
    task: Annotated[
        str,
        typer.Option(
            help="Task kind: label, verify-attribute, verify-counterfactual, rewrite-quality, "
            "shortcut-or-signal (an audit folder's candidates)."
        ),
    ],
    sample: Annotated[
        int | None,
        typer.Option(
            help="Items drawn per build. A run gives label and verify-attribute one build per "
            "dataset and shortcut (or attribute), so three shortcuts give three times this; "
            "shortcut-or-signal takes the audit's first N candidates "
            "[default: 50; when resuming, the stored]."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the sample [default: 0; when resuming, the stored]."),
    ] = None,
    folder: Annotated[
        Path | None, typer.Option(help="Task folder (default SOURCE/annotations/TASK).")
    ] = None,
    port: Annotated[int, typer.Option(help="Port; 0 picks a free one.")] = 8765,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    benchmark: Annotated[
        str | None,
        typer.Option(help="Run folder with several builds: annotate this benchmark id only."),
    ] = None,
    label_names: Annotated[
        str | None,
        typer.Option(
            help="label task: button texts for the label values in order, comma-separated "
            "(e.g. neutral,amusement,joy,excitement for labels 0-3); answers store the values. "
            "shortcut-or-signal: the names shown next to the candidates' labels."
        ),
    ] = None,
) -> None:
    """Serve a task until Ctrl-C or SIGTERM: created from SOURCE, or resumed from its folder.

    The printed URL carries a fresh access token; requests without it are refused.
    """
    from shortcutlab.annotate.server import Serving, exposure_warning, listen, serve
    from shortcutlab.annotate.task_folder import default_folder, prepare_task, task_progress
    from shortcutlab.annotate.tasks import task_kind

    target = folder if folder is not None else default_folder(source, task)
    with user_errors():
        kind = task_kind(task)
        sock = listen(host, port)  # first: a port in use is refused before anything is written
        warning = exposure_warning(sock)
        if warning is not None:
            err_console.print(f"Warning: {warning}", markup=False, soft_wrap=True)
        try:
            options = {"benchmark": benchmark, "label_names": label_names}
            created = prepare_task(
                source,
                kind,
                folder=target,
                sample=sample,
                seed=seed,
                **{name: value for name, value in options.items() if value is not None},
            )
        except BaseException:
            sock.close()
            raise

    def ready(serving: Serving) -> None:
        verb = "Created" if created else "Resumed"
        drawn = task_progress(target)[0]["drawn"]
        out_console.print(f"{verb} the {task} task in {target}: {drawn}.", markup=False)
        out_console.print(f"Open {serving.url} (Ctrl-C or SIGTERM stops).", markup=False)

    with user_errors():
        stopped = serve(target, sock=sock, kind=kind, on_ready=ready)
    out_console.print(f"Stopped by {stopped}; every acknowledged answer is stored in {target}.")


@annotate_app.command("status")
def status_command(
    folder: Annotated[Path, typer.Argument(help="A task folder (SOURCE/annotations/TASK).")],
    fmt: FormatOption = "table",
) -> None:
    """Progress per annotator: answered, items, and the share answered."""
    from shortcutlab.annotate.task_folder import task_progress

    with user_errors():
        check_format(fmt)
        facts, progress = task_progress(folder)
    say = messages(fmt)
    say.print(
        f"{facts['kind']} task over {facts['source']}: {facts['drawn']} "
        f"(--sample {facts['sample']}, seed {facts['seed']}).",
        markup=False,
    )
    if progress.empty:
        say.print("No answers yet.")
        return
    show(fmt, [Section(progress, title="Answered per annotator")])


@annotate_app.command("export")
def export_command(
    folder: Annotated[Path, typer.Argument(help="A task folder (SOURCE/annotations/TASK).")],
    out: Annotated[
        Path | None, typer.Option(help="Where to write (default: the task folder itself).")
    ] = None,
) -> None:
    """Write answers.csv, summary.json and summary.md (agreement where several annotators judged
    the same items), and print the summary. shortcut-or-signal also writes judgements.yaml, which
    'shortcutlab audit DATA --judgements judgements.yaml' reads."""
    from shortcutlab.annotate.export import export_task

    with user_errors():
        written = export_task(folder, out=out)
    for path in written:
        out_console.print(f"Wrote {path}", markup=False)
    summary = next((path for path in written if path.name == "summary.md"), None)
    if summary is not None:
        out_console.print(summary.read_text(encoding="utf-8"), markup=False)
