"""Commands for experiment grids: run, results."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import err_console, out_console, user_errors
from shortcutlab.cli.options import Details
from shortcutlab.cli.output import FORMAT_HELP, Section, check_format, findings, plain, show
from shortcutlab.errors import GRID, caller, naming_path


@app.command(short_help="Run (or resume) an experiment grid of any family from a spec file.")
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
        str | None,
        typer.Option(
            help="Join the Ray cluster at HOST:PORT, ray://HOST:PORT or auto; without it, the ray "
            "executor starts a Ray instance of its own (RAY_ADDRESS is not read)."
        ),
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
    fmt: Annotated[
        str, typer.Option("--format", help="The --dry-run table's format: " + FORMAT_HELP)
    ] = "table",
    track: Annotated[
        str | None,
        typer.Option(
            help="Log each finished cell and the report to a tracker: mlflow or mlflow:URI "
            "(default: the spec's tracking key)."
        ),
    ] = None,
) -> None:
    """Run (or resume) an experiment grid: datasets x shortcuts x strengths x models x mitigations
    x seeds (Maze), datasets x attributes x models x mitigations x seeds (family: mps), or
    datasets x models x CAT augmentation x seeds (family: cat)."""
    from shortcutlab.cli import render
    from shortcutlab.engine.pool import check_jobs
    from shortcutlab.engine.time_estimate import estimate_time
    from shortcutlab.families import family_of, plan_run, run_experiment

    with user_errors():
        check_format(fmt)
        if dry_run:
            if jobs is not None:  # what the run would refuse, a dry run refuses
                check_jobs(jobs)
            spec_obj, planned = plan_run(spec, out)
            estimate = estimate_time(out, planned)
            render.dry_run(fmt, spec_obj, family_of(spec_obj), planned, estimate)
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
                track=track,
                raise_on_failure=False,  # the report lists each failure, and the exit code is 1
            )
    render.run_report(out_console, err_console, report)
    if report.failed:
        raise typer.Exit(code=1)


@app.command(short_help="Print a run's tables and write its figures.")
def results(
    run_dir: Annotated[Path, typer.Argument(help="A run folder written by 'shortcutlab run'.")],
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="table (terminal tables, the default), md or latex (the papers' tables, with "
            "footnotes), csv or json (tidy: one row per dataset × model × shortcut × λ, or dataset "
            "× attribute × model, statistics as columns; messages go to stderr).",
        ),
    ] = "table",
    metric: Annotated[
        str,
        typer.Option(
            help="Metric of the Maze Table-9 view: a registered per-split metric "
            "('shortcutlab list' shows them)."
        ),
    ] = "accuracy",
    out: Annotated[
        Path | None, typer.Option(help="Write every table, groups.csv, cells.csv and figures here.")
    ] = None,
    bootstrap: Annotated[
        int | None, typer.Option(help="Bootstrap resamples (default: the spec's).")
    ] = None,
    details: Details = False,
    save_suite: Annotated[
        Path | None,
        typer.Option(
            "--save-suite",
            help="Also write a check suite (YAML) of a Maze, MPS or robustness run: each measured "
            "95 % bound ± --margin as a requirement of 'shortcutlab check'.",
            metavar="FILE",
        ),
    ] = None,
    margin: Annotated[
        float, typer.Option(help="Added to each measured bound in --save-suite's thresholds.")
    ] = 0.02,
) -> None:
    """Print a run's tables and write its figures: for a Maze run Table 1 and Table 9 (or the tidy
    statistics) and the Δ-vs-λ figures, with mitigations Table 3 (Test / Anti / Δ per mitigation)
    and each mitigation against erm; for an MPS run δ / Δ (per mitigation), W-ACC, ACC,
    cross-testing and label entropy, and the label-distribution figures."""
    from shortcutlab.families import family_of, load_results

    with user_errors(), caller(GRID):  # a run's notes name its spec's keys
        check_format(fmt)
        if save_suite is not None:
            from shortcutlab.check.saved import check_margin
            from shortcutlab.data.writing import check_no_file_above

            check_margin(margin)
            check_no_file_above(save_suite)
        loaded = load_results(run_dir, bootstrap=bootstrap)
        family = family_of(loaded)
        suite_text = _suite_text(loaded, margin) if save_suite is not None else None
        files = "md" if fmt == "table" else fmt  # --out writes text files: Markdown for table
        sections = family.results_sections(loaded, metric) if fmt == "table" else []
        text = "" if sections else family.results_as_text(loaded, files, metric, details=details)
        found = family.findings(loaded, metric)
        written = (
            _write_whole(lambda folder: family.write_results(loaded, folder, files), out)
            if out
            else _write_whole(
                lambda folder: family.write_figures(loaded, folder), run_dir / "figures"
            )
        )
        if save_suite is not None and suite_text is not None:
            from shortcutlab.data.writing import write_text_atomically

            write_text_atomically(save_suite, suite_text, option="save_suite")
    if sections:
        shown = [Section(t, title, notes if details else ()) for title, t, notes in sections]
        show(fmt, shown)
    plain(out_console, text)
    findings(fmt, found)
    if save_suite is not None:
        err_console.print(f"Wrote the suite {save_suite}", markup=False)
    if written:
        err_console.print(
            f"Wrote {len(written)} files to {out or run_dir / 'figures'}", markup=False
        )


def _write_whole(write: Callable[[Path], list[Path]], out: Path) -> list[Path]:
    """Write into a temporary folder beside ``out``, then move each file into ``out``: a failed
    write (a full disk, a figure that cannot be drawn) leaves no half-written file and no empty
    folder, and other files in ``out`` stay."""
    from shortcutlab.data.writing import check_folder_path

    check_folder_path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent))
    try:
        with naming_path(out):
            written = write(staging)
        if not written:
            return []
        if not out.exists():
            os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's 0700 would outlive the rename
            os.replace(staging, out)
        else:
            for path in sorted(staging.rglob("*")):
                if path.is_file():
                    target = out / path.relative_to(staging)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(path, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [out / path.relative_to(staging) for path in written]


def _umask() -> int:
    mask = os.umask(0)  # the CLI's main thread: no other thread creates files meanwhile
    os.umask(mask)
    return mask


def _suite_text(loaded: Any, margin: float) -> str:
    """The check suite of a run, from its family's writer (check.run_suites.SUITE_WRITERS)."""
    from shortcutlab.check.run_suites import run_suite
    from shortcutlab.check.saved import suite_yaml

    return suite_yaml(run_suite(loaded, margin))
